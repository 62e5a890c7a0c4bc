// The turn timer: seconds left before a bot decides for the seat (the table's turn timer, or an
// absent player's grace time).
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";

export function Timer({ deadline }) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now() / 1000), 250);
    return () => clearInterval(id);
  }, [deadline]);
  const left = Math.max(0, Math.ceil(deadline - now));
  return html`<span class=${"timer" + (left <= 5 ? " urgent" : "")} role="timer"
    aria-label=${t("turn.timer", { seconds: left })}>⏱ ${t("turn.timer", { seconds: left })}</span>`;
}
