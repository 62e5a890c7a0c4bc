// A game's leaderboard (/ladder/GAME): the best 100, your own place, and the bots' fixed places
// on the same ladder (docs/ratings.md), so a rating reads as "about as well as the medium bot".
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { api, errorText } from "./net.js";
import { gameTitle, useStore } from "./store.js";

const LEVELS = { easy: "bot.easy", medium: "bot.medium", hard: "bot.hard" };

function Row({ row, you }) {
  return html`<tr class=${you ? "you" : ""} data-account=${row.account}>
    <td>${row.place}</td>
    <td><a href=${`/players/${row.account}`}>${row.name}</a></td>
    <td class="num">${row.rating}${row.provisional
      ? html` <abbr class="provisional" title=${t("ladder.provisional_title")}>${t("ladder.provisional")}</abbr>` : null}</td>
    <td class="num">${row.matches}</td><td class="num">${row.wins}</td>
  </tr>`;
}

export function LadderPage({ game }) {
  const s = useStore();
  // Every registered game has a ladder (GET /api/games names them; the server refuses others).
  const games = s.games.length ? s.games.map((g) => g.name) : [game || "tonk"];
  const [chosen, setChosen] = useState(game || "tonk");
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setBoard(null);
    api.ladder(chosen).then(setBoard).catch((e) => setError(errorText(e)));
  }, [chosen, s.account?.id]);
  const choose = (name) => {
    history.replaceState(null, "", `/ladder/${name}`);
    setChosen(name);
  };
  const inTop = board && board.you && board.top.some((r) => r.account === board.you.account);
  return html`<main class="ladder-page">
    <h1>${t("ladder.title")}</h1>
    <label>${t("lobby.game")} <select name="game" value=${chosen} onChange=${(e) => choose(e.target.value)}>
      ${games.map((g) => html`<option value=${g}>${gameTitle(t, g)}</option>`)}</select></label>
    ${error ? html`<p class="notice error">${error}</p>` : null}
    ${board ? html`
      <p class="sub bots">${t("ladder.bots")} ${board.bots.map((b, k) => html`${k ? " · " : ""}<span data-level=${b.level}>${t("seat.bot", { level: t(LEVELS[b.level] || b.level) })} ${b.rating}</span>`)}</p>
      ${board.top.length ? html`<div class="scroll"><table class="ladder">
        <thead><tr><th>${t("ladder.place")}</th><th>${t("ladder.player")}</th><th>${t("ladder.rating")}</th>
          <th>${t("ladder.matches")}</th><th>${t("ladder.wins")}</th></tr></thead>
        <tbody>${board.top.map((row) => html`<${Row} row=${row} you=${board.you && row.account === board.you.account} />`)}</tbody>
        ${board.you && !inTop ? html`<tfoot><${Row} row=${board.you} you=${true} /></tfoot>` : null}
      </table></div>` : html`<p class="none">${t("ladder.empty")}</p>`}
      ${s.account && !board.you ? html`<p class="sub">${t("ladder.not_rated")}</p>` : null}` : html`<p>${t("table.loading")}</p>`}
  </main>`;
}
