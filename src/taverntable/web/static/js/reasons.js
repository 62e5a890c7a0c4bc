// An illegal move's reason in the page's language (the engine's key and parameters), and the
// link to the rule that refuses it.
import { cardsShort, SUIT_SYMBOL } from "./cards.js";
import { t } from "./i18n.js";
import { gameInfo } from "./store.js";

const KIND = {
  joker: "kind.joker", goods: "kind.goods", penalty: "kind.penalty", warrior: "kind.warrior",
  "tower ace": "kind.tower_ace", "dark tower": "kind.dark_tower", Thief: "kind.thief",
  Witch: "kind.witch", Warlock: "kind.warlock",
};
const CARD_PARAMS = ["card", "cards", "fourth", "spread_cards", "attacker", "missing", "extra"];

// An illegal move's reason in the page's language (the engine's key and parameters).
export function reasonText(reason, names) {
  const params = { ...reason.params };
  for (const name of CARD_PARAMS) if (name in params) params[name] = cardsShort(String(params[name]).split(" "));
  if ("kind" in params) params.kind = t(KIND[params.kind] || "kind.goods");
  if ("suit" in params) params.suit = SUIT_SYMBOL[params.suit] || params.suit;
  if ("seat" in params) params.seat = names[params.seat] ?? t("seat.number", { number: Number(params.seat) + 1 });
  if ("spread" in params) params.spread = Number(params.spread) + 1;
  return t(`reason.${reason.key}`, params);
}

// The rules page of a game (its family's, /api/games's ``rules``), at a rule's anchor.
export function rulesLink(game, rule, lang) {
  return `/rules/${gameInfo(game).rules}?lang=${lang}${rule && rule !== "A" ? `#${rule}` : ""}`;
}
