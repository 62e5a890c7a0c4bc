// A person's page (/players/ID): their rating in each game with a small plot of its course,
// matches played and won, and their recent matches linked to the replays.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { api, errorText } from "./net.js";
import { gameTitle, useStore } from "./store.js";
import { dateText, GameList } from "./history.js";

// The rating after each rated match as a line (an SVG, no library).
function Plot({ points }) {
  if (points.length < 2) return null;
  const w = 220;
  const h = 60;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(1, high - low);
  const xy = points.map((p, k) => `${((k / (points.length - 1)) * (w - 4) + 2).toFixed(1)},${(h - 2 - ((p.rating - low) / span) * (h - 4)).toFixed(1)}`);
  const words = t("profile.plot", { low, high });
  return html`<figure class="plot-box"><svg class="plot" viewBox=${`0 0 ${w} ${h}`} width=${w} height=${h}
    role="img" aria-label=${words}><polyline points=${xy.join(" ")} fill="none" stroke="currentColor"
    stroke-width="2" /></svg><figcaption class="sub">${words}</figcaption></figure>`;
}

// "Plays about as well as the medium bot": the rating beside the bots' places (ratings.beside_bots).
const BESIDE = {
  "about:easy": "profile.beside.about_easy",
  "about:medium": "profile.beside.about_medium",
  "about:hard": "profile.beside.about_hard",
  "above:easy": "profile.beside.above_easy",
  "above:medium": "profile.beside.above_medium",
  "above:hard": "profile.beside.above_hard",
  "below:easy": "profile.beside.below_easy",
  "below:medium": "profile.beside.below_medium",
  "below:hard": "profile.beside.below_hard",
};

function Beside({ bots }) {
  const key = bots && BESIDE[`${bots.relation}:${bots.level}`];
  return key ? html`<span class="beside" data-relation=${bots.relation} data-level=${bots.level}>${t(key)}</span>` : null;
}

export function ProfilePage({ id }) {
  const s = useStore();
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api.player(id).then(setData).catch((e) => setError(errorText(e)));
  }, [id]);
  if (error) return html`<main class="profile-page"><p class="notice error">${error}</p></main>`;
  if (!data) return html`<main class="profile-page"><p>${t("table.loading")}</p></main>`;
  return html`<main class="profile-page">
    <h1>${data.name}</h1>
    <p class="sub">${t("profile.since", { date: dateText(data.created, s.lang) })}${" · "}<span
      data-count="played">${t("profile.played", { count: data.played })}</span>${" · "}<span
      data-count="won">${t("profile.won", { count: data.won })}</span></p>
    <section class="panel"><h2>${t("profile.ratings")}</h2>
      ${data.ratings.length ? html`<ul class="ratings">${data.ratings.map((r) => html`<li data-game=${r.game}>
        <strong>${gameTitle(t, r.game)}</strong>
        <span class="rating">${r.rating}</span>${r.provisional
          ? html` <abbr class="provisional" title=${t("ladder.provisional_title")}>${t("ladder.provisional")}</abbr>` : null}
        <${Beside} bots=${r.bots} />
        <span class="sub">${t("profile.rated_matches", { matches: r.matches, wins: r.wins })}</span>
        <a href=${`/ladder/${r.game}`}>${t("ladder.title")}</a>
        <${Plot} points=${r.history} />
      </li>`)}</ul>` : html`<p class="none">${t("profile.no_ratings")}</p>`}
    </section>
    <section class="panel"><h2>${t("profile.recent")}</h2>
      <${GameList} items=${data.recent} lang=${s.lang} mine=${false} /></section>
  </main>`;
}
