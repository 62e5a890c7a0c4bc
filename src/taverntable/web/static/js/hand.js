// The seat's own cards and the moves it can make with them: select cards by click or tap, and
// the buttons offer exactly the legal moves that use the selected cards (and those with none).
import { Card, cardsShort, sortCards } from "./cards.js";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { moveLabel, offeredMoves, playableCards } from "./moves.js";
import { sendMove } from "./net.js";
import { updateTable } from "./store.js";

export function zoneCards(view, zone) {
  if (zone === "hand") return view.hand || [];
  const seat = Number(zone.split(":")[1]);
  if (seat === view.seat && view.store) return view.store;
  return view.known_stores?.[seat] || [];
}

export function toggleCard(table, zone, index) {
  const sel = table.selection;
  const items = sel.zone === zone ? sel.items : [];
  const next = items.includes(index) ? items.filter((i) => i !== index) : [...items, index];
  updateTable({ selection: { zone, items: next }, error: null });
}

// Cards of one zone (the hand, or a store the seat may choose from now) as selectable buttons.
export function SelectableCards({ table, zone, label, sortBy }) {
  const view = table.view;
  const cards = zoneCards(view, zone);
  const playable = playableCards(view, zone);
  const sel = table.selection.zone === zone ? table.selection.items : [];
  const order = sortCards(cards, sortBy || "rank");
  return html`<div class="hand" role="group" aria-label=${label}>
    ${order.map(({ text, index }) => html`<${Card} key=${index} text=${text} selected=${sel.includes(index)}
      playable=${playable.has(text)} onClick=${() => toggleCard(table, zone, index)} />`)}
  </div>`;
}

export function selectedTexts(table) {
  const cards = zoneCards(table.view, table.selection.zone);
  return table.selection.items.map((i) => cards[i]).filter(Boolean);
}

// The buttons: the legal moves for the selection, numbered for the keyboard (1…9).
export function MoveBar({ table, names }) {
  const view = table.view;
  if (!view || !(view.legal_moves || []).length) return null;
  const selected = selectedTexts(table);
  const moves = offeredMoves(view, table.selection.zone, selected);
  const withCards = moves.filter((m) => m.cards.length > 0);
  return html`<div class="move-bar" role="toolbar" aria-label=${t("moves.label")}>
    <div class="selection" aria-live="polite">
      ${selected.length ? t("moves.selected", { cards: cardsShort(selected) }) : t("moves.select_hint")}
      ${selected.length && !withCards.length ? html` <span class="hint">${t("moves.no_move_with")}</span>` : null}
    </div>
    <div class="buttons">
      ${moves.map((move, i) => html`<button type="button" class=${"move" + (move.cards.length ? " with-cards" : "")}
        data-move=${move.text} onClick=${() => sendMove(move.text)}>
        ${i < 9 ? html`<kbd aria-hidden="true">${i + 1}</kbd> ` : null}${moveLabel(move, view, names)}</button>`)}
    </div>
  </div>`;
}

export function movesForKeys(table) {
  const view = table.view;
  if (!view) return [];
  return offeredMoves(view, table.selection.zone, selectedTexts(table));
}
