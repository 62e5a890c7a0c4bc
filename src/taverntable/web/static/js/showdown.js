// What decided a deal, shown when it ends and kept until the person moves on (or the next
// deal's first move): Tonk's hands with their totals, who dropped and who caught it, who paid
// whom and why (T4-T6, T10-T11); a Three Towers round's count, each store's points by source,
// the tower's bonus and the game's winner (R13-R14). Everything comes from the events of the
// move that ended it (docs/contract.md), which the server sends only then.
import { CardRow } from "./cards.js";
import { html } from "./html.js";
import { joinNames, t } from "./i18n.js";
import { isTonk, storeValue } from "./moves.js";
import { roundNotes } from "./sheet.js";
import { updateTable } from "./store.js";

// The showdown of one move's events, or null when they end nothing. `number` is the deal's
// (game's) number within the match, as the sheet counts.
export function showdownFrom(events, view, deal, number) {
  const ending = events.find((e) => e.kind === "deal_end" || e.kind === "round_end");
  if (!ending) return null;
  const mover = events[0]?.kind === "move" ? events[0] : null;
  return {
    deal, number, game: view.game, events, view,
    dropper: mover && mover.move === "drop" ? mover.seat : null,
  };
}

// A Three Towers store's points by the cards' kind (R2): goods, aces, spades (penalties and
// figures, all negative). Warriors and jokers score nothing.
export function storeSources(cards) {
  const out = { goods: 0, aces: 0, spades: 0 };
  for (const text of cards) {
    const value = storeValue(text);
    if (text.endsWith("S")) out.spades += value;
    else if (text.startsWith("A")) out.aces += value;
    else out.goods += value;
  }
  return out;
}

const signed = (x) => (x > 0 ? `+${x}` : String(x));

function close() {
  updateTable({ showdown: null });
}

export function Showdown({ table, names }) {
  const shown = table.showdown;
  if (!shown) return null;
  const body = isTonk(shown.game) ? html`<${TonkShowdown} shown=${shown} names=${names} />`
    : html`<${TowersShowdown} shown=${shown} names=${names} />`;
  return html`<section class="showdown" role="dialog" aria-modal="false" aria-labelledby="showdown-title" data-deal=${shown.deal}>
    ${body}
    <button type="button" class="primary" data-action="continue" onClick=${close}>${t("showdown.continue")}</button>
  </section>`;
}

// T4, T6, T10, T11: the sentence that says how the deal ended.
function tonkHeadline(result, shown, names) {
  const winners = joinNames(result.winners.map((s) => names[s]));
  const d = shown.dropper;
  if (d !== null && d !== undefined) {
    const total = result.totals[d];
    const catchers = result.totals.map((x, s) => s).filter((s) => s !== d && result.totals[s] <= total);
    if (catchers.length) {
      return t("showdown.tonk.caught", { who: names[d], total, catchers: joinNames(catchers.map((s) => names[s])) });
    }
    return t("showdown.tonk.drop", { who: names[d], total });
  }
  const key = { tonk: "showdown.tonk.tonk", tor: "showdown.tonk.tor", low: "showdown.tonk.low", void: "showdown.tonk.void",
    out: "showdown.tonk.out", stock: "showdown.tonk.stock" }[result.end] || "showdown.tonk.out";
  return t(key, { winners });
}

// Why one payment (T4, T6, T10, T11).
function paymentWhy(result, shown, from, to) {
  const d = shown.dropper;
  if (d !== null && d !== undefined && result.end !== "drop") {
    return from === d ? t("showdown.why.caught", { total: result.totals[to] }) : t("showdown.why.lowest");
  }
  const key = { tonk: "showdown.why.deal", tor: "showdown.why.deal", low: "showdown.why.deal", drop: "showdown.why.drop",
    out: "showdown.why.out", stock: "showdown.why.stock" }[result.end] || "showdown.why.out";
  return t(key);
}

function TonkShowdown({ shown, names }) {
  const end = shown.events.find((e) => e.kind === "deal_end");
  const result = end.data;
  const hands = shown.events.filter((e) => e.kind === "show");
  const d = shown.dropper;
  const mark = (seat) => {
    if (seat === d) return t(result.winners.includes(seat) ? "showdown.mark.dropped_won" : "showdown.mark.dropped");
    if (d !== null && d !== undefined && result.end !== "drop" && result.totals[seat] <= result.totals[d]) {
      return t("showdown.mark.caught");
    }
    return result.winners.includes(seat) ? t("showdown.mark.won") : "";
  };
  return html`<h2 id="showdown-title">${t("showdown.tonk.title", { number: shown.number })}</h2>
    <p class="headline">${tonkHeadline(result, shown, names)}</p>
    <table class="hands">
      <thead><tr><th scope="col">${t("showdown.player")}</th><th scope="col">${t("showdown.hand")}</th>
        <th scope="col">${t("showdown.total")}</th><th scope="col"></th></tr></thead>
      <tbody>${hands.map((e) => html`<tr data-seat=${e.seat} class=${result.winners.includes(e.seat) ? "winner" : ""}>
        <th scope="row">${names[e.seat]}</th>
        <td>${e.cards && e.cards.length ? html`<${CardRow} cards=${e.cards} small=${true} label=${names[e.seat]} />` : t("showdown.no_cards")}</td>
        <td class="total">${e.data?.total ?? result.totals[e.seat]}</td>
        <td class="mark">${mark(e.seat)}</td></tr>`)}</tbody>
    </table>
    <h3>${t("showdown.payments")}</h3>
    ${result.payments.length ? html`<ul class="payments">${result.payments.map(([from, to, amount]) => html`<li>
        ${t("showdown.pays", { payer: names[from], payee: names[to], amount })}: ${paymentWhy(result, shown, from, to)}</li>`)}</ul>`
      : html`<p>${t("showdown.nobody_pays")}</p>`}`;
}

function TowersShowdown({ shown, names }) {
  const round = shown.events.find((e) => e.kind === "round_end").data;
  const bonus = shown.events.find((e) => e.kind === "win_bonus");
  const over = shown.events.find((e) => e.kind === "game_end");
  const stores = shown.view.known_stores || [];
  const notes = roundNotes(round, round, names);
  if (bonus) notes.push(t("sheet.bonus150", { who: names[bonus.seat] }));
  return html`<h2 id="showdown-title">${t("showdown.towers.title", { round: round.round, number: shown.number })}</h2>
    ${over ? html`<p class="headline">${t("showdown.towers.winner", {
      number: shown.number, winners: joinNames(over.data.winners.map((s) => names[s])),
      score: over.data.scores[over.data.winners[0]] })}</p>` : null}
    <div class="scroll"><table class="hands">
      <thead><tr><th scope="col">${t("showdown.player")}</th><th scope="col">${t("showdown.towers.store")}</th>
        <th scope="col">${t("showdown.towers.nobility")}</th><th scope="col">${t("showdown.towers.bonus")}</th>
        <th scope="col">${t("showdown.towers.round")}</th><th scope="col">${t("showdown.towers.score")}</th>
        <th scope="col">${t("showdown.towers.towers")}</th></tr></thead>
      <tbody>${round.points.map((points, s) => {
        const src = storeSources(stores[s] || []);
        const known = src.goods + src.aces + src.spades === round.store_points[s];
        const builder = round.tower && round.tower[0] === s;
        return html`<tr data-seat=${s} class=${over && over.data.winners.includes(s) ? "winner" : ""}>
          <th scope="row">${names[s]}</th>
          <td><strong>${signed(round.store_points[s])}</strong>
            ${known ? html`<span class="sources">${t("showdown.towers.sources", {
              goods: signed(src.goods), aces: signed(src.aces), spades: signed(src.spades) })}</span>` : null}</td>
          <td>${signed(round.nobility_points[s])}</td>
          <td>${builder ? html`${signed(round.tower_bonus)} <${CardRow} cards=${[round.tower[1]]} small=${true}
            label=${t("sheet.tower_mark")} />` : "—"}</td>
          <td><strong>${signed(points)}</strong></td>
          <td>${round.scores[s]}${bonus && bonus.seat === s ? ` (+${bonus.data.points})` : ""}</td>
          <td class="marks">${"★".repeat(round.marks[s])}</td></tr>`;
      })}</tbody>
    </table></div>
    ${notes.length ? html`<ul class="notes">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : null}`;
}

// A bot's move that ends the deal, told before the hands show ("Goblin drops with 9!").
export function Announcement({ table, names }) {
  const a = table.announce;
  if (!a) return null;
  const who = names[a.seat] ?? "?";
  const text = a.move === "drop" && a.total !== undefined && a.total !== null ? t("announce.drop", { who, total: a.total })
    : t(isTonk(table.summary?.game) ? "announce.end_deal" : "announce.end_game", { who });
  return html`<p class="announce" role="status" aria-live="assertive">${text}</p>`;
}
