// A replay's timeline: the slider over its steps, and marks on it. A mark is
// {step, kind, label}: drawn as a tick at its step (class `mark-KIND`), its label as the tick's
// title and spoken name, and a click on it goes to its step. The replay viewer draws the ends
// of rounds and deals; a coach (issue 27) adds its own marks with kinds of its own.
import { html } from "./html.js";
import { t } from "./i18n.js";

export function Timeline({ count, at, onSeek, marks = [] }) {
  const last = Math.max(0, count - 1);
  const where = (step) => (last === 0 ? 0 : (100 * step) / last);
  return html`<div class="timeline">
    <input type="range" min="0" max=${last} step="1" value=${at} aria-label=${t("replay.slider")}
      aria-valuetext=${t("replay.step", { step: at, count: last })}
      onInput=${(e) => onSeek(Number(e.target.value))} />
    <div class="marks">
      ${marks.map((m) => html`<button type="button" class=${`mark mark-${m.kind}`} key=${`${m.kind}:${m.step}`}
        style=${`left: ${where(m.step)}%`} title=${m.label} aria-label=${m.label} data-step=${m.step}
        onClick=${() => onSeek(m.step)}></button>`)}
    </div>
  </div>`;
}
