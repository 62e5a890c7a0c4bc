// The moves the view offers (its legal_moves, the only truth), read as: which cards they use and
// from where, and how a button or the log says them. Nothing here decides what is legal.
import { cardsShort, isCard, rankShort, SUIT_SYMBOL } from "./cards.js";
import { t } from "./i18n.js";
import { gameInfo } from "./store.js";

// Which family's board, seats, moves and sheet a game's table shows (its family from /api/games).
export const isTonk = (game) => gameInfo(game).family === "tonk";
export const isTowers = (game) => gameInfo(game).family === "three-towers";

// What a move text uses: {text, verb, cards (card texts it takes from `zone`), zone, seat, ...}.
export function readMove(text, view) {
  const words = text.split(" ");
  const verb = words[0];
  const move = { text, verb, cards: [], zone: "hand", seat: null, extra: null };
  if (isTonk(view.game)) {
    if (verb === "draw") move.extra = words[1];
    else if (verb === "hit") {
      move.spread = Number(words[1]);
      move.cards = words.slice(2);
    } else move.cards = words.slice(1).filter(isCard);
    return move;
  }
  switch (verb) {
    case "trade":
      move.cards = [words[1]];
      if (words[1] === "X") move.extra = { suit: words[2], mode: words[3] };
      break;
    case "build": case "add": case "defend": case "store":
      move.cards = words.slice(1);
      break;
    case "answer":
      move.cards = words.slice(1).filter(isCard);
      move.extra = words.length > 2 && !isCard(words[2]) ? words[2] : null;
      break;
    case "raid": case "curse":
      move.seat = Number(words[1]);
      move.cards = [words[2]];
      break;
    case "give": // a 4-kings redeal gives from the hand; a dark tower from one's store
      move.cards = [words[1]];
      move.seat = Number(words[2]);
      if (view.phase === "dark") move.zone = `store:${view.seat}`;
      break;
    case "take":
      move.seat = Number(words[1]);
      move.cards = [words[2]];
      move.zone = `store:${words[1]}`;
      break;
    case "redeal":
      if (words[1] === "X") move.cards = ["X"];
      else if (words[1] === "jacks") move.seat = Number(words[2]);
      else move.extra = words[1] === "warriors" ? words.slice(2) : words[1];
      move.kind = words[1] === "X" ? "joker" : words[1];
      break;
    case "name":
      move.seat = Number(words[1]);
      break;
    default:
      break;
  }
  return move;
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((card, i) => card === y[i]);
}

// The moves to offer for a selection {zone, cards}: every legal move without cards, and every
// move whose cards are exactly the selected ones, from the same zone.
export function offeredMoves(view, zone, selected) {
  return (view.legal_moves || []).map((text) => readMove(text, view)).filter((move) => (
    move.cards.length === 0 || (move.zone === zone && sameCards(move.cards, selected))));
}

// The cards of `zone` that some legal move uses: a hint of what can be played.
export function playableCards(view, zone) {
  const cards = new Set();
  for (const text of view.legal_moves || []) {
    const move = readMove(text, view);
    if (move.zone === zone) move.cards.forEach((card) => cards.add(card));
  }
  return cards;
}

// Label keys of the buttons, by verb (Tonk family and Three Towers).
const TONK_BUTTON = {
  drop: "move.tonk.drop", end: "move.tonk.end", discard: "move.tonk.discard",
  spread: "move.tonk.spread", hit: "move.tonk.hit",
};
const TOWERS_BUTTON = {
  trade: "move.towers.trade", build: "move.towers.build", add: "move.towers.add",
  raid: "move.towers.raid", curse: "move.towers.curse", pass: "move.towers.pass",
  answer: "move.towers.answer", fail: "move.towers.fail", defend: "move.towers.defend",
  yield: "move.towers.yield", name: "move.towers.name", store: "move.towers.store",
  give: "move.towers.give", take: "move.towers.take", done: "move.towers.done",
};
const REDEAL_BUTTON = {
  joker: "move.towers.redeal_joker", warriors: "move.towers.redeal_warriors",
  jacks: "move.towers.redeal_jacks", queens: "move.towers.redeal_queens",
  kings: "move.towers.redeal_kings",
};
const MODE = { take: "move.towers.mode_take", give: "move.towers.mode_give" };

// What a button says for a move; `names` are the seats' names.
export function moveLabel(move, view, names) {
  const params = { cards: cardsShort(move.cards), seat: names[move.seat] ?? "" };
  if (isTonk(view.game)) {
    if (move.verb === "draw") return t(move.extra === "pile" ? "move.tonk.draw_pile" : "move.tonk.draw_stock");
    return t(TONK_BUTTON[move.verb] || move.text, { ...params, spread: (move.spread ?? 0) + 1 });
  }
  if (move.verb === "redeal") {
    const ranks = Array.isArray(move.extra) ? move.extra.map(rankShort).join(" ") : "";
    return t(REDEAL_BUTTON[move.kind], { ...params, ranks });
  }
  if (move.verb === "trade" && move.extra) {
    return t("move.towers.trade_joker", { suit: SUIT_SYMBOL[move.extra.suit], mode: t(MODE[move.extra.mode]) });
  }
  if (move.verb === "answer" && move.extra) {
    return t("move.towers.answer_joker", { mode: t(MODE[move.extra]) });
  }
  return t(TOWERS_BUTTON[move.verb] || move.text, params);
}

// The move the selected cards come closest to, when no legal move uses exactly them: a legal
// move with as many cards, the selected ones put in place of its own (J♠ against a raid:
// `defend JS`), else the move of the phase that takes cards (Tonk: a discard or a spread).
// The server then says why the engine refuses it (a `why` frame): nothing here judges.
const FALLBACK = { turn: "trade", answer: "answer", defend: "defend", queens: "store" };
export function closestMove(view, zone, selected) {
  if (!selected.length) return null;
  const legal = new Set(view.legal_moves || []);
  for (const text of view.legal_moves || []) {
    const move = readMove(text, view);
    if (move.zone !== zone || move.cards.length !== selected.length) continue;
    let k = 0;
    const words = text.split(" ").map((w) => (isCard(w) && k < selected.length ? selected[k++] : w));
    const candidate = words.join(" ");
    if (!legal.has(candidate)) return candidate;
  }
  if (zone !== "hand") return null;
  if (isTonk(view.game)) return `${selected.length === 1 ? "discard" : "spread"} ${selected.join(" ")}`;
  const verb = FALLBACK[view.phase];
  if (!verb || (verb === "trade" && selected.length !== 1)) return null;
  return `${verb} ${selected.join(" ")}`;
}

// R2: a Three Towers card's points in a store.
const SPADE_FIGURE = { A: -15, J: -5, Q: -10, K: -40 };
export function storeValue(text) {
  if (text === "X") return 0;
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  if (suit === "S") return SPADE_FIGURE[rank] ?? -Number(rank);
  if (rank === "A") return 15;
  return ["J", "Q", "K"].includes(rank) ? 0 : Number(rank);
}

// R9/R23: what a raid that goes through takes from the tower: from the top down to the topmost
// reinforcing ace (which it takes too), or, without one, the whole tower.
export function towerTake(tower) {
  for (let i = tower.length - 1; i > 0; i--) if (tower[i].startsWith("A")) return tower.slice(i);
  return tower;
}

// What letting this seat's attack through costs, in words (R9), or null.
export function attackCost(view) {
  const attack = view.attack;
  if (!attack || attack.target !== view.seat) return null;
  if (attack.kind === "raid") {
    const taken = towerTake(view.towers[view.seat] || []);
    const points = taken.reduce((sum, c) => sum + storeValue(c), 0);
    return t("moves.cost_raid", { cards: cardsShort(taken), points: points > 0 ? `+${points}` : String(points) });
  }
  const key = { JS: "moves.cost_thief", QS: "moves.cost_witch", KS: "moves.cost_warlock" }[attack.card];
  return key ? t(key) : null;
}
