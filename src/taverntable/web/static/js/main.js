// The page: the header (language, rules), then the lobby (/) or a table (/t/ID).
import { render } from "preact";
import { html } from "./html.js";
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, setLanguage, t } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { api, connect, errorText } from "./net.js";
import { loadTableReplay, newReplay, ReplayPage } from "./replay.js";
import { newTable, update, useStore } from "./store.js";
import { TablePage } from "./table.js";

function Header() {
  const s = useStore();
  return html`<header class="top">
    <a class="brand" href="/">🂡 ${t("ui.title")}</a>
    <nav>
      <a href="/">${t("ui.lobby")}</a>
      <a href="/replay">${t("ui.replay_file")}</a>
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

function App() {
  const s = useStore();
  return html`<${Header} /><${Notice} />
    ${s.route.page !== "table" && s.route.page !== "replay" ? html`<${LobbyPage} />`
      : !s.gamesLoaded ? html`<p>${t("table.loading")}</p>`
      : s.route.page === "table" ? html`<${TablePage} />` : html`<${ReplayPage} />`}
    <footer class="foot">${t("ui.footer")}</footer>`;
}

async function main() {
  await setLanguage(chooseLanguage(), false);
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  const replay = location.pathname.match(/^\/replay\/([A-Za-z0-9_-]+)\/(\d+)/);
  if (replay) {
    const [, id, deal] = replay;
    const step = Number((location.hash.match(/^#m=(\d+)/) || [])[1] || 0);
    update({ route: { page: "replay", tableId: id }, replay: newReplay({ kind: "table", id, deal: Number(deal) }) });
    loadTableReplay(id, Number(deal), new URLSearchParams(location.search).get("seat"), step);
  } else if (/^\/replay\/?$/.test(location.pathname)) {
    update({ route: { page: "replay", tableId: null }, replay: newReplay({ kind: "file" }) });
  } else if (match) {
    const id = match[1];
    update({ route: { page: "table", tableId: id }, table: newTable(id) });
    connect(id);
  }
  // Both pages name the games and link their rules from the server's list.
  api.games().then((games) => update({ games, gamesLoaded: true }))
    .catch((e) => update({ gamesLoaded: true, notice: { kind: "error", text: errorText(e) } }));
  const root = document.getElementById("app");
  root.textContent = ""; // the "loading" line of index.html
  render(html`<${App} />`, root);
}

main();
