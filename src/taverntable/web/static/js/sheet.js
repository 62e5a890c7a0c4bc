// The score sheet: Tonk's deals and balances; Three Towers' rounds, with every bonus explained.
import { cardShort } from "./cards.js";
import { html } from "./html.js";
import { isolate, joinNames, t } from "./i18n.js";
import { END } from "./log.js";
import { isTowers } from "./moves.js";
import { Name } from "./seats.js";

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const signed = (x) => (x > 0 ? `+${fmt(x)}` : fmt(x));

export function TonkSheet({ summary, names }) {
  const sheet = summary.sheet || [];
  const settings = summary.settings;
  return html`<section class="sheet" aria-label=${t("sheet.title")}>
    <h2>${t("sheet.title")}</h2>
    <p class="sub">${matchLine(summary)} · ${t("sheet.stake", { stake: settings.stake })}</p>
    <div class="scroll"><table>
      <thead><tr><th scope="col">${t("sheet.deal")}</th>
        ${names.map((n) => html`<th scope="col"><${Name} name=${n} /></th>`)}</tr></thead>
      ${sheet.map((row, i) => html`<tbody class="entry"><tr>
        <th scope="row">${i + 1}</th>
        ${row.points.map((p) => html`<td class=${p > 0 ? "plus" : p < 0 ? "minus" : ""}>${signed(p)}</td>`)}
      </tr><tr class="note"><td colspan=${names.length + 1} class="how">
        ${t(END[row.result.end] || "end.out", { winners: joinNames((row.result.winners || []).map((s) => names[s])) })}</td></tr></tbody>`)}
      <tfoot><tr><th scope="row">${t("sheet.balance")}</th>
        ${summary.balances.map((b) => html`<td class=${b > 0 ? "plus" : b < 0 ? "minus" : ""}><strong>${signed(b)}</strong></td>`)}</tr></tfoot>
    </table></div>
  </section>`;
}

// The match's line in the match's words (log.js): "match 2 · 1 of 3 deals played".
function matchLine(summary) {
  const s = summary.settings;
  const towers = isTowers(summary.game);
  const parts = [t("word.match", { number: summary.match })];
  if (s.deals) {
    parts.push(t(towers ? "word.games_played" : "word.deals_played", { done: (summary.sheet || []).length, of: s.deals }));
  }
  if (s.target) parts.push(t("sheet.target", { target: s.target }));
  return parts.join(" · ");
}

// Why a round's points are what they are: the tower's bonus by its ace (R13).
export function roundNotes(round, details, names) {
  const notes = [];
  if (round.tower) {
    const [builder, ace] = round.tower;
    const who = names[builder];
    const suit = ace.slice(-1);
    const points = round.points[builder];
    if (suit === "H") notes.push(t("sheet.heart", { who, points, half: points / 2, ace: cardShort(ace) }));
    else if (suit === "D") notes.push(t("sheet.diamond", { who, ace: cardShort(ace) }));
    else if (suit === "C") notes.push(t("sheet.club", { who, ace: cardShort(ace) }));
    else notes.push(t("sheet.dark", { who, ace: cardShort(ace) }));
  }
  if (details && details.nobility_points.some((p) => p !== 0)) {
    notes.push(t("sheet.nobility", {
      points: details.nobility_points.map((p, s) => `${isolate(names[s])} ${signed(p)}`).join(", "),
    }));
  }
  return notes;
}

// The end of a game: who got +150 for the third tower and why the winner still won (R14).
export function gameNotes(result, names, teams) {
  const notes = [];
  const winners = result.winners.map((s) => names[s]);
  const top = result.winners[0];
  if (result.end === "towers") {
    const last = result.rounds[result.rounds.length - 1];
    const builder = last?.tower ? last.tower[0] : null;
    if (builder !== null) {
      notes.push(t("sheet.bonus150", { who: names[builder] }));
      if (result.winners.includes(builder)) {
        notes.push(t("sheet.won_with_bonus", { who: names[builder], score: result.scores[builder] }));
      } else {
        notes.push(t("sheet.still_won", {
          winners: joinNames(winners), score: result.scores[top], who: names[builder],
          other: result.scores[builder],
        }));
      }
    }
  } else {
    notes.push(t("sheet.rounds_end", { rounds: result.rounds.length }));
    notes.push(t("sheet.winners", { winners: joinNames(winners), score: result.scores[top] }));
  }
  if (teams) notes.push(t("sheet.teams"));
  return notes;
}

function RoundsTable({ rounds, names, detailsOf, result, teams }) {
  const span = names.length + 1;
  return html`<div class="scroll"><table>
    <thead><tr><th scope="col">${t("sheet.round")}</th>${names.map((n) => html`<th scope="col"><${Name} name=${n} /></th>`)}</tr></thead>
    ${rounds.map((round, i) => {
      const notes = roundNotes(round, detailsOf(i + 1), names);
      return html`<tbody class="entry"><tr>
        <th scope="row">${i + 1}</th>
        ${round.points.map((p, s) => html`<td class=${round.tower && round.tower[0] === s ? "builder" : ""}>${signed(p)}
          ${round.tower && round.tower[0] === s ? html` <span aria-label=${t("sheet.tower_mark")}>★</span>` : null}</td>`)}
      </tr>${notes.length ? html`<tr class="note"><td colspan=${span} class="how">${notes.map((n) => html`<div>${n}</div>`)}</td></tr>` : null}</tbody>`;
    })}
    ${result ? html`<tfoot><tr><th scope="row">${t("sheet.total")}</th>
      ${result.scores.map((s, i) => html`<td class=${result.winners.includes(i) ? "winner" : ""}><strong>${s}</strong></td>`)}</tr>
      <tr class="note"><td colspan=${span} class="how">${gameNotes(result, names, teams).map((n) => html`<div>${n}</div>`)}</td></tr></tfoot>` : null}
  </table></div>`;
}

export function TowersSheet({ table, names }) {
  const { summary, view, roundDetails, deal } = table;
  const teams = Boolean(summary.rules.teams);
  const finished = (summary.sheet || []).filter((row) => row.deal !== deal || !view || view.result);
  const current = view && isTowers(view.game) && !view.result ? view : null;
  return html`<section class="sheet" aria-label=${t("sheet.title")}>
    <h2>${t("sheet.title")}</h2>
    <p class="sub">${matchLine(summary)}</p>
    ${current ? html`<h3>${t("sheet.this_game")}</h3>
      <${RoundsTable} rounds=${current.rounds} names=${names} teams=${teams}
        detailsOf=${(r) => roundDetails[`${deal}:${r}`]} />
      <p class="sub">${t("sheet.running", { scores: current.scores.map((s, i) => `${isolate(names[i])} ${s}`).join(", ") })}</p>` : null}
    ${finished.map((row, k) => html`<h3>${t("sheet.game", { number: k + 1 })}</h3>
      <${RoundsTable} rounds=${row.result.rounds} names=${names} result=${row.result} teams=${teams}
        detailsOf=${(r) => roundDetails[`${row.deal}:${r}`]} />`)}
    ${finished.length ? html`<p><strong>${t("sheet.match_points", {
      scores: summary.balances.map((b, i) => `${isolate(names[i])} ${fmt(b)}`).join(", ") })}</strong></p>` : null}
  </section>`;
}
