// The coach's hints at the table (issue 27): a table created with hints on sends each person's
// seat a `hint` frame at its decisions, computed from that seat's view alone (docs/protocol.md).
// Shown under the move bar while it is about the view on screen (its `version`).
import { html } from "./html.js";
import { t } from "./i18n.js";

const percent = (p) => `${Math.round(100 * p)}%`;
const signed = (x, digits = 1) => `${x > 0 ? "+" : x < 0 ? "\u2212" : ""}${Math.abs(x).toFixed(digits)}`;

function TonkLines({ hint }) {
  return html`${hint.caught !== null ? html`<p data-hint="drop">${t("hint.drop", { total: hint.total, pct: percent(hint.caught) })}</p>` : null}
    ${hint.pile !== null && hint.pile_value !== null ? html`<p data-hint="pile">${hint.pile_spread
      ? t("hint.pile_spread", { card: hint.pile, points: signed(hint.pile_value) })
      : t("hint.pile", { card: hint.pile, points: signed(hint.pile_value) })}</p>` : null}`;
}

function TowersLines({ hint, names }) {
  return html`${hint.towers.map((tower) => html`<p data-hint="tower" data-seat=${tower.seat}>${t("hint.tower",
      { name: names[tower.seat], goods: tower.goods, pct: percent(tower.chance) })}</p>`)}
    ${hint.attack ? html`<p data-hint="attack">${hint.attack.kind === "raid"
      ? t("hint.raid", { card: hint.attack.card, points: signed(hint.attack.cost, 0), count: hint.attack.cards })
      : t("hint.curse", { card: hint.attack.card, points: signed(hint.attack.cost, 0), count: hint.attack.cards })}</p>` : null}`;
}

export function Hints({ table, names }) {
  const hint = table.hint;
  if (!hint || hint.version !== table.version || !table.view?.legal_moves?.length) return null;
  const body = hint.tonk ? html`<${TonkLines} hint=${hint.tonk} />` : hint.towers
    ? html`<${TowersLines} hint=${hint.towers} names=${names} />` : null;
  return html`<aside class="hints" aria-label=${t("hint.title")} role="note">
    <strong>${t("hint.title")}</strong>${body}</aside>`;
}
