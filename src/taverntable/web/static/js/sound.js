// Sounds at the table (issue 26, item 8): a short chime when it becomes the person's turn and a
// falling one at a deal's (a round's) end, made with the Web Audio API (no sound file). They are
// off until the person turns them on with the switch in the table's head; the choice is kept in
// localStorage ("tt_sound"). No AudioContext is made before the switch is on: a page that never
// sounds asks the browser for no audio.
import { useEffect, useRef } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { update } from "./store.js";

const KEY = "tt_sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

function audio() {
  if (!context) {
    const Made = window.AudioContext || window.webkitAudioContext;
    if (!Made) return null;
    context = new Made();
  }
  if (context.state === "suspended") context.resume?.();
  return context;
}

// Notes as [frequency in Hz, start in s, length in s].
const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.12, 0.18]],
  end: [[784, 0, 0.14], [659, 0.14, 0.14], [523, 0.28, 0.3]],
};

export function play(kind) {
  if (!soundOn()) return;
  const c = audio();
  if (!c) return;
  const now = c.currentTime;
  for (const [freq, at, length] of TUNES[kind]) {
    const tone = c.createOscillator();
    const gain = c.createGain();
    tone.type = kind === "end" ? "triangle" : "sine";
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
    tone.connect(gain);
    gain.connect(c.destination);
    tone.start(now + at);
    tone.stop(now + at + length + 0.05);
  }
}

// The person's turn now: a decision of their own seat, in a deal being played.
function myTurn(table) {
  const { view, you } = table;
  return Boolean(view && you && you.role === "player" && view.current_seat === you.seat
    && !view.result && (view.legal_moves || []).length > 0);
}

// The switch, and the sounds of the table it is drawn in.
export function SoundToggle({ table }) {
  const on = soundOn();
  const seen = useRef(null);
  const turn = myTurn(table);
  const ended = table.showdown || (table.view?.result ? `deal:${table.deal}` : null);
  useEffect(() => {
    const was = seen.current;
    seen.current = { turn, ended };
    if (!was) return; // the page just opened: nothing has happened yet
    if (ended && ended !== was.ended) play("end");
    else if (turn && !was.turn) play("turn");
  }, [turn, ended]);
  const toggle = () => {
    if (on) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, "on");
    if (!on) play("turn"); // made in the click: the browser lets a page sound after a gesture
    update({});
  };
  return html`<button type="button" class="small sound-toggle" data-action="sound" aria-pressed=${on ? "true" : "false"}
    title=${t("ui.sound_title")} onClick=${toggle}>♪ ${t(on ? "ui.sound_on" : "ui.sound_off")}</button>`;
}

// A page opened with the sounds on makes its AudioContext at the person's first click or key
// (a browser keeps a context made earlier silent).
if (soundOn()) {
  const wake = () => audio();
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
}
