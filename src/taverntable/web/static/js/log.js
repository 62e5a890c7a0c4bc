// The move log in sentences, built from the events each seat receives (docs/contract.md) and,
// after connecting, from the view's history. A sentence is {key, params}: it is translated when
// shown, so a language switch changes the whole log.
import { cardsShort, SUIT_SYMBOL } from "./cards.js";
import { isTonk, isTowers, readMove } from "./moves.js";

// Moves told by their `move` event (Tonk draws are told by the draw and take events instead).
const TONK_MOVE = {
  drop: "log.tonk.drop", spread: "log.tonk.spread", hit: "log.tonk.hit",
  discard: "log.tonk.discard", end: "log.tonk.end",
};
const TOWERS_MOVE = {
  trade: "log.towers.trade", build: "log.towers.build", add: "log.towers.add",
  raid: "log.towers.raid", curse: "log.towers.curse", pass: "log.towers.pass",
  answer: "log.towers.answer", fail: "log.towers.fail", defend: "log.towers.defend",
  yield: "log.towers.yield", name: "log.towers.name", store: "log.towers.store",
  give: "log.towers.give", take: "log.towers.take", done: "log.towers.done",
  redeal: "log.towers.redeal",
};
const HIDDEN_STORE = "log.towers.store_hidden";
const HIDDEN_GIVE = "log.towers.give_hidden";
const MODE = { take: "log.towers.mode_take", give: "log.towers.mode_give" };
const REDEAL_KIND = {
  joker: "log.towers.redeal_joker", warriors: "log.towers.redeal_warriors",
  jacks: "log.towers.redeal_jacks", queens: "log.towers.redeal_queens",
  kings: "log.towers.redeal_kings",
};
// How a Tonk deal ended (the records spec's result.end).
export const END = {
  tonk: "end.tonk", tor: "end.tor", low: "end.low", void: "end.void", drop: "end.drop",
  burned: "end.burned", out: "end.out", stock: "end.stock",
};

// The words of a match, defined once (i18n "word.*"): Tonk plays a match of deals, Three
// Towers a match of games, each of rounds. The header, the board, the log and the sheet count
// with them, and number a deal (game) within its match as the sheet does.
export function matchNumber(summary, deal) {
  if (!summary) return deal;
  return (summary.match_deal || 0) + (deal - summary.deal);
}

export function dealStart(game, number) {
  return { key: isTowers(game) ? "log.game_start" : "log.deal_start", params: { deal: number } };
}

// The sentences of one entry of a `log` frame (a move, or the deal's setting up).
export function entrySentences(events, game, me) {
  return eventSentences(events, game, null, me);
}

// Sentences of one move's events (`names`: the seats' names; `me`: this page's seat or null).
export function eventSentences(events, game, phaseBefore, me) {
  const out = [];
  for (const e of events) {
    const who = e.seat;
    if (e.kind === "move") {
      const sentence = moveSentence(e.move, who, game, phaseBefore);
      if (sentence) out.push(sentence);
      continue;
    }
    const cards = e.cards ? cardsShort(e.cards) : null;
    if (isTonk(game)) {
      if (e.kind === "upcard") out.push({ key: "log.tonk.upcard", params: { cards } });
      else if (e.kind === "draw") {
        out.push(cards ? { key: "log.tonk.draw_seen", who, params: { cards } }
          : { key: "log.tonk.draw", who, params: {} });
      } else if (e.kind === "take") out.push({ key: "log.tonk.take", who, params: { cards } });
      else if (e.kind === "show") {
        out.push({ key: "log.tonk.show", who, params: { cards, total: e.data?.total ?? "" } });
      } else if (e.kind === "deal_end") out.push(...dealEndSentences(e.data));
      continue;
    }
    switch (e.kind) {
      case "win":
        out.push({ key: e.from === "attack" ? "log.towers.win_witch" : "log.towers.win", who,
          params: { cards: cards ?? "" } });
        break;
      case "repelled":
        out.push({ key: "log.towers.repelled", who, params: { cards: cards ?? "" } });
        break;
      case "plunder":
        out.push({ key: "log.towers.plunder", who, params: { cards: cards ?? "", count: e.count } });
        break;
      case "curse":
        out.push({ key: "log.towers.cursed", who: Number(e.to.split(":")[1]), params: { cards: cards ?? "" } });
        break;
      case "steal":
        out.push({ key: "log.towers.steal", who, params: { count: e.count } });
        break;
      case "show":
        out.push({ key: "log.towers.show", who, params: { cards: cards ?? "" } });
        break;
      case "round_end":
        out.push({ key: "log.towers.round_end", params: { round: e.data.round },
          points: e.data.points });
        break;
      case "win_bonus":
        out.push({ key: "log.towers.win_bonus", who, params: { points: e.data.points } });
        break;
      case "game_end":
        out.push({ key: "log.towers.game_end", winners: e.data.winners, params: {} });
        break;
      default:
        break;
    }
  }
  return out;
}

function dealEndSentences(result) {
  const out = [{ key: END[result.end] || "end.out", winners: result.winners || [], params: {} }];
  for (const [from, to, amount] of result.payments || []) {
    out.push({ key: "log.tonk.pays", who: from, whom: to, params: { amount } });
  }
  return out;
}

// One move as a sentence, or null for the moves told by other events or not at all.
export function moveSentence(text, who, game, phase) {
  if (who === -1) return null; // chance steps: the deal, a shuffle, a steal (told by events)
  const view = { game, phase, seat: who };
  const move = readMove(text, view);
  const cards = cardsShort(move.cards.filter((c) => c !== "?"));
  if (isTonk(game)) {
    const key = TONK_MOVE[move.verb];
    return key ? { key, who, params: { cards, spread: (move.spread ?? 0) + 1 } } : null;
  }
  if (text.includes("?")) {
    return { key: move.verb === "store" ? HIDDEN_STORE : HIDDEN_GIVE, who, whom: move.seat, params: {} };
  }
  const key = TOWERS_MOVE[move.verb];
  if (!key) return null;
  const params = { cards };
  if (move.verb === "trade" && move.extra) {
    params.cards = `${cards} ${SUIT_SYMBOL[move.extra.suit]}`;
    params.mode = MODE[move.extra.mode];
  }
  if (move.verb === "answer" && move.extra) params.mode = MODE[move.extra];
  if (move.verb === "redeal") params.kind = REDEAL_KIND[move.kind];
  return { key, who, whom: move.seat, params };
}

// The log after connecting: this deal's moves from the view's history (no cards drawn).
export function historySentences(view) {
  const out = [];
  for (const [who, text] of view.history || []) {
    const sentence = moveSentence(text, who, view.game, null);
    if (sentence) out.push(sentence);
  }
  return out;
}
