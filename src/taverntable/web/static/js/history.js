// A person's matches (/games, "My games"): newest first, a page at a time, each with its game,
// date, seats, the person's result and rating change, and every finished deal to watch again
// (the replay viewer, /replay/ID/DEAL?seat=N) or to download as a record tavern replay reads.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { api, errorText } from "./net.js";
import { gameTitle, useStore } from "./store.js";

const LEVELS = { easy: "bot.easy", medium: "bot.medium", hard: "bot.hard" };

export function seatName(s) {
  if (s.deleted) return t("games.deleted_player");
  if (s.kind === "bot") return t("seat.bot", { level: t(LEVELS[s.level] || "bot.medium") });
  return s.name;
}

export function ratingChange(before, after, provisional) {
  if (before === null || before === undefined || after === null || after === undefined) return null;
  const diff = after - before;
  const sign = diff > 0 ? "+" : diff < 0 ? "−" : "±";
  return html`<span class=${`rating-change ${diff > 0 ? "plus" : diff < 0 ? "minus" : ""}`} data-before=${before} data-after=${after}>
    ${t("games.rating_change", { before, after, diff: `${sign}${Math.abs(diff)}` })}${provisional
      ? html` <abbr class="provisional" title=${t("ladder.provisional_title")}>${t("ladder.provisional")}</abbr>` : null}</span>`;
}

export function dateText(epoch, lang) {
  try {
    return new Date(epoch * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return new Date(epoch * 1000).toISOString();
  }
}

export function replayUrl(table, deal, seat) {
  return `/replay/${encodeURIComponent(table)}/${deal}?seat=${seat}`;
}

export function recordUrl(table, deal) {
  return `/api/tables/${encodeURIComponent(table)}/records?deal=${deal}`;
}

function Result({ entry }) {
  if (entry.status !== "finished") return html`<span class="badge">${t("games.running")}</span>`;
  const won = entry.place === 1;
  return html`<span class=${`result ${won ? "won" : ""}`} data-place=${entry.place}>
    ${won ? t("games.won") : t("games.place", { place: entry.place, of: entry.seats.length })}</span>`;
}

function Deals({ entry }) {
  if (!entry.deals.length) return null;
  const tonk = !entry.game.startsWith("three-towers");
  return html`<ul class="deal-links">${entry.deals.map((deal) => html`<li data-deal=${deal}>
    <span>${t(tonk ? "word.deal" : "word.game", { number: deal })}</span>
    <a href=${replayUrl(entry.table, deal, entry.seat)} data-link="replay">${t("games.watch")}</a>
    <a href=${recordUrl(entry.table, deal)} download=${`tavern-${entry.table}-${deal}.jsonl`} data-link="download">${t("games.download")}</a>
  </li>`)}</ul>`;
}

export function GameList({ items, lang, mine }) {
  if (!items.length) return html`<p class="none">${t("games.none")}</p>`;
  return html`<ol class="game-list">${items.map((entry) => html`<li class="game-entry" data-table=${entry.table} data-match=${entry.match}>
    <header>
      <strong>${gameTitle(t, entry.game)}</strong>
      ${entry.rated ? html`<span class="badge rated">${t("games.rated")}</span>` : null}
      <span class="sub">${dateText(entry.started, lang)}</span>
      <${Result} entry=${entry} />
      ${ratingChange(entry.rating_before, entry.rating_after, entry.provisional)}
      ${entry.status !== "finished" && mine ? html`<a class="button small" href=${`/t/${entry.table}`}>${t("games.open")}</a>` : null}
    </header>
    <p class="seats-line">${entry.seats.map((s, k) => html`${k ? ", " : ""}<span class=${s.seat === entry.seat ? "me" : ""}>${
      s.account && s.seat !== entry.seat ? html`<a href=${`/players/${s.account}`}>${seatName(s)}</a>` : seatName(s)}</span>`)}</p>
    <${Deals} entry=${entry} />
  </li>`)}</ol>`;
}

export function MyGamesPage() {
  const s = useStore();
  const [page, setPage] = useState(1);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!s.account) return;
    api.myGames(page).then(setData).catch((e) => setError(errorText(e)));
  }, [page, s.account?.id]);
  if (!s.accountKnown) return html`<main class="games-page"><p>${t("table.loading")}</p></main>`;
  if (!s.account) {
    return html`<main class="games-page"><h1>${t("games.title")}</h1>
      <p>${t("games.sign_in_first")} <a href="/account">${t("account.sign_in")}</a></p></main>`;
  }
  return html`<main class="games-page">
    <h1>${t("games.title")}</h1>
    ${error ? html`<p class="notice error">${error}</p>` : null}
    ${data ? html`<${GameList} items=${data.items} lang=${s.lang} mine=${true} />
      <nav class="pager">
        ${page > 1 ? html`<button type="button" name="newer" onClick=${() => setPage(page - 1)}>${t("games.newer")}</button>` : null}
        <span class="sub">${t("games.page", { page })}</span>
        ${data.more ? html`<button type="button" name="older" onClick=${() => setPage(page + 1)}>${t("games.older")}</button>` : null}
      </nav>` : html`<p>${t("table.loading")}</p>`}
  </main>`;
}
