// The table's chat (docs/protocol.md, "Chat"): free text and quick phrases, the players' channel
// and the spectators' (a spectator reads both, a player the players' only), a mute per person
// remembered in this browser, and the chat of a deal in its replay at each move. Every text a
// person wrote is shown as text (Preact's text nodes: textContent), never as HTML.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { send } from "./net.js";
import { state, updateTable } from "./store.js";

// The quick phrases: the key goes to the server, each reader sees it in their own language.
export const PHRASES = {
  hello: "chat.phrase.hello", "good-luck": "chat.phrase.good-luck", "your-turn": "chat.phrase.your-turn",
  "well-played": "chat.phrase.well-played", "nice-move": "chat.phrase.nice-move", oops: "chat.phrase.oops",
  thanks: "chat.phrase.thanks", "good-game": "chat.phrase.good-game", rematch: "chat.phrase.rematch",
};
export const MAX_CHAT = 200;
// A refused chat message, in the page's language (its code: docs/protocol.md).
const REFUSED = {
  "chat-channel": "chat.refused.channel", "chat-empty": "chat.refused.empty", "chat-too-long": "chat.refused.too-long",
  "chat-phrase": "chat.refused.phrase", "chat-both": "chat.refused.both", "chat-rate-limit": "chat.refused.rate",
};

// Whether an `error` frame is a chat message's refusal (shown in the chat, not over the hand).
export function isChatError(message) {
  return Boolean(REFUSED[message.code]);
}

// What the socket brings: the history on connecting, a message, a refusal.
export function chatReceive(message) {
  const table = state.table;
  if (!table) return;
  if (message.type === "chat-history") updateTable({ chat: message.lines, chatNotice: null });
  else if (message.type === "chat") updateTable({ chat: [...(table.chat || []), message.line].slice(-200) });
  else if (message.type === "error") updateTable({ chatNotice: message.code });
}

const muteKey = (id) => `tt_mute_${id}`;
export function mutedOf(id) {
  try {
    return new Set(JSON.parse(localStorage.getItem(muteKey(id)) || "[]"));
  } catch {
    return new Set();
  }
}
function setMuted(id, sender, muted) {
  const all = mutedOf(id);
  if (muted) all.add(sender);
  else all.delete(sender);
  localStorage.setItem(muteKey(id), JSON.stringify([...all]));
}

// Who wrote a line: the seat's name as the table names it, or a spectator with a short tag.
function writer(line, names) {
  if (line.seat !== null && line.seat !== undefined) return names[line.seat] ?? line.name ?? "?";
  return t("chat.spectator", { tag: line.sender.replace(/^spectator-/, "").slice(0, 4) });
}

function words(line) {
  return line.phrase ? t(PHRASES[line.phrase] || "chat.phrase.hello") : line.text;
}

function Line({ line, names, mine, onMute, now }) {
  return html`<li class=${`chat-line ${line.channel}${now ? " now" : ""}`} data-sender=${line.sender}
    title=${line.channel === "spectators" ? t("chat.spectators_channel") : undefined}>
    ${line.channel === "spectators" ? html`<span class="chat-channel">${t("chat.spectators_channel")}: </span>` : null}
    <span class="chat-who">${writer(line, names)}</span><span class="chat-sep">: </span><span class=${line.phrase ? "chat-text phrase" : "chat-text"}>${words(line)}</span>
    ${onMute && !mine ? html`<button type="button" class="chat-mute link" data-action="mute" onClick=${() => onMute(line.sender)}
      title=${t("chat.mute_title")}>${t("chat.mute")}</button>` : null}
  </li>`;
}

// The table page's chat panel (the side column; collapsible, kept open or shut in this browser).
export function ChatPanel({ table, names }) {
  const [, setTick] = useState(0);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(localStorage.getItem("tt_chat_open") !== "0");
  const lines = table.chat || [];
  const you = table.you;
  const muted = mutedOf(table.id);
  const me = you ? (you.role === "player" ? `seat-${you.seat}` : null) : null;
  const shown = lines.filter((x) => !muted.has(x.sender));
  useEffect(() => {
    const box = document.querySelector(".chat ol");
    if (box) box.scrollTop = box.scrollHeight;
  }, [shown.length, open]);
  if (!you) return null;
  const channel = you.role === "player" ? "players" : "spectators";
  // While the socket is down nothing is sent, so nothing can be lost: the buttons wait for it.
  const off = !table.connected;
  const sendText = (e) => {
    e.preventDefault();
    const clean = text.trim();
    if (!clean || off) return;
    send({ type: "say", text: clean.slice(0, MAX_CHAT) });
    setText("");
  };
  const mute = (sender) => { setMuted(table.id, sender, true); setTick((n) => n + 1); };
  const unmuteAll = () => { localStorage.removeItem(muteKey(table.id)); setTick((n) => n + 1); };
  const toggle = (e) => {
    const now = e.currentTarget.open;
    localStorage.setItem("tt_chat_open", now ? "1" : "0");
    setOpen(now);
  };
  return html`<details class="chat" open=${open} onToggle=${toggle} aria-label=${t("chat.title")}>
    <summary><h2>${t("chat.title")}</h2> <span class="sub">${t(channel === "players" ? "chat.players_channel" : "chat.spectators_note")}</span>
      ${!open && lines.length ? html` <span class="badge">${lines.length}</span>` : null}</summary>
    <ol aria-live="polite">${shown.slice(-80).map((line) => html`<${Line} key=${line.id} line=${line} names=${names}
      mine=${line.sender === me} onMute=${mute} />`)}</ol>
    ${shown.length === 0 ? html`<p class="sub chat-empty">${t("chat.empty")}</p>` : null}
    ${muted.size ? html`<p class="sub">${t("chat.muted", { count: muted.size })}
      <button type="button" class="link" data-action="unmute" onClick=${unmuteAll}>${t("chat.unmute_all")}</button></p>` : null}
    ${table.chatNotice ? html`<p class="notice error chat-notice" role="alert">${t(REFUSED[table.chatNotice] || "chat.refused.channel")}
      <button type="button" class="close" aria-label=${t("ui.close")} onClick=${() => updateTable({ chatNotice: null })}>×</button></p>` : null}
    <div class="chat-phrases" role="group" aria-label=${t("chat.phrases")}>
      ${Object.entries(PHRASES).map(([key, label]) => html`<button type="button" class="small" data-phrase=${key}
        disabled=${off} onClick=${() => send({ type: "say", phrase: key })}>${t(label)}</button>`)}
    </div>
    <form class="chat-form" onSubmit=${sendText}>
      <input type="text" name="chat" maxLength=${MAX_CHAT} value=${text} autocomplete="off"
        placeholder=${t("chat.placeholder")} aria-label=${t("chat.placeholder")}
        onInput=${(e) => setText(e.target.value)} />
      <button type="submit" class="small" disabled=${off}>${t("chat.send")}</button>
    </form>
  </details>`;
}

// The timeline's marks of a replay's chat: one a step that has messages ({data} of the replay).
export function chatMarks({ data }) {
  const count = {};
  for (const line of data.chat || []) count[line.after] = (count[line.after] || 0) + 1;
  return Object.entries(count).map(([step, n]) => ({ step: Number(step), kind: "chat", key: "chat.mark", params: { count: n } }));
}

// A replay's chat: the deal's messages written by the step shown, the step's own marked.
export function ReplayChat({ replay, names }) {
  const lines = replay.data?.chat || [];
  if (!lines.length) return null;
  const muted = replay.data.table ? mutedOf(replay.data.table) : new Set();
  const shown = lines.filter((x) => x.after <= replay.step && !muted.has(x.sender));
  return html`<section class="chat replay-chat" aria-label=${t("chat.title")}>
    <h2>${t("chat.title")}</h2>
    <ol>${shown.map((line) => html`<${Line} key=${line.id} line=${line} names=${names} now=${line.after === replay.step} />`)}</ol>
    ${shown.length === 0 ? html`<p class="sub chat-empty">${t("chat.not_yet")}</p>` : null}
  </section>`;
}
