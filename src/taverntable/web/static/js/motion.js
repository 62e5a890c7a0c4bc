// Cards that move (issue 26, item 8). After each redraw of the page the cards of every zone (a
// hand, the pile, a spread, a tower, a trade, the cards a seat was seen to take) are compared
// with the zone's cards before it; a card that has just come into a zone is marked
// `moved-draw` (into a hand: drawn or taken), `moved-discard` (onto the pile) or `moved-lay`
// (onto the table), and css/life.css moves it there in a fraction of a second, or not at all
// when the person asks for reduced motion (`prefers-reduced-motion`). The mark stays until the
// zone changes again, so that a test can read it. A refused move's notice that comes up off
// the screen is scrolled into view: the notice appears where the person is looking. A zone that
// shows only its top card (Tonk's pile) says its size (`data-size`): when it has not grown, the
// card now on top was uncovered (the top card taken, T7), not put there, and does not move.

const ZONES = [
  // [selector of the zone, kind of arrival, a key for the zone]
  [".my-area .hand", "draw", () => "hand"],
  ["[data-zone=pile]", "discard", () => "pile"],
  [".spread", "lay", (el) => `spread:${el.dataset.spread}`],
  [".seat .tower", "lay", (el) => `tower:${el.closest(".seat")?.dataset.seat}`],
  [".seat .nobility", "lay", (el) => `nobility:${el.closest(".seat")?.dataset.seat}`],
  [".seat .known", "draw", (el) => `known:${el.closest(".seat")?.dataset.seat}`],
  [".board .laid", "lay", (el) => `laid:${[...el.parentNode.children].indexOf(el)}:${el.querySelector(".who")?.textContent}`],
  [".board .attack", "lay", () => "attack"],
];
const KINDS = ["moved-draw", "moved-discard", "moved-lay"];

let before = null; // zone key -> the cards it held (a multiset as a list of texts)
let sizes = new Map(); // zone key -> its `data-size` then (null: it shows all its cards)
let page = null; // the table whose zones `before` holds

function zoneCards(root) {
  const now = new Map();
  for (const [selector, kind, key] of ZONES) {
    for (const zone of root.querySelectorAll(selector)) {
      const cards = [...zone.querySelectorAll(".card[data-card]")];
      const size = zone.dataset.size === undefined ? null : Number(zone.dataset.size);
      now.set(key(zone), { kind, cards, size });
    }
  }
  return now;
}

function look() {
  const root = document.querySelector(".table-page");
  if (!root) {
    before = null;
    return;
  }
  const now = zoneCards(root);
  const here = location.pathname;
  if (before && page === here) {
    for (const [key, { kind, cards, size }] of now) {
      const had = before.get(key);
      const left = had ? [...had] : [];
      const uncovered = size !== null && had && size <= sizes.get(key);
      const texts = cards.map((c) => c.dataset.card);
      if (had && had.length === texts.length && had.every((x, i) => x === texts[i])) continue;
      for (const card of cards) {
        const k = left.indexOf(card.dataset.card);
        if (k >= 0) {
          left.splice(k, 1);
          card.classList.remove(...KINDS);
        } else {
          card.classList.remove(...KINDS);
          if (!uncovered) card.classList.add(`moved-${kind}`);
        }
      }
    }
  }
  before = new Map([...now].map(([key, { cards }]) => [key, cards.map((c) => c.dataset.card)]));
  sizes = new Map([...now].map(([key, { size }]) => [key, size]));
  page = here;
  for (const notice of root.querySelectorAll(".my-area .notice.error:not([data-seen])")) {
    notice.dataset.seen = "1";
    const box = notice.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      notice.scrollIntoView({ block: "nearest", behavior: reduced() ? "auto" : "smooth" });
    }
  }
}

export function reduced() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

let queued = false;
export function watchMotion(root = document.getElementById("app")) {
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      look();
    });
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-card"] });
  return observer;
}
