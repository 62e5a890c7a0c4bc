// Talking to the server: HTTP for tables and seats, one WebSocket for the game (docs/protocol.md).
import { eventSentences, historySentences } from "./log.js";
import { t } from "./i18n.js";
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
  updateTable({ error: null, selection: { zone: "hand", items: [] } });
  send({ type: "move", move: text, version: table.version });
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
    case "update": {
      const first = table.deal !== message.deal || table.view === null;
      const before = table.view;
      let log = table.log;
      if (first && message.events.length === 0) {
        log = [...(table.deal !== null && table.deal !== message.deal ? log : []),
          { key: "log.deal_start", params: { deal: message.deal } }, ...historySentences(message.view)];
      } else {
        if (table.deal !== message.deal) log = [...log, { key: "log.deal_start", params: { deal: message.deal } }];
        log = [...log, ...eventSentences(message.events, message.view.game, before?.phase ?? null, table.you?.seat)];
      }
      const roundDetails = { ...table.roundDetails };
      for (const e of message.events) {
        if (e.kind === "round_end") roundDetails[`${message.deal}:${e.data.round}`] = e.data;
      }
      const keep = table.version !== null && message.version === table.version;
      updateTable({
        view: message.view, version: message.version, deal: message.deal, turn: message.turn,
        log: log.slice(-300), roundDetails,
        selection: keep ? table.selection : { zone: "hand", items: [] },
      });
      break;
    }
    case "error":
      updateTable({ error: message });
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
