// The table page (/t/ID): the seats, the board, the seat's hand and moves, what it must decide,
// the log and the score sheet; the host's Start and Rematch; joining or watching.
import { useEffect, useState } from "preact/hooks";
import { cardsShort, SUIT_SYMBOL } from "./cards.js";
import { ChatPanel } from "./chat.js";
import { TonkBoard, TowersBoard } from "./boards.js";
import { MoveBar, movesForKeys, SelectableCards } from "./hand.js";
import { Hints } from "./hints.js";
import { html } from "./html.js";
import { isolate, joinNames, t } from "./i18n.js";
import { isTonk, isTowers } from "./moves.js";
import { matchNumber } from "./log.js";
import { api, connect, errorText, sendMove } from "./net.js";
import { reasonText, rulesLink } from "./reasons.js";
// Other pages (the replay viewer) take these from the table page.
export { reasonText, rulesLink };
import { Announcement, Showdown } from "./showdown.js";
import { Seat, seatNames } from "./seats.js";
import { SoundToggle } from "./sound.js";
import { TonkSheet, TowersSheet } from "./sheet.js";
import { gameInfo, gameTitle, state, tokens, update, updateTable, useStore } from "./store.js";
import { Timer } from "./timer.js";
import { ratingChange, replayUrl } from "./history.js";
import { LessonPanel } from "./tutorial.js";

const ERROR = {
  "bad-message": "error.bad-message", "bad-move": "error.bad-move", "not-your-turn": "error.not-your-turn",
  spectator: "error.spectator", stale: "error.stale", "rate-limit": "error.rate-limit",
  "too-large": "error.too-large", "server-error": "error.server-error",
  "no-answer": "error.no-answer", refused: "error.refused",
  "unknown-seat": "error.unknown-seat", "no-table": "table.missing", "illegal-move": "error.illegal-move",
  "lesson-step": "error.lesson-step",
};
const STATUS = { lobby: "status.lobby", playing: "status.playing", finished: "status.finished" };

function ErrorBar({ table, names }) {
  const error = table.error;
  if (!error) return null;
  const game = table.summary?.game ?? "";
  const text = error.code === "illegal-move" && error.reason ? reasonText(error.reason, names)
    : t(ERROR[error.code] || "error.refused");
  return html`<div class="notice error" role="alert">
    <strong>${t("error.refused_title")}</strong> ${text}
    ${error.rule ? html` <a class="rule" href=${rulesLink(game, error.rule, state.lang)} target="_blank"
      rel="noopener">${t("error.rule_link", { rule: error.rule })}</a>` : null}
    <button type="button" class="close" aria-label=${t("ui.close")} onClick=${() => updateTable({ error: null })}>×</button>
  </div>`;
}

// What this seat must decide now (out of turn too), or whose decision the table waits for.
function Prompt({ table, names }) {
  const { view, summary, you, turn } = table;
  if (!summary) return null;
  if (summary.status === "lobby") return html`<p class="prompt">${t("prompt.lobby")}</p>`;
  if (summary.status === "finished") {
    const winners = (summary.standings || []).filter((x) => x.place === 1).map((x) => names[x.seat]);
    return html`<p class="prompt">${t("prompt.match_won", { winners: joinNames(winners) })}</p>`;
  }
  if (!view) return null;
  if (view.result) return html`<p class="prompt">${t(isTonk(view.game) ? "prompt.deal_over" : "prompt.game_over")}</p>`;
  const seat = view.current_seat;
  if (seat === null || seat === -1) return html`<p class="prompt">${t("prompt.dealing")}</p>`;
  const mine = you && you.seat === seat && (view.legal_moves || []).length > 0;
  const timer = turn?.deadline ? html` <${Timer} deadline=${turn.deadline} />` : null;
  if (!mine) {
    return html`<p class="prompt waiting">${t("turn.waiting", { who: names[seat] })}${turn?.bot && summary.seats[seat].kind !== "bot" ? ` ${t("turn.bot_for")}` : ""}${timer}</p>`;
  }
  let key = "prompt.tonk.play";
  const params = {};
  if (isTonk(view.game)) key = view.phase === "start" ? "prompt.tonk.start" : "prompt.tonk.play";
  else {
    const PHASE = {
      turn: "prompt.towers.turn", answer: "prompt.towers.answer", defend: "prompt.towers.defend",
      name: "prompt.towers.name", queens: "prompt.towers.queens", kings: "prompt.towers.kings",
      club: "prompt.towers.club", dark: "prompt.towers.dark",
    };
    key = PHASE[view.phase] || "prompt.towers.turn";
    if (view.phase === "answer" && view.trade) {
      if (view.trade.witch) key = "prompt.towers.answer_witch";
      params.who = names[view.trade.leader];
      params.suit = SUIT_SYMBOL[view.trade.suit];
    }
    if (view.phase === "defend" && view.attack) {
      // R9: a warrior of equal or higher rank (J < Q < K), or any warrior (option defence).
      key = view.rules?.defence === "any" ? "prompt.towers.defend_any" : "prompt.towers.defend";
      params.who = names[view.attack.attacker];
      params.card = cardsShort([view.attack.card]);
      const curse = { JS: "kind.thief", QS: "kind.witch", KS: "kind.warlock" }[view.attack.card];
      if (curse) params.card += ` (${t(curse)})`;
    }
  }
  return html`<p class="prompt yours" role="status">${t(key, params)}${timer}</p>`;
}

export function Log({ table, names }) {
  const items = table.log;
  const say = (s) => {
    const p = { ...s.params };
    if ("who" in s) p.who = names[s.who] ?? "?";
    if (s.whom !== undefined && s.whom !== null) p.whom = names[s.whom] ?? "";
    if (s.winners) p.winners = joinNames(s.winners.map((w) => names[w]));
    if (s.points) p.points = s.points.map((x, i) => `${isolate(names[i])} ${x}`).join(", ");
    for (const k of ["mode", "kind"]) if (p[k]) p[k] = t(p[k]);
    return t(s.key, p);
  };
  useEffect(() => {
    const box = document.querySelector(".log ol");
    if (box) box.scrollTop = box.scrollHeight;
  }, [items.length]);
  return html`<section class="log" aria-label=${t("log.title")}>
    <h2>${t("log.title")}</h2>
    <ol aria-live="polite">${items.slice(-120).map((s, i) => html`<li key=${i}>${say(s)}</li>`)}</ol>
  </section>`;
}

function HostControls({ table }) {
  const { summary, id } = table;
  if (!tokens.host(id) || !summary) return null;
  const act = (call) => call(id).catch((e) => update({ notice: { kind: "error", text: errorText(e) } }));
  if (summary.status === "lobby") {
    return html`<button type="button" class="primary" data-action="start" onClick=${() => act(api.start)}>${t("host.start")}</button>`;
  }
  return null;
}

// The end of a match: who won, every seat's place and total, what the match did to the
// ratings, and the buttons for a rematch (the host's), watching the last deal again and
// downloading the match's records.
function Outcome({ table, names }) {
  const { summary, id, you } = table;
  if (!summary || summary.status !== "finished" || !summary.standings) return null;
  const host = Boolean(tokens.host(id));
  const rematch = () => api.rematch(id).catch((e) => update({ notice: { kind: "error", text: errorText(e) } }));
  const last = summary.sheet.length ? summary.sheet[summary.sheet.length - 1].deal : null;
  const seat = you && you.seat !== null && you.seat !== undefined ? you.seat : 0;
  const unit = summary.unit === "points" ? "outcome.points" : "outcome.stakes";
  return html`<section class="outcome" role="status" aria-label=${t("outcome.title")}>
    <h2>${t("outcome.title")}</h2>
    <div class="scroll"><table>
      <thead><tr><th>${t("ladder.place")}</th><th>${t("ladder.player")}</th><th>${t(unit)}</th>
        ${summary.settings.rated ? html`<th>${t("ladder.rating")}</th>` : null}</tr></thead>
      <tbody>${summary.standings.map((x) => html`<tr class=${`${x.place === 1 ? "winner" : ""} ${you && x.seat === you.seat ? "you" : ""}`}
          data-seat=${x.seat} data-place=${x.place}>
        <td>${x.place === 1 ? html`<span class="crown" aria-hidden="true">★</span> ` : null}${x.place}</td>
        <td>${summary.seats[x.seat].account ? html`<a href=${`/players/${summary.seats[x.seat].account}`}>${names[x.seat]}</a>` : names[x.seat]}</td>
        <td class="num">${x.total > 0 ? "+" : ""}${x.total}</td>
        ${summary.settings.rated ? html`<td>${summary.seats[x.seat].kind === "bot"
          ? html`<span class="sub">${x.rating_after ?? ""}</span>` : ratingChange(x.rating_before, x.rating_after, x.provisional)}</td>` : null}
      </tr>`)}</tbody>
    </table></div>
    <div class="buttons">
      ${host && !summary.lesson ? html`<button type="button" class="primary" data-action="rematch" onClick=${rematch}>${t("host.rematch")}</button>` : null}
      ${last !== null ? html`<a class="button" data-action="watch" href=${replayUrl(id, last, seat)}>${t("games.watch")}</a>` : null}
      <a class="button" data-action="download" href=${`/api/tables/${id}/records`} download=${`tavern-${id}.jsonl`}>${t("outcome.download")}</a>
    </div>
  </section>`;
}

export function InviteLink({ id }) {
  const url = `${location.origin}/t/${id}`;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      document.querySelector(".invite input")?.select();
      document.execCommand?.("copy");
    }
    setCopied(true);
  };
  return html`<div class="invite">
    <label>${t("invite.label")} <input readonly value=${url} onFocus=${(e) => e.target.select()} /></label>
    <button type="button" onClick=${copy}>${copied ? t("invite.copied") : t("invite.copy")}</button>
  </div>`;
}

function JoinPanel({ table }) {
  const { summary, id, you } = table;
  const free = (summary?.seats || []).filter((s) => s.kind === "person" && !s.claimed);
  const [seat, setSeat] = useState(free[0]?.seat ?? 0);
  // A name is asked for but not needed: a friend who opens the link can sit down at once.
  // A signed-in person sits under their account's name.
  const [name, setName] = useState(localStorage.getItem("tt_name") || "");
  const account = state.account;
  const chosen = account ? account.name : name.trim() || t("join.default_name", { number: Number(seat) + 1 });
  if (!summary || !you || you.role !== "spectator" || !free.length || summary.status === "finished") return null;
  if (summary.settings.rated && !account) {
    return html`<p class="join rated-only">${t("join.rated_sign_in")} <a class="button primary" href="/account">${t("account.sign_in")}</a></p>`;
  }
  const join = async (e) => {
    e.preventDefault();
    try {
      const made = await api.join(id, chosen, Number(seat));
      tokens.setSeat(id, made.token);
      if (name.trim() && !account) localStorage.setItem("tt_name", name.trim());
      connect(id);
    } catch (err) {
      update({ notice: { kind: "error", text: errorText(err) } });
    }
  };
  return html`<form class="join" onSubmit=${join}>
    <strong>${t("join.title")}</strong>
    ${account ? html`<span>${t("join.as", { name: account.name })}</span>` : html`<label>${t("join.name")} <input maxlength="40" value=${name} placeholder=${chosen}
      onInput=${(e) => setName(e.target.value)} /></label>`}
    <label>${t("join.seat")} <select value=${seat} onChange=${(e) => setSeat(e.target.value)}>
      ${free.map((s) => html`<option value=${s.seat}>${t("seat.number", { number: s.seat + 1 })}</option>`)}</select></label>
    <button type="submit" class="primary">${t("join.button")}</button>
    <span class="sub">${t("join.watching")}</span>
  </form>`;
}

// Where the match stands, in the match's words (log.js): "match 2 · deal 3 of 5" (Tonk);
// "match 1 · game 1 of 2 · round 4" (Three Towers); the numbers the score sheet counts.
export function counter(summary, view, deal) {
  const towers = isTowers(summary.game);
  const number = deal !== null && deal !== undefined ? matchNumber(summary, deal) : summary.match_deal;
  const of = summary.settings.deals;
  const parts = [t("word.match", { number: summary.match })];
  if (number > 0) {
    parts.push(of ? t(towers ? "word.game_of" : "word.deal_of", { number, of })
      : t(towers ? "word.game" : "word.deal", { number }));
  }
  if (towers && view && isTowers(view.game) && !view.result) parts.push(t("word.round", { number: view.round }));
  return parts.join(" · ");
}

function MyArea({ table, names }) {
  const { view, you } = table;
  if (!view || !you || you.role !== "player") return null;
  const tonk = isTonk(view.game);
  const sortBy = table.sortBy;
  const toggleSort = () => {
    const next = sortBy === "rank" ? "suit" : "rank";
    localStorage.setItem("tt_sort", next);
    updateTable({ sortBy: next });
  };
  const mine = view.current_seat === view.seat;
  const storeZones = [];
  if (!tonk && mine && view.phase === "club") {
    for (let s = 0; s < view.num_players; s++) {
      if (s !== view.seat && (view.legal_moves || []).some((m) => m.startsWith(`take ${s} `))) storeZones.push(s);
    }
  }
  return html`<section class="my-area" aria-label=${t("hand.title")}>
    <header>
      <h2>${t("hand.title")}</h2>
      ${tonk ? html`<span class="total">${t("hand.total", { total: view.hand_total })}</span>` : null}
      <button type="button" class="small" data-action="sort" onClick=${toggleSort}>
        ${sortBy === "rank" ? t("hand.sort_suit") : t("hand.sort_rank")}</button>
    </header>
    <${SelectableCards} table=${table} zone="hand" label=${t("hand.title")} sortBy=${sortBy} />
    <${ErrorBar} table=${table} names=${names} />
    <${MoveBar} table=${table} names=${names} />
    <${Hints} table=${table} names=${names} />
    ${storeZones.map((s) => html`<div class="choose-store"><h3>${t("towers.take_from", { who: names[s] })}</h3>
      <${SelectableCards} table=${table} zone=${`store:${s}`} label=${t("towers.take_from", { who: names[s] })} /></div>`)}
    ${!tonk && view.store ? (mine && view.phase === "dark"
      ? html`<div class="choose-store"><h3>${t("towers.your_store", { count: view.store.length })}</h3>
          <${SelectableCards} table=${table} zone=${`store:${view.seat}`} label=${t("towers.your_store", { count: view.store.length })} /></div>`
      : html`<details class="my-store"><summary>${t("towers.your_store", { count: view.store.length })}</summary>
          <div class="card-row">${view.store.map((c) => html`<span class="mini">${cardsShort([c])}</span>`)}</div></details>`) : null}
  </section>`;
}

function Help({ table }) {
  if (!table.showHelp) return null;
  return html`<div class="help" role="dialog" aria-label=${t("help.title")}>
    <h2>${t("help.title")}</h2>
    <ul>
      <li><kbd>1</kbd>…<kbd>9</kbd> ${t("help.numbers")}</li>
      <li><kbd>Esc</kbd> ${t("help.escape")}</li>
      <li><kbd>S</kbd> ${t("help.sort")}</li>
      <li><kbd>Tab</kbd> ${t("help.tab")}</li>
      <li><kbd>?</kbd> ${t("help.help")}</li>
    </ul>
    <button type="button" onClick=${() => updateTable({ showHelp: false })}>${t("ui.close")}</button>
  </div>`;
}

function onKey(event) {
  const table = state.table;
  if (!table || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (/^[1-9]$/.test(event.key)) {
    const move = movesForKeys(table)[Number(event.key) - 1];
    if (move) {
      event.preventDefault();
      sendMove(move.text);
    }
  } else if (event.key === "Escape") {
    updateTable({ selection: { zone: "hand", items: [] }, error: null, showHelp: false, showdown: null });
  } else if (event.key === "s" || event.key === "S") {
    document.querySelector('[data-action="sort"]')?.click();
  } else if (event.key === "?") {
    updateTable({ showHelp: !table.showHelp });
  }
}

export function TablePage() {
  const s = useStore();
  const table = s.table;
  useEffect(() => {
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  if (!table || !table.summary) {
    return html`<main class="table-page"><p>${table && !table.connected ? t("table.connecting") : t("table.loading")}</p>
      <p><a href="/">${t("ui.lobby")}</a></p></main>`;
  }
  const { summary, view, you } = table;
  const names = seatNames(summary);
  const others = summary.seats.map((x) => x.seat).filter((seat) => !you || seat !== you.seat);
  const game = view?.game || summary.game;
  return html`<main class="table-page">
    <div class="table-head">
      <h1>${gameTitle(t, summary.game, summary.title)}</h1>
      ${summary.settings.rated ? html`<span class="badge rated">${t("games.rated")}</span>` : null}
      <span class="status">${t(STATUS[summary.status])}${summary.status !== "lobby"
        ? ` · ${counter(summary, view, table.deal)}` : ""}</span>
      <a href=${rulesLink(game, null, s.lang)} target="_blank" rel="noopener">${t("ui.rules")}</a>
      <a data-link="how-to-play" href=${`/how-to-play/${summary.game}?lang=${s.lang}`} target="_blank"
        rel="noopener">${t("ui.how_to_play")}</a>
      ${summary.sheet.length ? html`<a data-action="replay" href=${`/replay/${table.id}/${summary.sheet[summary.sheet.length - 1].deal}`}>${t(isTonk(game) ? "replay.watch_deal" : "replay.watch_game", { deal: summary.sheet[summary.sheet.length - 1].deal })}</a>` : null}
      ${you?.role === "spectator" ? html`<span class="badge">${t("table.spectator")}</span>` : null}
      ${!table.connected ? html`<span class="badge away">${t("table.reconnecting")}</span>` : null}
      <${HostControls} table=${table} />
      <button type="button" class="small" onClick=${() => updateTable({ showHelp: !table.showHelp })}>${t("help.button")}</button>
      <${SoundToggle} table=${table} />
    </div>
    ${summary.status === "lobby" ? html`<${InviteLink} id=${table.id} />` : null}
    <${JoinPanel} table=${table} />
    <${Help} table=${table} />
    <div class="layout">
      <div class="main-col">
        <${Prompt} table=${table} names=${names} />
        <${LessonPanel} table=${table} names=${names} />
        <${Outcome} table=${table} names=${names} />
        <${Announcement} table=${table} names=${names} />
        <${Showdown} table=${table} names=${names} />
        ${you?.role !== "player" ? html`<${ErrorBar} table=${table} names=${names} />` : null}
        <div class="seats">${others.map((seat) => html`<${Seat} key=${seat} seat=${seat} table=${table} names=${names} />`)}</div>
        ${view ? (isTonk(view.game) ? html`<${TonkBoard} view=${view} names=${names} />`
          : html`<${TowersBoard} view=${view} names=${names} />`) : null}
        ${you?.role === "player" ? html`<div class="seats mine">
          <${Seat} seat=${you.seat} table=${table} names=${names} /></div>` : null}
        <${MyArea} table=${table} names=${names} />
      </div>
      <div class="side-col">
        <${ChatPanel} table=${table} names=${names} />
        ${isTonk(game) ? html`<${TonkSheet} summary=${summary} names=${names} />`
          : html`<${TowersSheet} table=${table} names=${names} />`}
        <${Log} table=${table} names=${names} />
      </div>
    </div>
  </main>`;
}
