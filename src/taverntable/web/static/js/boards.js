// The middle of the table: Tonk's stock, pile and spreads; Three Towers' deck, the trade and the
// attack in play.
import { Card, CardBack, CardRow, cardsShort, SUIT_SYMBOL } from "./cards.js";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { Name } from "./seats.js";

export function TonkBoard({ view, names }) {
  const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
  return html`<div class="board tonk-board">
    <div class="piles">
      <div class="stock" data-zone="stock">
        <span class="caption">${t("tonk.stock")}</span>
        <${CardBack} count=${view.stock_size} label=${t("tonk.stock_count", { count: view.stock_size })} />
        <span class="sub">${t("tonk.stock_count", { count: view.stock_size })}</span>
      </div>
      <div class="pile" data-zone="pile" data-size=${view.pile.length}>
        <span class="caption">${t("tonk.pile")}</span>
        ${top ? html`<${Card} text=${top} label=${t("tonk.pile_top", { card: cardsShort([top]) })} />`
          : html`<span class="card empty" role="img" aria-label=${t("tonk.pile_empty")}></span>`}
        <span class="sub">${t("tonk.pile_count", { count: view.pile.length })}</span>
      </div>
    </div>
    <div class="spreads" aria-label=${t("tonk.spreads")}>
      <h3>${t("tonk.spreads")}</h3>
      ${view.spreads.length ? view.spreads.map((s) => html`<div class="spread" data-spread=${s.number}>
          <span class="caption">${t("tonk.spread_title", { number: s.number + 1, owner: names[s.owner] ?? "" })}</span>
          <${CardRow} cards=${s.cards} small=${true} label=${t("tonk.spread_title", { number: s.number + 1, owner: names[s.owner] ?? "" })} />
        </div>`) : html`<p class="none">${t("tonk.no_spreads")}</p>`}
    </div>
  </div>`;
}

const BID = (bid) => (bid === 100 ? "towers.bid_take" : bid === -1 ? "towers.bid_give" : null);

export function TowersBoard({ view, names }) {
  const trade = view.trade;
  const attack = view.attack;
  return html`<div class="board towers-board">
    <div class="piles">
      <div class="stock" data-zone="deck">
        <span class="caption">${t("towers.deck")}</span>
        <${CardBack} count=${view.deck_size} label=${t("towers.deck_count", { count: view.deck_size })} />
        <span class="sub">${t("word.round", { number: view.round })}</span>
      </div>
    </div>
    ${trade ? html`<div class="trade" aria-label=${t("towers.trade")}>
      <h3>${trade.witch ? t("towers.witch_trade", { who: names[trade.leader] })
        : t("towers.trade_by", { who: names[trade.leader], suit: SUIT_SYMBOL[trade.suit] ?? "" })}</h3>
      ${trade.laid.map((lay) => {
        const bid = trade.bids.find((b) => b.seat === lay.seat);
        const failed = (trade.failed || []).includes(lay.seat);
        return html`<div class="laid"><span class="who"><${Name} name=${names[lay.seat]} /></span>
          <${CardRow} cards=${lay.cards} small=${true} />
          ${bid && BID(bid.bid) ? html`<span class="bid">${t(BID(bid.bid))}</span>` : null}
          ${failed ? html`<span class="bid">${t("towers.failed")}</span>` : null}</div>`;
      })}
    </div>` : null}
    ${attack ? html`<div class="attack" aria-label=${t("towers.attack")}>
      <h3>${t(attack.kind === "raid" ? "towers.raid_title" : "towers.curse_title",
        { who: names[attack.attacker], whom: names[attack.target] })}</h3>
      <${Card} text=${attack.card} />
    </div>` : null}
    ${(view.shown || []).length ? html`<div class="shown"><h3>${t("towers.shown")}</h3>
      ${view.shown.map((s) => html`<div class="laid"><span class="who"><${Name} name=${names[s.seat]} /></span>
        <${CardRow} cards=${s.cards} small=${true} /></div>`)}</div>` : null}
  </div>`;
}
