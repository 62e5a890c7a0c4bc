// Talking to the server: HTTP for tables and seats, one WebSocket for the game (docs/protocol.md).
import { chatReceive, isChatError } from "./chat.js";
import { dealStart, entrySentences, eventSentences, historySentences, matchNumber } from "./log.js";
import { t } from "./i18n.js";
import { isTowers } from "./moves.js";
import { showdownFrom } from "./showdown.js";
import { state, tokens, update, updateTable } from "./store.js";

// A refused HTTP request in the page's language, from its code (docs/protocol.md); the server's
// own words only where there is no code for it (a rule option the rules refuse).
const HTTP_ERROR = {
  "no-table": "table.missing", "no-game": "http.no-game", "not-host": "http.not-host",
  "seats-taken": "http.seats-taken", "seat-taken": "http.seat-taken",
  "server-busy": "http.server-busy", "unknown-seat": "error.unknown-seat",
  "not-waiting": "http.not-waiting", "match-not-over": "http.match-not-over",
  "no-deal": "http.no-deal", "deal-in-play": "http.deal-in-play", "not-your-seat": "http.not-your-seat",
  "bad-seat": "http.bad-seat", "bad-record": "http.bad-record", "no-record": "http.no-record",
  "too-large": "http.too-large", "too-long": "http.too-long",
  "foreign-origin": "http.foreign-origin",
  // accounts (docs/protocol.md, "Accounts")
  "name-bad": "http.name-bad", "name-too-short": "http.name-too-short", "name-too-long": "http.name-too-long",
  "name-taken": "http.name-taken", "password-too-short": "http.password-too-short",
  "password-too-long": "http.password-too-long", "password-common": "http.password-common",
  "password-is-name": "http.password-is-name", "bad-credentials": "http.bad-credentials",
  "throttled": "http.throttled", "signed-out": "http.signed-out", "sign-in": "http.sign-in",
  "rated-rules": "http.rated-rules", "rated-seats-open": "http.rated-seats-open",
  "no-player": "http.no-player",
  "too-many-tables": "http.too-many-tables",
  // the coach (issue 27)
  "review-busy": "http.review-busy", "review-queue-full": "http.review-queue-full",
  "not-your-table": "http.not-your-table", "rated-hints": "http.rated-hints",
  "no-lesson": "http.no-lesson",
};

// `{message}` in a translation is the server's own words (the engine's reason for a record).
export function errorText(err) {
  return HTTP_ERROR[err.code] ? t(HTTP_ERROR[err.code], { message: err.message }) : err.message;
}

async function request(method, url, body, headers = {}) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return {};
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    error.code = data.code;
    throw error;
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${id}`),
  create: (body) => request("POST", "/api/tables", body),
  join: (id, name, seat) => request("POST", `/api/tables/${id}/join`, { name, seat }),
  start: (id) => request("POST", `/api/tables/${id}/start`, undefined, { "X-Host-Token": tokens.host(id) }),
  rematch: (id) => request("POST", `/api/tables/${id}/rematch`, undefined, { "X-Host-Token": tokens.host(id) }),
  // accounts: the session is an HttpOnly cookie; the page only learns who is signed in
  me: () => request("GET", "/api/account"),
  signUp: (name, password) => request("POST", "/api/account/signup", { name, password, seats: tokens.allSeats() }),
  signIn: (name, password) => request("POST", "/api/account/signin", { name, password, seats: tokens.allSeats() }),
  signOut: () => request("POST", "/api/account/signout"),
  changePassword: (old, next) => request("POST", "/api/account/password", { old, new: next }),
  deleteAccount: (password) => request("POST", "/api/account/delete", { password }),
  myGames: (page) => request("GET", `/api/account/games?page=${page}`),
  ladder: (game) => request("GET", `/api/ladder/${encodeURIComponent(game)}`),
  player: (id) => request("GET", `/api/players/${encodeURIComponent(id)}`),
};

// Who is signed in here (null: a guest), asked once when the page opens.
export async function loadAccount() {
  try {
    update({ account: await api.me(), accountKnown: true });
  } catch {
    update({ account: null, accountKnown: true });
  }
}

let socket = null;
let retry = 0;
let pingTimer = null;
// Moves made while the socket is down: sent, in order, once it is back (docs/protocol.md). The
// version they were chosen on goes with them, so a table that moved on refuses them (stale),
// and the page shows that refusal: a move is never dropped without a word.
let queued = [];

// Connect this page to its table: with the seat's token if this browser has one, else watch.
export function connect(id) {
  if (socket) socket.close();
  const token = tokens.seat(id);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // The host's token too, so that hello's you.host says this page is the host's.
  const query = new URLSearchParams();
  if (token) query.set("token", token);
  if (tokens.host(id)) query.set("host", tokens.host(id));
  const url = `${scheme}://${location.host}/ws/${id}` + (query.toString() ? `?${query}` : "");
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    retry = 0;
    updateTable({ connected: true });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping" }), 25000);
    const waiting = queued;
    queued = [];
    for (const message of waiting) ws.send(JSON.stringify(message));
    if (waiting.length) updateTable({ queued: 0 });
  };
  ws.onmessage = (frame) => receive(JSON.parse(frame.data));
  ws.onclose = (event) => {
    if (socket !== ws) return;
    updateTable({ connected: false });
    clearInterval(pingTimer);
    if (event.code === 4403 && token) {
      // A token this table does not know (a reset server): watch instead.
      localStorage.removeItem(`tt_seat_${id}`);
    }
    if (event.code === 4404) {
      update({ notice: { kind: "error", text: t("table.missing") } });
      return;
    }
    retry = Math.min(retry + 1, 6);
    setTimeout(() => { if (socket === ws && state.table?.id === id) connect(id); }, 300 * 2 ** retry);
  };
}

export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

export function sendMove(text) {
  const table = state.table;
  updateTable({ error: null, because: null, selection: { zone: "hand", items: [] } });
  const message = { type: "move", move: text, version: table.version };
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else {
    queued.push(message);
    updateTable({ queued: queued.length });
  }
}

// Ask the server why a move is not allowed (the engine's refusal comes back as `because`).
export function askWhy(text) {
  const table = state.table;
  send({ type: "why", move: text, version: table.version });
}

// The "a bot moved for them" line before a move's sentences (docs/protocol.md: `by`).
function byLine(by, events) {
  const who = events.find((e) => e.kind === "move")?.seat;
  return by ? [{ key: by === "timer" ? "log.by_timer" : "log.by_absent", who, params: {} }] : [];
}

function receive(message) {
  const table = state.table;
  if (!table) return;
  switch (message.type) {
    case "hello":
      updateTable({ you: message.you });
      break;
    case "table":
      updateTable({ summary: message.table });
      break;
    case "log": {
      // The deal's whole log as this seat saw it (on connecting): it replaces what the page had.
      const game = table.summary?.game; // the `table` frame comes first on every connection
      const log = [dealStart(game, matchNumber(table.summary, message.deal))];
      const roundDetails = { ...table.roundDetails };
      for (const entry of message.entries) {
        log.push(...byLine(entry.by, entry.events), ...entrySentences(entry.events, game, table.you?.seat));
        for (const e of entry.events) {
          if (e.kind === "round_end") roundDetails[`${message.deal}:${e.data.round}`] = e.data;
        }
      }
      const last = message.entries[message.entries.length - 1];
      updateTable({ log, logDeal: message.deal, logLast: last ? last.events : [], roundDetails });
      break;
    }
    case "announce":
      updateTable({ announce: message });
      break;
    case "hint": // the coach's numbers for this seat (hints.js)
      updateTable({ hint: message });
      break;
    case "lesson": // a guided first deal's hint (tutorial.js)
      updateTable({ lesson: message });
      break;
    case "update": {
      const first = table.deal !== message.deal || table.view === null;
      const before = table.view;
      const number = matchNumber(table.summary, message.deal);
      let log = table.log;
      let showdown = table.showdown;
      if (first && message.events.length === 0) {
        if (table.logDeal !== message.deal) {
          log = [...(table.deal !== null && table.deal !== message.deal ? log : []),
            dealStart(message.view.game, number), ...historySentences(message.view)];
        } else if (table.logLast) {
          // After a refresh in a deal's (round's) end: its showdown comes back with the log.
          showdown = showdownFrom(table.logLast, message.view, message.deal, number) || showdown;
        }
      } else {
        if (table.deal !== message.deal) log = [...log, dealStart(message.view.game, number)];
        log = [...log, ...byLine(message.by, message.events),
          ...eventSentences(message.events, message.view.game, before?.phase ?? null, table.you?.seat)];
        const ended = showdownFrom(message.events, message.view, message.deal, number);
        if (ended) showdown = ended;
        else if (showdown && message.events.some((e) => e.kind === "move" && e.seat >= 0)) showdown = null;
      }
      const roundDetails = { ...table.roundDetails };
      for (const e of message.events) {
        if (e.kind === "round_end") roundDetails[`${message.deal}:${e.data.round}`] = e.data;
      }
      const keep = table.version !== null && message.version === table.version;
      updateTable({
        view: message.view, version: message.version, deal: message.deal, turn: message.turn,
        log: log.slice(-300), roundDetails, showdown, announce: null, logLast: null,
        selection: keep ? table.selection : { zone: "hand", items: [] },
        because: keep ? table.because : null,
        drawn: drawnCard(message, table),
      });
      break;
    }
    case "chat":
    case "chat-history":
      chatReceive(message);
      break;
    case "error":
      if (isChatError(message)) chatReceive(message);
      else updateTable({ error: message });
      break;
    case "because":
      updateTable({ because: message });
      break;
    default:
      break;
  }
}

export function disconnect() {
  if (socket) {
    const ws = socket;
    socket = null;
    ws.close();
  }
  clearInterval(pingTimer);
}

// The card this seat just drew or took (Tonk), marked in the hand for the rest of its turn:
// from the update's draw or take event, or after connecting from the view (the pile card
// taken this turn, or a stock draw since another seat last moved).
function drawnCard(message, table) {
  const me = table.you?.seat;
  const view = message.view;
  if (me === null || me === undefined || isTowers(view.game) || view.current_seat !== me) return null;
  const drew = message.events.filter((e) => (e.kind === "draw" || e.kind === "take") && e.seat === me && e.cards);
  if (drew.length) return drew[drew.length - 1].cards[0];
  if (message.events.length) return (view.hand || []).includes(table.drawn) ? table.drawn : null;
  if (view.pile_card) return view.pile_card;
  const history = view.history || [];
  let other = -1;
  history.forEach(([seat], i) => { if (seat !== me) other = i; });
  const own = (view.own_draws || []).filter(([i]) => i > other);
  return own.length ? own[own.length - 1][1] : null;
}
