// The replay viewer (/replay/ID/DEAL?seat=S#m=K, and /replay for a record file): a deal played
// back step by step with the table's own pieces (seats, board, log, score sheet), seen by one
// seat, a spectator or with every hand open. The server replays the record with the engine and
// decides what may be seen (docs/protocol.md, "Replays"); the page only merges each step's view.
import { useEffect } from "preact/hooks";
import { chatMarks, ReplayChat } from "./chat.js";
import { TonkBoard, TowersBoard } from "./boards.js";
import { CardRow } from "./cards.js";
import { html } from "./html.js";
import { joinNames, t } from "./i18n.js";
import { eventSentences } from "./log.js";
import { isTonk } from "./moves.js";
import { errorText } from "./net.js";
import { Seat, seatNames } from "./seats.js";
import { TonkSheet, TowersSheet } from "./sheet.js";
import { gameTitle, state, tokens, update, useStore } from "./store.js";
import { Log, rulesLink } from "./table.js";
import { Timeline } from "./timeline.js";

const BOT_NAME = /^Bot (\d+) \((\w+)\)$/;

// What other pages of the viewer add (a coach's review, issue 27): functions of the replay that
// return more marks for the timeline ({step, kind, label}), and components drawn in the
// controls' toolbar with {replay, seek}.
const markSources = [];
const tools = [];
export function addMarks(source) { markSources.push(source); }
export function addTool(component) { tools.push(component); }
// The chat's messages on the timeline, each at the move it was written at.
addMarks(chatMarks);

export function newReplay(source) {
  return { source, data: null, views: [], log: [], marks: [], step: 0, loading: false, file: null };
}

function setReplay(patch) {
  const replay = state.replay;
  if (!replay) return;
  Object.assign(replay, typeof patch === "function" ? patch(replay) : patch);
  update({ replay });
}

function fail(err) {
  setReplay({ loading: false });
  update({ notice: { kind: "error", text: errorText(err) } });
}

async function answer(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.code = data.code;
    throw error;
  }
  return data;
}

// A table's deal: as this browser's seat saw it (its token), or as `seat` says.
export async function loadTableReplay(id, deal, seat, step) {
  setReplay({ loading: true });
  const token = tokens.seat(id);
  const query = seat === null ? "" : `?seat=${encodeURIComponent(seat)}`;
  try {
    const response = await fetch(`/api/replays/${encodeURIComponent(id)}/${deal}${query}`,
      { headers: token ? { "X-Seat-Token": token } : {} });
    show(await answer(response), step);
  } catch (err) {
    fail(err);
    // Eyes a deal in play does not allow (every hand, another seat): say why, and show it as
    // the server allows (this browser's seat, else a spectator's).
    if (seat !== null && ["deal-in-play", "not-your-seat"].includes(err.code)) {
      history.replaceState(null, "", `/replay/${encodeURIComponent(id)}/${deal}${location.hash}`);
      loadTableReplay(id, deal, null, step);
    }
  }
}

// A record file (dropped or chosen): the server checks it with the engine and plays it back.
export async function loadFile(bytes, name, record = null, seat = null) {
  setReplay({ loading: true, file: { bytes, name, records: state.replay?.file?.records || [], chosen: record } });
  const params = new URLSearchParams();
  if (record !== null) params.set("record", record);
  if (seat !== null) params.set("seat", seat);
  try {
    const response = await fetch(`/api/replays?${params}`, { method: "POST", body: bytes });
    const data = await answer(response);
    setReplay({ file: { bytes, name, records: data.records, chosen: data.chosen } });
    update({ notice: null });
    show(data.replay, 0);
  } catch (err) {
    fail(err);
  }
}

// Every step's whole view (each step holds the fields that changed), its sentences, the marks.
function show(data, step) {
  const views = [];
  const log = [];
  const marks = [];
  const me = data.seen_as === "seat" ? data.seat : null;
  let view = {};
  data.steps.forEach((s, k) => {
    const before = view;
    view = { ...view, ...s.view };
    views.push(view);
    for (const sentence of eventSentences(s.events, view.game, k ? before.phase : null, me)) {
      log.push({ ...sentence, step: k });
    }
    for (const e of s.events) {
      // Marks keep their key: a language switch says them again.
      if (e.kind === "round_end") marks.push({ step: k, kind: "round", key: "replay.round_end", params: { round: e.data.round } });
      if (e.kind === "deal_end" || e.kind === "game_end") marks.push({ step: k, kind: "end", key: "replay.end", params: {} });
    }
  });
  for (const source of markSources) marks.push(...source({ data, views, log }));
  setReplay({ data, views, log, marks, loading: false, step: Math.max(0, Math.min(step, views.length - 1)) });
}

export function seek(step) {
  const replay = state.replay;
  if (!replay?.data) return;
  const next = Math.max(0, Math.min(step, replay.views.length - 1));
  setReplay({ step: next });
  if (replay.source.kind === "table") history.replaceState(null, "", `${location.pathname}${location.search}#m=${next}`);
}

function onKey(event) {
  const replay = state.replay;
  if (!replay?.data || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) && event.target.type !== "range") return;
  const moves = { ArrowRight: 1, ArrowLeft: -1 };
  if (event.key in moves) {
    event.preventDefault();
    seek(replay.step + moves[event.key]);
  } else if (event.key === "Home") {
    event.preventDefault();
    seek(0);
  } else if (event.key === "End") {
    event.preventDefault();
    seek(replay.views.length - 1);
  }
}

// The summary the table's pieces expect, made from the replay (no connections, no timers).
function fakeSummary(data, view, atEnd) {
  const sheet = data.sheet.filter((row) => row.deal !== data.deal || (atEnd && data.finished));
  const balances = data.players.map((_, s) => sheet.reduce((sum, row) => sum + row.points[s], 0));
  return {
    game: data.game, rules: view.rules || {}, match: data.match ?? 1, sheet, balances,
    settings: { stake: data.stake, deals: null, target: null },
    seats: data.players.map((name, seat) => {
      const bot = BOT_NAME.exec(name);
      return { seat, name, kind: bot ? "bot" : "person", level: bot ? bot[2] : null, claimed: true,
        connected: true, bot_playing: false };
    }),
  };
}

function OpenCards({ view, seat, names }) {
  const hand = view.hands?.[seat];
  const store = view.stores?.[seat];
  if (!hand && !store) return null;
  return html`<div class="open-cards" data-open-seat=${seat}>
    ${hand ? html`<span class="caption">${t("replay.hand_of", { name: names[seat] })}</span>
      ${hand.length ? html`<${CardRow} cards=${hand} small=${true} label=${t("replay.hand_of", { name: names[seat] })} />`
        : html`<span class="none">—</span>`}` : null}
    ${store?.length ? html`<details><summary>${t("replay.store_of", { name: names[seat], count: store.length })}</summary>
      <${CardRow} cards=${store} small=${true} /></details>` : null}
  </div>`;
}

function Controls({ replay }) {
  const last = replay.views.length - 1;
  const at = replay.step;
  return html`<div class="replay-controls" role="toolbar" aria-label=${t("replay.controls")}>
    <div class="buttons">
      <button type="button" data-action="first" onClick=${() => seek(0)} disabled=${at === 0}
        aria-label=${t("replay.first")} title=${t("replay.first")}>|◀</button>
      <button type="button" data-action="back" onClick=${() => seek(at - 1)} disabled=${at === 0}
        aria-label=${t("replay.back")} title=${t("replay.back")}>◀</button>
      <span class="step-count" aria-live="polite">${at === 0 ? t("replay.dealt", { count: last })
        : t("replay.step", { step: at, count: last })}</span>
      <button type="button" data-action="forward" onClick=${() => seek(at + 1)} disabled=${at === last}
        aria-label=${t("replay.forward")} title=${t("replay.forward")}>▶</button>
      <button type="button" data-action="last" onClick=${() => seek(last)} disabled=${at === last}
        aria-label=${t("replay.last")} title=${t("replay.last")}>▶|</button>
      ${tools.map((Tool) => html`<${Tool} replay=${replay} seek=${seek} />`)}
    </div>
    <${Timeline} count=${replay.views.length} at=${at} onSeek=${seek}
      marks=${replay.marks.map((m) => (m.key ? { ...m, label: t(m.key, m.params) } : m))} />
    <p class="sub keys">${t("replay.keys")}</p>
  </div>`;
}

function EyesChoice({ replay, names }) {
  const data = replay.data;
  const value = data.seen_as === "seat" ? String(data.seat) : data.seen_as;
  const choose = (seat) => {
    if (replay.source.kind === "table") {
      const url = `/replay/${encodeURIComponent(data.table)}/${data.deal}?seat=${seat}#m=${replay.step}`;
      history.replaceState(null, "", url);
      loadTableReplay(data.table, data.deal, seat, replay.step);
    } else {
      const file = replay.file;
      loadFile(file.bytes, file.name, file.chosen, seat);
    }
  };
  return html`<label class="eyes">${t("replay.seen_as")}
    <select name="seat" value=${value} onChange=${(e) => choose(e.target.value)}>
      ${data.finished || replay.source.kind === "file" ? html`<option value="open">${t("replay.open")}</option>` : null}
      ${names.map((name, seat) => html`<option value=${String(seat)}>${name}</option>`)}
      <option value="spectator">${t("replay.spectator")}</option>
    </select></label>`;
}

function FilePicker({ replay }) {
  const pick = (e) => {
    const file = e.target.files?.[0];
    if (file) file.arrayBuffer().then((bytes) => loadFile(bytes, file.name));
  };
  const file = replay.file;
  const label = (r, k) => `${k + 1}. ${r.game ? gameTitle(t, r.game) : "?"}: ${joinNames(r.players)} · ${t("replay.moves", { count: r.moves })}`;
  return html`<section class="drop-zone" aria-label=${t("replay.file_title")}>
    <p>${t("replay.drop")}</p>
    <label class="button">${t("replay.choose")}
      <input type="file" name="record" accept=".json,.jsonl,application/json,application/x-ndjson" onChange=${pick} /></label>
    ${file ? html`<span class="sub">${t("replay.file", { name: file.name })}</span>` : null}
    ${file && file.records.length > 1 ? html`<label>${t("replay.record")}
      <select name="record" value=${String(file.chosen)} onChange=${(e) => loadFile(file.bytes, file.name, Number(e.target.value))}>
        ${file.records.map((r, k) => html`<option value=${String(k)} disabled=${Boolean(r.error)}>
          ${label(r, k)}${r.error ? ` — ${t("replay.rejected")}` : ""}</option>`)}
      </select></label>` : null}
    ${file ? file.records.filter((r) => r.error).slice(0, 5).map((r) => html`<p class="sub rejected">${r.label}: ${r.error}</p>`) : null}
  </section>`;
}

function onDrop(event) {
  event.preventDefault();
  const file = event.dataTransfer?.files?.[0];
  if (file) file.arrayBuffer().then((bytes) => loadFile(bytes, file.name));
}

function Viewer({ replay, lang }) {
  const data = replay.data;
  const view = replay.views[replay.step];
  const atEnd = replay.step === replay.views.length - 1;
  const summary = fakeSummary(data, view, atEnd);
  const names = seatNames(summary);
  const you = data.seen_as === "seat" ? { seat: data.seat, role: "player", host: false } : null;
  // The seats are drawn without "you": the page's reader need not be the seat it is seen by.
  const table = { view, summary, you: null, turn: null, deal: data.deal ?? 1, roundDetails: roundDetails(replay) };
  const others = data.players.map((_, seat) => seat).filter((seat) => !you || seat !== you.seat);
  const log = { log: replay.log.filter((s) => s.step <= replay.step) };
  const tonk = isTonk(data.game);
  return html`<div class="layout">
    <div class="main-col">
      <${Controls} replay=${replay} />
      <div class="seats">${others.map((seat) => html`<div class="replay-seat" key=${seat}>
        <${Seat} seat=${seat} table=${table} names=${names} /><${OpenCards} view=${view} seat=${seat} names=${names} /></div>`)}</div>
      ${tonk ? html`<${TonkBoard} view=${view} names=${names} />` : html`<${TowersBoard} view=${view} names=${names} />`}
      ${you ? html`<div class="seats mine"><div class="replay-seat"><${Seat} seat=${you.seat} table=${table} names=${names} />
        <div class="open-cards"><span class="caption">${t("replay.hand_of", { name: names[you.seat] })}</span>
          <${CardRow} cards=${view.hand || []} small=${true} label=${t("replay.hand_of", { name: names[you.seat] })} />
          ${view.store?.length ? html`<details><summary>${t("replay.store_of", { name: names[you.seat], count: view.store.length })}</summary>
            <${CardRow} cards=${view.store} small=${true} /></details>` : null}</div></div></div>` : null}
      ${view.result ? html`<p class="prompt">${t(tonk ? "replay.deal_over" : "replay.game_over")}</p>` : null}
    </div>
    <div class="side-col">
      ${tonk ? html`<${TonkSheet} summary=${summary} names=${names} />` : html`<${TowersSheet} table=${table} names=${names} />`}
      <${Log} table=${log} names=${names} />
      <${ReplayChat} replay=${replay} names=${names} />
      <p class="sub"><a href=${rulesLink(data.game, null, lang)} target="_blank" rel="noopener">${t("ui.rules")}</a></p>
    </div>
  </div>`;
}

// Three Towers' round details (for the sheet's notes) from the round ends passed so far.
function roundDetails(replay) {
  const out = {};
  const deal = replay.data.deal ?? 1;
  replay.data.steps.slice(0, replay.step + 1).forEach((s) => {
    for (const e of s.events) if (e.kind === "round_end") out[`${deal}:${e.data.round}`] = e.data;
  });
  return out;
}

export function ReplayPage() {
  const s = useStore();
  const replay = s.replay;
  useEffect(() => {
    // A link's step (#m=K) typed or pasted into the address of an open replay.
    const onHash = () => {
      const step = (location.hash.match(/^#m=(\d+)$/) || [])[1];
      if (step !== undefined && Number(step) !== state.replay?.step) seek(Number(step));
    };
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", onHash);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onHash);
    };
  }, []);
  if (!replay) return null;
  const data = replay.data;
  const fromFile = replay.source.kind === "file";
  return html`<main class="replay-page" onDragOver=${(e) => e.preventDefault()} onDrop=${onDrop}>
    <div class="table-head">
      <h1>${t("replay.title")}${data ? `: ${gameTitle(t, data.game)}` : ""}</h1>
      ${data && data.deal ? html`<span class="status">${t(isTonk(data.game) ? "word.deal" : "word.game", { number: data.deal })}</span>` : null}
      ${data ? html`<${EyesChoice} replay=${replay} names=${seatNames(fakeSummary(data, replay.views[0], false))} />` : null}
      ${data && data.table && data.finished ? html`<a class="button small" data-action="download" download
        href=${`/api/tables/${encodeURIComponent(data.table)}/records?deal=${data.deal}`}>${t("replay.download")}</a>` : null}
      ${data && data.table ? html`<a href=${`/t/${encodeURIComponent(data.table)}`}>${t("replay.to_table")}</a>` : null}
    </div>
    ${data && !data.finished ? html`<p class="notice" role="status">${t(data.table ? "replay.in_play" : "replay.unfinished")}</p>` : null}
    ${fromFile ? html`<${FilePicker} replay=${replay} />` : null}
    ${replay.loading && !data ? html`<p>${t("replay.loading")}</p>` : null}
    ${data ? html`<${Viewer} replay=${replay} lang=${s.lang} />` : null}
  </main>`;
}
