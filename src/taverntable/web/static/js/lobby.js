// The lobby (/): create a table (game, rule options, seats, stake, match length, timers), then
// the invite link; the open tables to join or watch.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { api, errorText } from "./net.js";
import { Name, seatNames } from "./seats.js";
import { InviteLink } from "./table.js";
import { gameTitle, tokens, update, useStore } from "./store.js";
import { LearnByPlaying } from "./tutorial.js";

const LEVELS = { easy: "bot.easy", medium: "bot.medium", hard: "bot.hard" };
// Each rule option's label and its values' (a test checks these against the server's options).
const OPTION = {
  deal_wins: "opt.deal_wins", face_values: "opt.face_values", hit_sets: "opt.hit_sets",
  hit_lock: "opt.hit_lock", discard: "opt.discard", tonk_out_double: "opt.tonk_out_double",
  stock_end: "opt.stock_end", next_dealer: "opt.next_dealer", defence: "opt.defence",
  own_store_visible: "opt.own_store_visible", max_rounds: "opt.max_rounds", teams: "opt.teams",
  nobility_points: "opt.nobility_points", tower_goal: "opt.tower_goal",
  joker_points: "opt.joker_points", hand_size: "opt.hand_size",
  spade_jack_defends: "opt.spade_jack_defends", give_any: "opt.give_any",
  spade_jack_raids: "opt.spade_jack_raids", decks: "opt.decks", round_cap: "opt.round_cap",
  lead_cap: "opt.lead_cap",
};
const VALUE = {
  "deal_wins.tonk": "opt.deal_wins.tonk", "deal_wins.tor": "opt.deal_wins.tor",
  "deal_wins.pagat": "opt.deal_wins.pagat", "face_values.10/10/10": "opt.face_values.10/10/10",
  "face_values.11/12/13": "opt.face_values.11/12/13", "discard.mandatory": "opt.discard.mandatory",
  "discard.optional_after_spread": "opt.discard.optional_after_spread",
  "stock_end.last_draw": "opt.stock_end.last_draw", "stock_end.empty": "opt.stock_end.empty",
  "next_dealer.next": "opt.next_dealer.next", "next_dealer.winner": "opt.next_dealer.winner",
  "defence.rank": "opt.defence.rank", "defence.any": "opt.defence.any",
};

// You and a friend, and bots for the other seats.
function defaultSeats(count) {
  return Array.from({ length: count }, (_, i) => (i < 2 ? { kind: "person" } : { kind: "bot", level: "medium" }));
}

function OptionField({ name, choices, value, onChange }) {
  const label = t(OPTION[name] || name);
  if (Array.isArray(choices) && typeof choices[0] === "boolean") {
    return html`<label class="check"><input type="checkbox" name=${name} checked=${Boolean(value)}
      onChange=${(e) => onChange(e.target.checked)} /> ${label}</label>`;
  }
  if (Array.isArray(choices)) {
    return html`<label>${label} <select name=${name} value=${value} onChange=${(e) => onChange(e.target.value)}>
      ${choices.map((c) => html`<option value=${c}>${t(VALUE[`${name}.${c}`] || String(c))}</option>`)}</select></label>`;
  }
  return html`<label>${label} <input type="number" name=${name} min="0" value=${value ?? ""}
    placeholder=${choices === "int?" ? t("lobby.none") : ""}
    onInput=${(e) => onChange(e.target.value === "" ? null : Number(e.target.value))} /></label>`;
}

function CreateForm({ games, account }) {
  const [gameName, setGameName] = useState(games[0].name);
  // A rated match (signed-in people only): the preset's rules as they stand, the host sits.
  const [rated, setRated] = useState(false);
  // The coach's hints during play (issue 27), never in a rated match; a private table.
  const [hints, setHints] = useState(false);
  const [privateTable, setPrivate] = useState(false);
  const game = games.find((g) => g.name === gameName) || games[0];
  const [options, setOptions] = useState({ ...game.options });
  const [seats, setSeats] = useState(defaultSeats(3));
  const [hostName, setHostName] = useState(localStorage.getItem("tt_name") || "");
  const [sit, setSit] = useState(true);
  const [stake, setStake] = useState(1);
  const [deals, setDeals] = useState(4);
  const [target, setTarget] = useState("");
  const [turnSeconds, setTurnSeconds] = useState("");
  const [absent, setAbsent] = useState(30);
  const [busy, setBusy] = useState(false);
  const chooseGame = (name) => {
    const next = games.find((g) => g.name === name);
    setGameName(name);
    setRated(rated && Boolean(account));
    setOptions({ ...next.options });
    setDeals(next.length === "game" ? 1 : 4);
    setSeats(defaultSeats(Math.min(Math.max(seats.length, next.min_players), next.max_players)));
  };
  const setCount = (n) => {
    const next = seats.slice(0, n);
    while (next.length < n) next.push({ kind: "bot", level: "medium" });
    setSeats(next);
  };
  const setSeat = (i, patch) => setSeats(seats.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  const counts = [];
  for (let n = game.min_players; n <= Math.min(game.max_players, 8); n++) counts.push(n);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    const isRated = rated && Boolean(account);
    const body = {
      game: game.name, options: isRated ? {} : options, stake: game.unit === "stakes" ? Number(stake) : 1,
      rated: isRated, hints: hints && !isRated, private: privateTable,
      seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "person" })),
      deals: deals === "" || deals === null ? null : Number(deals),
      target: target === "" ? null : Number(target),
      absent_seconds: Number(absent),
      turn_seconds: turnSeconds === "" ? null : Number(turnSeconds),
    };
    const hostSeat = sit || isRated ? seats.findIndex((s) => s.kind === "person") : -1;
    if (hostSeat >= 0) {
      body.host_seat = hostSeat;
      body.host_name = account ? null : hostName.trim() || null;
    }
    try {
      const made = await api.create(body);
      const id = made.table.id;
      tokens.setHost(id, made.host_token);
      if (made.token) tokens.setSeat(id, made.token);
      if (hostName.trim()) localStorage.setItem("tt_name", hostName.trim());
      update({ created: { id }, notice: null });
    } catch (err) {
      update({ notice: { kind: "error", text: errorText(err) } });
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="create" onSubmit=${submit} aria-label=${t("lobby.create")}>
    <h2>${t("lobby.create")}</h2>
    <label>${t("lobby.game")} <select name="game" value=${gameName} onChange=${(e) => chooseGame(e.target.value)}>
      ${games.map((g) => html`<option value=${g.name}>${t(g.title_key)}</option>`)}</select></label>
    <p class="sub">${t(game.about_key)} <a href=${`/rules/${game.rules}?lang=${document.documentElement.lang}`}
      target="_blank" rel="noopener">${t("ui.rules")}</a> · <a data-link="how-to-play"
      href=${`/how-to-play/${game.name}?lang=${document.documentElement.lang}`} target="_blank"
      rel="noopener">${t("ui.how_to_play")}</a>${game.lesson ? html` · <a data-link="learn"
      href=${`/learn/${game.lesson}`}>${t("lesson.learn")}</a>` : null}</p>
    <fieldset><legend>${t("lobby.seats")}</legend>
      <label>${t("lobby.players")} <select name="players" value=${seats.length} onChange=${(e) => setCount(Number(e.target.value))}>
        ${counts.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
      <ol class="seat-list">${seats.map((s, i) => html`<li>
        <span>${t("seat.number", { number: i + 1 })}</span>
        <select name=${`seat-${i}`} aria-label=${t("seat.number", { number: i + 1 })} value=${s.kind === "bot" ? s.level : "person"}
          onChange=${(e) => setSeat(i, e.target.value === "person" ? { kind: "person" } : { kind: "bot", level: e.target.value })}>
          <option value="person">${t("lobby.person")}</option>
          ${Object.keys(LEVELS).map((level) => html`<option value=${level}>${t("seat.bot", { level: t(LEVELS[level]) })}</option>`)}
        </select></li>`)}</ol>
      <label class="check"><input type="checkbox" name="sit" checked=${sit || Boolean(rated && account)} disabled=${Boolean(rated && account)}
        onChange=${(e) => setSit(e.target.checked)} />
        ${t("lobby.sit")}</label>
      ${(sit || rated) && account ? html`<p class="sub">${t("join.as", { name: account.name })}</p>` : null}
      ${sit && !account ? html`<label>${t("lobby.your_name")} <input name="host_name" maxlength="40" value=${hostName}
        onInput=${(e) => setHostName(e.target.value)} /></label>` : null}
    </fieldset>
    ${account ? html`<label class="check"><input type="checkbox" name="rated" checked=${rated}
      onChange=${(e) => setRated(e.target.checked)} /> ${t("lobby.rated")}</label>
      ${rated ? html`<p class="sub">${t("lobby.rated_text")}</p>` : null}`
      : html`<p class="sub">${t("lobby.rated_sign_in")} <a href="/account">${t("account.sign_in")}</a></p>`}
    <label class="check"><input type="checkbox" name="hints" checked=${hints && !(rated && account)}
      disabled=${Boolean(rated && account)} onChange=${(e) => setHints(e.target.checked)} /> ${t("lobby.hints")}</label>
    <p class="sub">${rated && account ? t("http.rated-hints") : t("lobby.hints_text")}</p>
    <label class="check"><input type="checkbox" name="private" checked=${privateTable}
      onChange=${(e) => setPrivate(e.target.checked)} /> ${t("lobby.private")}</label>
    <fieldset><legend>${t("lobby.match")}</legend>
      ${game.unit === "stakes" ? html`<label>${t("lobby.stake")} <input type="number" name="stake" min="1" value=${stake}
        onInput=${(e) => setStake(e.target.value)} /></label>` : null}
      <label>${t(game.length === "game" ? "lobby.games" : "lobby.deals")} <input type="number" name="deals" min="1" value=${deals}
        onInput=${(e) => setDeals(e.target.value)} /></label>
      <label>${t("lobby.target")} <input type="number" name="target" min="1" value=${target} placeholder=${t("lobby.none")}
        onInput=${(e) => setTarget(e.target.value)} /></label>
      <label>${t("lobby.turn_seconds")} <input type="number" name="turn_seconds" min="1" value=${turnSeconds}
        placeholder=${t("lobby.none")} onInput=${(e) => setTurnSeconds(e.target.value)} /></label>
      <label>${t("lobby.absent_seconds")} <input type="number" name="absent_seconds" min="0" value=${absent}
        onInput=${(e) => setAbsent(e.target.value)} /></label>
    </fieldset>
    ${rated && account ? null : html`<details class="options"><summary>${t("lobby.options")}</summary>
      ${Object.entries(game.choices || {}).map(([name, choices]) => html`<${OptionField} name=${name} choices=${choices}
        value=${options[name]} onChange=${(v) => setOptions({ ...options, [name]: v })} />`)}
    </details>`}
    <button type="submit" class="primary" name="create" disabled=${busy}>${t("lobby.create_button")}</button>
  </form>`;
}

// A table waiting in the lobby with nobody at it can never start (only its host can start it,
// from the table's page): the list keeps the tables in play and those someone waits at.
export function canStart(table) {
  return table.status === "playing" || table.seats.some((s) => s.connected);
}

function OpenTables({ tables: all }) {
  const tables = all.filter(canStart);
  if (!tables.length) return html`<p class="none">${t("lobby.no_tables")}</p>`;
  return html`<ul class="open-tables">${tables.map((table) => {
    const free = table.seats.filter((s) => s.kind === "person" && !s.claimed).length;
    const names = seatNames(table);
    return html`<li data-table=${table.id}>
      <strong>${gameTitle(t, table.game, table.title)}</strong>
      <span class="sub seat-names">${table.seats.map((s, k) => [k ? ", " : "",
        s.kind === "person" && !s.claimed ? t("seat.free") : html`<${Name} name=${names[k]} />`])}</span>
      <span class="badge">${t(table.status === "lobby" ? "status.lobby" : "status.playing")}</span>
      <a class="button" href=${`/t/${table.id}`}>${free ? t("lobby.join") : t("lobby.watch")}</a>
    </li>`;
  })}</ul>`;
}

export function LobbyPage() {
  const s = useStore();
  useEffect(() => {
    const refresh = () => api.tables().then((tables) => update({ lobbyTables: tables })).catch(() => {});
    refresh();
    const id = setInterval(refresh, 5000);
    return () => clearInterval(id);
  }, []);
  return html`<main class="lobby">
    <p class="intro">${t("lobby.intro")}</p>
    <${LearnByPlaying} games=${s.games} />
    ${s.created ? html`<section class="created" role="status">
      <h2>${t("lobby.created")}</h2>
      <p>${t("lobby.created_text")}</p>
      <${InviteLink} id=${s.created.id} />
      <a class="button primary" href=${`/t/${s.created.id}`}>${t("lobby.open_table")}</a>
    </section>` : null}
    <div class="lobby-cols">
      ${s.games.length ? html`<${CreateForm} games=${s.games} account=${s.account} />` : html`<p>${t("table.loading")}</p>`}
      <section class="tables"><h2>${t("lobby.open_tables")}</h2><${OpenTables} tables=${s.lobbyTables} /></section>
    </div>
  </main>`;
}
