// Cards as the project draws them (CSS, no images): the rank in the page's language, the suit by
// its symbol (not by colour alone), and a spoken name for screen readers.
import { html } from "./html.js";
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: "card.suit.S", H: "card.suit.H", D: "card.suit.D", C: "card.suit.C" };
const RANK_SHORT = { A: "card.short.A", J: "card.short.J", Q: "card.short.Q", K: "card.short.K" };
const RANK_NAME = { A: "card.rank.A", J: "card.rank.J", Q: "card.rank.Q", K: "card.rank.K" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["S", "H", "D", "C"];

export function parseCard(text) {
  if (text === "X") return { text, rank: "X", suit: null, joker: true };
  return { text, rank: text.slice(0, -1), suit: text.slice(-1), joker: false };
}

export function isCard(token) {
  return token === "X" || /^(10|[2-9AJQK])[SHDC]$/.test(token);
}

export function rankShort(rank) {
  return RANK_SHORT[rank] ? t(RANK_SHORT[rank]) : rank;
}

// "Q♥" in the page's language (Russian "Д♥"): for sentences and buttons.
export function cardShort(text) {
  const card = parseCard(text);
  if (card.joker) return t("card.joker_short");
  return rankShort(card.rank) + SUIT_SYMBOL[card.suit];
}

export function cardsShort(texts) {
  return texts.map(cardShort).join(" ");
}

// "queen of hearts": what a screen reader says.
export function cardName(text) {
  const card = parseCard(text);
  if (card.joker) return t("card.joker");
  const rank = RANK_NAME[card.rank] ? t(RANK_NAME[card.rank]) : card.rank;
  return t("card.name", { rank, suit: t(SUIT_NAME[card.suit]) });
}

export function suitName(suit) {
  return t(SUIT_NAME[suit]);
}

// Sort keys: by rank (A low, the joker last) or by suit then rank.
export function sortCards(texts, by) {
  const key = (text) => {
    const card = parseCard(text);
    const rank = card.joker ? 13 : RANKS.indexOf(card.rank);
    const suit = card.joker ? 4 : SUITS.indexOf(card.suit);
    return by === "suit" ? suit * 20 + rank : rank * 5 + suit;
  };
  return texts.map((text, index) => ({ text, index })).sort((a, b) => key(a.text) - key(b.text));
}

// One card. With onClick it is a button that can be selected (aria-pressed).
export function Card({ text, selected, playable, onClick, small, label, drawn }) {
  const card = parseCard(text);
  const suitClass = card.joker ? "joker" : `suit-${card.suit}`;
  const classes = ["card", suitClass, small ? "small" : "", selected ? "selected" : "",
    playable ? "playable" : "", drawn ? "drawn" : ""].join(" ");
  const face = card.joker
    ? html`<span class="corner" aria-hidden="true">★</span><span class="pip" aria-hidden="true">★</span>`
    : html`<span class="corner" aria-hidden="true">${rankShort(card.rank)}<br />${SUIT_SYMBOL[card.suit]}</span>
        <span class="pip" aria-hidden="true">${SUIT_SYMBOL[card.suit]}</span>`;
  const name = (label || cardName(text)) + (drawn ? ` (${t("hand.just_drawn")})` : "");
  if (onClick) {
    return html`<button type="button" class=${classes} aria-pressed=${selected ? "true" : "false"}
      aria-label=${name} title=${name} data-card=${text} onClick=${onClick}>${face}</button>`;
  }
  return html`<span class=${classes} role="img" aria-label=${name} title=${name} data-card=${text}>${face}</span>`;
}

export function CardBack({ count, label, small }) {
  return html`<span class=${"card back" + (small ? " small" : "")} role="img" aria-label=${label}>
    <span class="count">${count}</span></span>`;
}

export function CardRow({ cards, small, label }) {
  return html`<span class="card-row" role="group" aria-label=${label || null}>
    ${cards.map((text, i) => html`<${Card} key=${i} text=${text} small=${small} />`)}</span>`;
}
