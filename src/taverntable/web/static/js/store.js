// The page's state, in one place: every component reads it through useStore() and every change
// goes through update(), which re-renders the components that use it.
import { useEffect, useState } from "preact/hooks";

export const state = {
  lang: "en",
  route: { page: "lobby", tableId: null },
  games: [], // /api/games
  gamesLoaded: false, // the list has come (or failed): a table page is drawn by its game's family
  lobbyTables: [], // /api/tables
  created: null, // the table just created here: {id, invite}
  notice: null, // {kind: "error"|"info", text, rule, game}
  table: null, // the table page: see newTable()
  replay: null, // the replay viewer: see replay.js's newReplay()
  account: null, // the signed-in person, {id, name, created}, or null for a guest
  accountKnown: false, // whether /api/account has answered yet
};

const listeners = new Set();
let changes = 0; // how many updates so far: a component that subscribes late catches up

export function update(patch) {
  Object.assign(state, typeof patch === "function" ? patch(state) : patch);
  changes += 1;
  for (const listener of listeners) listener();
}

export function updateTable(patch) {
  if (!state.table) return;
  const table = state.table;
  Object.assign(table, typeof patch === "function" ? patch(table) : patch);
  update({ table });
}

export function useStore() {
  const [, setTick] = useState(0);
  const seen = changes;
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    // Messages may have arrived between this render and this effect (a WebSocket's first
    // messages often do): render again rather than wait for the next one.
    if (changes !== seen) listener();
    return () => listeners.delete(listener);
  }, []);
  return state;
}

// A game's entry of /api/games (its title key, family, rules page); before the list has come, or
// for a name it does not hold, one made from the name alone.
export function gameInfo(name) {
  return state.games.find((g) => g.name === name)
    || { name, title: name, title_key: null, about_key: null, rules: name, family: name };
}

// A game's name in the page's language (its title when the tables have no key for it).
export function gameTitle(t, name, fallback) {
  const info = gameInfo(name);
  return info.title_key ? t(info.title_key) : fallback || info.title;
}

export function newTable(id) {
  return {
    id,
    summary: null, // the table summary (docs/protocol.md)
    you: null, // {seat, role, host}
    view: null, // the seat's view (docs/contract.md)
    version: null,
    deal: null,
    turn: null,
    log: [], // sentences: {key, params, id}
    roundDetails: {}, // Three Towers: round number -> round_end data (store, nobility, bonus)
    selection: { zone: "hand", items: [] }, // indices into the zone's cards
    sortBy: localStorage.getItem("tt_sort") || "rank",
    connected: false,
    error: null, // the last refusal: {code, message, rule, reason}
    because: null, // the answer to the last `why`: {move, legal, rule, reason, message}
    showdown: null, // what decided the last deal (round): see showdown.js
    announce: null, // a bot's deal-ending move, before the hands show
    queued: 0, // moves waiting for the socket to be back
    logDeal: null, // the deal the last `log` frame was of
    logLast: null, // that log's last move's events (a showdown to show again after a refresh)
    drawn: null, // the card this seat just drew (Tonk), marked in the hand
    showHelp: false,
  };
}

// Tokens kept in this browser: a seat's (to sit down again after a refresh) and the host's.
export const tokens = {
  seat: (id) => localStorage.getItem(`tt_seat_${id}`),
  setSeat: (id, token) => localStorage.setItem(`tt_seat_${id}`, token),
  host: (id) => localStorage.getItem(`tt_host_${id}`),
  setHost: (id, token) => localStorage.setItem(`tt_host_${id}`, token),
  // Every seat token this browser keeps (table id -> token): a guest who signs up keeps them.
  allSeats: () => {
    const out = {};
    for (let k = 0; k < localStorage.length; k++) {
      const key = localStorage.key(k);
      if (key.startsWith("tt_seat_")) out[key.slice(8)] = localStorage.getItem(key);
    }
    return out;
  },
};
