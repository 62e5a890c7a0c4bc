// The coach's review in the replay viewer (issue 27): a "Review" button on a finished deal
// (Three Towers game) of a table; the server queues it for the bot pool's coach workers and
// says how many reviews are ahead; once done, each flagged decision is a mark on the timeline
// (the coach's sentence as its title) and a line below the controls with every alternative's
// value. The sentences come from the server in every language (coach/texts.py); the page picks
// its own. docs/protocol.md, "Reviews".
import { html } from "./html.js";
import { t } from "./i18n.js";
import { errorText } from "./net.js";
import { addMarks, addTool } from "./replay.js";
import { state, tokens, update } from "./store.js";

// Answers by `table/deal/seat`: {status, ahead, review, error} (ReviewStatus), or {asking}.
const answers = {};
const POLL_MS = 1000;

function reviewedSeat(data) {
  return data.seen_as === "seat" ? data.seat : null;
}

function keyOf(data, seat = reviewedSeat(data)) {
  return `${data.table}/${data.deal}/${seat ?? "mine"}`;
}

function url(data, seat) {
  const query = seat === null ? "" : `?seat=${seat}`;
  return `/api/replays/${encodeURIComponent(data.table)}/${data.deal}/review${query}`;
}

// A value in the review's unit: signed with a true minus, two decimals for stakes, one for points.
export function signed(value, unit) {
  const text = Math.abs(value).toFixed(unit === "points" ? 1 : 2);
  if (Number(text) === 0) return text;
  return `${value > 0 ? "+" : "\u2212"}${text}`;
}

function sentence(decision) {
  return decision.text[state.lang] || decision.text.en;
}

// The marks of a finished review: one per flagged decision, at the step that shows its move.
// The label keeps its key, so that a language switch says it again (the sentence with it).
function coachMarks(review) {
  if (!review) return [];
  return review.decisions.filter((d) => d.flagged).map((d) => ({
    step: d.step + 1, kind: "mistake", key: "replay.review_mark",
    params: { number: d.step + 1, text: { toString: () => sentence(d) } },
  }));
}

function refresh(key) {
  const replay = state.replay;
  if (!replay?.data) return;
  if (keyOf(replay.data) === key) {
    const review = answers[key]?.review;
    replay.marks = [...replay.marks.filter((m) => m.kind !== "mistake"), ...coachMarks(review)];
  }
  update({ replay });
}

async function call(method, data, seat) {
  const token = tokens.seat(data.table);
  const response = await fetch(url(data, seat), { method, headers: token ? { "X-Seat-Token": token } : {} });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.error || response.statusText);
    error.code = body.code;
    throw error;
  }
  return body;
}

async function ask(data) {
  const seat = reviewedSeat(data);
  const key = keyOf(data, seat);
  answers[key] = { status: "asking" };
  refresh(key);
  try {
    let answer = await call("POST", data, seat);
    answers[key] = answer;
    refresh(key);
    while (answer.status === "queued" || answer.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      answer = await call("GET", data, seat);
      answers[key] = answer;
      refresh(key);
    }
  } catch (err) {
    answers[key] = { status: "refused", error: errorText(err) };
    refresh(key);
  }
}

function Status({ answer }) {
  if (!answer) return null;
  const s = answer.status;
  if (s === "asking") return html`<span class="review-status" role="status">${t("replay.review_asking")}</span>`;
  if (s === "queued") {
    return html`<span class="review-status" role="status" data-review="queued">${t("replay.review_queued", { ahead: answer.ahead })}</span>`;
  }
  if (s === "running") return html`<span class="review-status" role="status" data-review="running">${t("replay.review_running")}</span>`;
  if (s === "failed") return html`<span class="review-status error" role="alert">${t("replay.review_failed", { message: answer.error })}</span>`;
  if (s === "refused") return html`<span class="review-status error" role="alert">${answer.error}</span>`;
  return null;
}

function Options({ decision, unit }) {
  return html`<ul class="review-options">${decision.options.map((o) => html`<li
    class=${o.move === decision.chosen ? "chosen" : o.move === decision.best ? "best" : ""}>
    <span class="move" title=${o.move}>${o.words?.[state.lang] || o.words?.en || o.move}</span> <span class="value">${signed(o.value, unit)}</span>${" "}<span
    class="sub">[${signed(o.low, unit)}, ${signed(o.high, unit)}]</span>
    ${o.move === decision.chosen ? html` <em>${t("replay.review_chosen")}</em>` : null}
    ${o.move === decision.best ? html` <em>${t("replay.review_best")}</em>` : null}</li>`)}</ul>`;
}

function Findings({ review, replay, seek }) {
  const unit = review.unit === "points" ? t("replay.review_points") : t("replay.review_stakes");
  const flagged = review.decisions.filter((d) => d.flagged);
  return html`<section class="review" aria-label=${t("replay.review_title")} data-review="done">
    <p class="review-total"><strong>${t("replay.review_title")}</strong>${" · "}${t("replay.review_summary", { name: review.player,
        decisions: t("replay.review_decisions", { count: review.decisions.length }),
        mistakes: t("replay.review_mistakes", { count: review.mistakes }),
        lost: signed(-review.lost, review.unit), unit })}
      <span class="sub"> ${t("replay.review_worlds", { worlds: review.worlds })}</span></p>
    ${flagged.length ? html`<ol class="review-list">${flagged.map((d) => html`<li key=${d.step}
      class=${replay.step === d.step + 1 ? "current" : ""} data-step=${d.step + 1}>
      <button type="button" class="small" onClick=${() => seek(d.step + 1)}>${t("replay.review_move", { number: d.step + 1 })}</button>
      <span class="note">${sentence(d)}</span>
      <${Options} decision=${d} unit=${review.unit} /></li>`)}</ol>`
      : html`<p class="sub">${t("replay.review_clean")}</p>`}
  </section>`;
}

function ReviewTool({ replay, seek }) {
  const data = replay.data;
  if (!data?.table || !data.finished) return null;
  const answer = answers[keyOf(data)];
  const busy = answer && ["asking", "queued", "running"].includes(answer.status);
  return html`<button type="button" data-action="review" onClick=${() => ask(data)} disabled=${busy}
      title=${t("replay.review_help")}>${t("replay.review")}</button>
    <${Status} answer=${answer} />
    ${answer?.status === "done" ? html`<${Findings} review=${answer.review} replay=${replay} seek=${seek} />` : null}`;
}

addTool(ReviewTool);
addMarks(({ data }) => (data.table && data.finished ? coachMarks(answers[keyOf(data)]?.review) : []));
