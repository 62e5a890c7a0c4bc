// The guided first deals (web/tutorial.py): the lobby's "Learn by playing", the page that makes
// a lesson's table (/learn/NAME), and at a lesson's table the hint of the step the deal stands at
// (the server's `lesson` frame), again after a refused move, and the closing message.
import { cardsShort, isCard } from "./cards.js";
import { html } from "./html.js";
import { LANGUAGES, setLanguage, t } from "./i18n.js";
import { isTowers, moveLabel, readMove } from "./moves.js";
import { errorText } from "./net.js";
import { rulesLink } from "./reasons.js";
import { gameTitle, state, tokens, update, useStore } from "./store.js";

// Hint parameters that are cards (the record notation, shown as the table shows them) or a seat.
const CARD_PARAMS = ["card", "cards", "keep", "won"];

export function hintText(lesson, names) {
  const params = { ...lesson.params };
  for (const name of CARD_PARAMS) if (name in params) params[name] = cardsShort(String(params[name]).split(" "));
  if ("who" in params) params.who = names[params.who] ?? String(params.who);
  return t(lesson.hint, params);
}

// The lessons the server offers, one per family (GET /api/games's `lesson`), each with the
// title of the game it teaches.
function lessonsOf(games) {
  const out = [];
  for (const game of games) {
    if (game.lesson && !out.some((x) => x.name === game.lesson)) {
      const taught = games.find((g) => g.name === game.lesson) || game;
      out.push({ name: game.lesson, game: taught.name });
    }
  }
  return out;
}

// The lobby's offer: a guided first deal of each game.
export function LearnByPlaying({ games }) {
  const lessons = lessonsOf(games || []);
  if (!lessons.length) return null;
  return html`<section class="learn" aria-label=${t("lesson.learn")}>
    <h2>${t("lesson.learn")}</h2>
    <p class="sub">${t("lesson.learn_text")}</p>
    <div class="buttons">${lessons.map((x) => html`<a class="button primary" data-lesson=${x.name}
      href=${`/learn/${x.name}`}>${t("lesson.learn_game", { game: gameTitle(t, x.game) })}</a>`)}</div>
  </section>`;
}

// /learn/NAME: make the lesson's table (the server stacks its deal) and open it.
export async function startLesson(name, search) {
  const lang = new URLSearchParams(search).get("lang");
  if (LANGUAGES.includes(lang)) await setLanguage(lang);
  const person = localStorage.getItem("tt_name") || t("join.default_name", { number: 1 });
  try {
    const response = await fetch(`/api/lessons/${encodeURIComponent(name)}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: state.account ? null : person }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.code = data.code;
      throw error;
    }
    const id = data.table.id;
    tokens.setHost(id, data.host_token);
    tokens.setSeat(id, data.token);
    location.replace(`/t/${id}`);
  } catch (err) {
    update({ lessonError: errorText(err) });
  }
}

export function LearnPage() {
  const s = useStore();
  return html`<main class="learn-page">
    ${s.lessonError ? html`<p class="notice error" role="alert">${s.lessonError}</p>`
      : html`<p role="status">${t("lesson.starting")}</p>`}
    <p><a href="/">${t("ui.lobby")}</a></p>
  </main>`;
}

// At a lesson's table: the step's hint, what to press, the rule it teaches; after a refused move
// the hint again; at the end the closing message and where to go next.
export function LessonPanel({ table, names }) {
  const { summary, view, you } = table;
  const lesson = table.lesson;
  if (!summary?.lesson || !lesson || !you || you.role !== "player") return null;
  if (view && lesson.deal !== table.deal) return null;
  const game = summary.game;
  const mine = !lesson.done && lesson.seat === you.seat && lesson.move;
  const missed = mine && table.error && view && view.current_seat === you.seat;
  const title = t(isTowers(game) ? "lesson.title_towers" : "lesson.title");
  const read = mine && view ? readMove(lesson.move, view) : null;
  const label = read ? moveLabel(read, view, names) : null;
  // The cards the step's move takes from the hand, marked there until selected.
  const marks = read && read.zone === "hand" ? read.cards.filter(isCard)
    .map((c) => `.my-area .hand button.card[data-card="${c}"]:not(.selected)`) : [];
  return html`<section class=${`lesson${missed ? " missed" : ""}${lesson.done ? " done" : ""}`}
    aria-label=${title} data-step=${lesson.step} data-move=${mine ? lesson.move : ""}
    data-done=${lesson.done ? "true" : "false"}>
    <h2>${title} <span class="sub">${lesson.done ? t("lesson.done")
      : t("lesson.step", { number: lesson.step + 1, of: lesson.steps })}</span></h2>
    ${missed ? html`<p class="lesson-again" role="alert">${t("lesson.again")}</p>` : null}
    <p class="lesson-hint" role="status" aria-live="polite">${hintText(lesson, names)}
      ${" "}<a class="rule" href=${rulesLink(game, lesson.rule, state.lang)} target="_blank"
        rel="noopener">${t("error.rule_link", { rule: lesson.rule })}</a></p>
    ${mine ? html`<p class="lesson-do">${t("lesson.do")} <strong>${label}</strong></p>` : null}
    ${marks.length ? html`<style>${`${marks.join(", ")} { box-shadow: 0 0 0 3px var(--gold), 0 0 12px var(--gold); }`}</style>` : null}
    ${!mine && !lesson.done ? html`<p class="sub">${t("lesson.watch")}</p>` : null}
    ${lesson.done ? html`<div class="buttons">
      <a class="button primary" data-link="real-table" href="/">${t("lesson.play_real")}</a>
      <a class="button" data-link="how-to-play" href=${`/how-to-play/${game}?lang=${state.lang}`}>${t("lesson.read_howto")}</a>
      <a class="button" data-link="lesson-again" href=${`/learn/${lesson.lesson}`}>${t("lesson.again_button")}</a>
    </div>` : null}
  </section>`;
}
