// The turn timer: seconds left before a bot decides for the seat (the table's turn timer, or an
// absent player's grace time).
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";

// Drawn, not an emoji: many systems (and headless browsers) have no font with the stopwatch.
const CLOCK = html`<svg class="clock" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
  <circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="1.6"/>
  <path d="M8 9V5.5M6.5 1.5h3" stroke="currentColor" stroke-width="1.6" fill="none" stroke-linecap="round"/>
</svg>`;

export function Timer({ deadline }) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now() / 1000), 250);
    return () => clearInterval(id);
  }, [deadline]);
  const left = Math.max(0, Math.ceil(deadline - now));
  return html`<span class=${"timer" + (left <= 5 ? " urgent" : "")} role="timer"
    aria-label=${t("turn.timer", { seconds: left })}>${CLOCK} ${t("turn.timer", { seconds: left })}</span>`;
}
