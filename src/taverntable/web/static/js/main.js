// The page: the header (language, rules, the account), then the lobby (/), a table (/t/ID),
// a replay (/replay/ID/DEAL, /replay), the account (/account), My games (/games), a leaderboard (/ladder/GAME) or a profile
// (/players/ID).
import { render } from "preact";
import { AccountPage } from "./account.js";
import { MyGamesPage } from "./history.js";
import { html } from "./html.js";
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, setLanguage, t } from "./i18n.js";
import { LadderPage } from "./ladder.js";
import { LobbyPage } from "./lobby.js";
import { watchMotion } from "./motion.js";
import { api, connect, errorText, loadAccount } from "./net.js";
import { ProfilePage } from "./profile.js";
import { loadTableReplay, newReplay, ReplayPage } from "./replay.js";
import "./review.js";
import { newTable, update, useStore } from "./store.js";
import { TablePage } from "./table.js";
import { LearnPage, startLesson } from "./tutorial.js";

function Header() {
  const s = useStore();
  return html`<header class="top">
    <a class="brand" href="/">🂡 ${t("ui.title")}</a>
    <nav>
      <a href="/">${t("ui.lobby")}</a>
      <a href="/replay">${t("ui.replay_file")}</a>
      ${s.account ? html`<a href="/games" data-nav="games">${t("games.title")}</a>` : null}
      <a href="/ladder" data-nav="ladder">${t("ladder.title")}</a>
      <a href="/account" data-nav="account" class="account-link">${s.account
        ? t("account.menu_signed_in", { name: s.account.name }) : t("account.sign_in")}</a>
      <label class="lang">${t("ui.language")}
        <select name="language" value=${s.lang} onChange=${(e) => setLanguage(e.target.value)}>
          ${LANGUAGES.map((code) => html`<option value=${code}>${LANGUAGE_NAMES[code]}</option>`)}
        </select></label>
    </nav>
  </header>`;
}

function Notice() {
  const s = useStore();
  if (!s.notice) return null;
  return html`<div class=${`notice ${s.notice.kind}`} role="alert">${s.notice.text}
    <button type="button" class="close" aria-label=${t("ui.close")} onClick=${() => update({ notice: null })}>×</button></div>`;
}

function Page({ route }) {
  switch (route.page) {
    case "table": return html`<${TablePage} />`;
    case "replay": return html`<${ReplayPage} />`;
    case "account": return html`<${AccountPage} />`;
    case "games": return html`<${MyGamesPage} />`;
    case "ladder": return html`<${LadderPage} game=${route.game} />`;
    case "player": return html`<${ProfilePage} id=${route.id} />`;
    case "learn": return html`<${LearnPage} />`;
    default: return html`<${LobbyPage} />`;
  }
}

function App() {
  const s = useStore();
  return html`<${Header} /><${Notice} />
    ${(s.route.page === "table" || s.route.page === "replay") && !s.gamesLoaded
      ? html`<p>${t("table.loading")}</p>` : html`<${Page} route=${s.route} />`}
    <footer class="foot">${t("ui.footer")}</footer>`;
}

// The page an address shows.
function routeOf(path) {
  let m = path.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (m) return { page: "table", tableId: m[1] };
  m = path.match(/^\/replay\/([A-Za-z0-9_-]+)\/(\d+)/);
  if (m) return { page: "replay", tableId: m[1], deal: Number(m[2]) };
  if (/^\/replay\/?$/.test(path)) return { page: "replay", tableId: null };
  m = path.match(/^\/learn\/([a-z-]+)$/);
  if (m) return { page: "learn", name: m[1] };
  if (path === "/account") return { page: "account" };
  if (path === "/games") return { page: "games" };
  m = path.match(/^\/ladder(?:\/([a-z-]+))?$/);
  if (m) return { page: "ladder", game: m[1] || "tonk" };
  m = path.match(/^\/players\/([A-Za-z0-9_-]+)$/);
  if (m) return { page: "player", id: m[1] };
  return { page: "lobby" };
}

async function main() {
  await setLanguage(chooseLanguage(), false);
  const route = routeOf(location.pathname);
  const signedIn = loadAccount();
  if (route.page === "replay" && route.tableId) {
    const step = Number((location.hash.match(/^#m=(\d+)/) || [])[1] || 0);
    update({ route, replay: newReplay({ kind: "table", id: route.tableId, deal: route.deal }) });
    loadTableReplay(route.tableId, route.deal, new URLSearchParams(location.search).get("seat"), step);
  } else if (route.page === "replay") {
    update({ route, replay: newReplay({ kind: "file" }) });
  } else if (route.page === "table") {
    const id = route.tableId;
    update({ route, table: newTable(id) });
    connect(id);
  } else if (route.page === "learn") {
    update({ route });
    signedIn.then(() => startLesson(route.name, location.search));
  } else if (route.page !== "lobby") {
    update({ route });
  }
  // Both pages name the games and link their rules from the server's list.
  api.games().then((games) => update({ games, gamesLoaded: true }))
    .catch((e) => update({ gamesLoaded: true, notice: { kind: "error", text: errorText(e) } }));
  const root = document.getElementById("app");
  root.textContent = ""; // the "loading" line of index.html
  render(html`<${App} />`, root);
  watchMotion(root); // cards that move (motion.js)
  await signedIn;
}

main();
