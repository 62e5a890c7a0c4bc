// The seat's own cards and the moves it can make with them: select cards by click or tap, and
// the buttons offer exactly the legal moves that use the selected cards (and those with none).
import { useEffect } from "preact/hooks";
import { Card, cardsShort, sortCards } from "./cards.js";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { attackCost, closestMove, isTowers, moveLabel, offeredMoves, playableCards } from "./moves.js";
import { askWhy, sendMove } from "./net.js";
import { reasonText, rulesLink } from "./reasons.js";
import { state, updateTable } from "./store.js";

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
  // The card just drawn (its first copy), marked until the turn ends.
  const drawn = zone === "hand" && table.drawn ? cards.indexOf(table.drawn) : -1;
  return html`<div class="hand" role="group" aria-label=${label}>
    ${order.map(({ text, index }) => html`<${Card} key=${index} text=${text} selected=${sel.includes(index)}
      playable=${playable.has(text)} drawn=${index === drawn} onClick=${() => toggleCard(table, zone, index)} />`)}
  </div>`;
}

export function selectedTexts(table) {
  const cards = zoneCards(table.view, table.selection.zone);
  return table.selection.items.map((i) => cards[i]).filter(Boolean);
}

// Why the selected cards make no move: the engine's refusal of the closest move (asked once
// per selection and version), or the plain hint while it comes.
function NoMoveWith({ table, names, selected }) {
  const view = table.view;
  const candidate = closestMove(view, table.selection.zone, selected);
  const because = table.because;
  useEffect(() => {
    if (candidate && !(because && because.move === candidate)) askWhy(candidate);
  }, [candidate, table.version]);
  if (!candidate || !because || because.move !== candidate || because.legal) {
    return html` <span class="hint">${t("moves.no_move_with")}</span>`;
  }
  const text = because.reason ? reasonText(because.reason, names) : because.message;
  return html` <span class="hint why" data-rule=${because.rule || ""}>${t("moves.why", { reason: text })}
    ${because.rule ? html` <a class="rule" href=${rulesLink(view.game, because.rule, state.lang)} target="_blank"
      rel="noopener">${t("error.rule_link", { rule: because.rule })}</a>` : null}</span>`;
}

// A raid or curse on this seat: what letting it through costs (R9).
function AttackCost({ view }) {
  if (!isTowers(view.game) || view.phase !== "defend" || !view.attack) return null;
  const cost = attackCost(view);
  return cost ? html`<p class="cost">${cost}</p>` : null;
}

// The buttons: the legal moves for the selection, numbered for the keyboard (1…9).
export function MoveBar({ table, names }) {
  const view = table.view;
  if (!view || !(view.legal_moves || []).length) return null;
  const selected = selectedTexts(table);
  const moves = offeredMoves(view, table.selection.zone, selected);
  const withCards = moves.filter((m) => m.cards.length > 0);
  return html`<div class="move-bar" role="toolbar" aria-label=${t("moves.label")}>
    ${table.queued ? html`<p class="notice queued" role="status">${t("moves.queued")}</p>` : null}
    <${AttackCost} view=${view} />
    <div class="selection" aria-live="polite">
      ${selected.length ? t("moves.selected", { cards: cardsShort(selected) }) : t("moves.select_hint")}
      ${selected.length && !withCards.length ? html`<${NoMoveWith} table=${table} names=${names} selected=${selected} />` : null}
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
