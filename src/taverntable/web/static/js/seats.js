// The seats around the table: names, who is on turn, card counts and what every seat may see
// of the others (Tonk: cards taken from the pile; Three Towers: towers, nobility, stores, marks).
import { Avatar, botName } from "./avatars.js";
import { Card, CardBack, CardRow } from "./cards.js";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { isTonk } from "./moves.js";
import { Timer } from "./timer.js";

const LEVEL = { easy: "bot.easy", medium: "bot.medium", hard: "bot.hard", random: "bot.easy",
  heuristic: "bot.medium", ismcts: "bot.hard" };

// A name as an element: isolated from the text around it (<bdi>), cut with an ellipsis when it is
// longer than its box (CSS .name), whole in its title.
export function Name({ name }) {
  return html`<bdi class="name" title=${name}>${name}</bdi>`;
}

// The seats' names; a bot is named in the page's language: a seeds' character (Goblin: Гоблин),
// or, at a table made before bots had names, "Bot 2 (easy)".
export function seatNames(summary) {
  return (summary?.seats || []).map((s) => {
    if (s.kind !== "bot") return s.name;
    const bot = /^Bot (\d+) \((\w+)\)$/.exec(s.name);
    return bot ? t("seat.bot_name", { number: bot[1], level: t(LEVEL[bot[2]] || "bot.medium") }) : botName(s.name);
  });
}

// A bot's level in the page's language ("medium").
export function levelName(level) {
  return t(LEVEL[level] || "bot.medium");
}

export function Seat({ seat, table, names }) {
  const { view, summary, turn, you } = table;
  const info = summary.seats[seat];
  const onTurn = view && view.current_seat === seat;
  const mine = you && you.seat === seat;
  const badges = [];
  if (mine) badges.push(html`<span class="badge you">${t("seat.you")}</span>`);
  if (info.kind === "bot") { /* its face and level stand by its name */ }
  else if (info.bot_playing) badges.push(html`<span class="badge away">${t("seat.bot_playing")}</span>`);
  else if (!info.claimed) badges.push(html`<span class="badge free">${t("seat.free")}</span>`);
  else if (!info.connected) badges.push(html`<span class="badge away">${t("seat.away")}</span>`);
  if (view && view.dealer === seat) badges.push(html`<span class="badge dealer">${t("seat.dealer")}</span>`);
  const count = view?.hand_sizes?.[seat];
  return html`<section class=${"seat" + (onTurn ? " on-turn" : "") + (mine ? " mine" : "")}
      aria-label=${t("seat.label", { name: names[seat] })} data-seat=${seat}>
    <header>
      ${info.kind === "bot" ? html`<${Avatar} name=${info.name} />` : null}
      <strong class="seat-name"><${Name} name=${names[seat]} /></strong>
      ${info.kind === "bot" ? html`<span class="level" title=${t("seat.bot", { level: levelName(info.level) })}>· ${levelName(info.level)}</span>` : null}
      ${badges}
      ${onTurn ? html`<span class="turn-mark">${t("seat.deciding")}</span>` : null}
      ${onTurn && turn?.seat === seat && turn.deadline ? html`<${Timer} deadline=${turn.deadline} />` : null}
    </header>
    <div class="seat-body">
      ${count !== undefined ? html`<span class="hand-count">${t("seat.cards", { count })}</span>` : null}
      ${view && isTonk(view.game) ? html`<${TonkSeat} view=${view} seat=${seat} />` : null}
      ${view && !isTonk(view.game) ? html`<${TowersSeat} view=${view} seat=${seat} names=${names} />` : null}
    </div>
  </section>`;
}

function TonkSeat({ view, seat }) {
  const known = view.known?.[seat] || [];
  const revealed = view.revealed?.[seat];
  return html`
    ${known.length ? html`<div class="known"><span class="caption">${t("tonk.known")}</span>
      <${CardRow} cards=${known} small=${true} label=${t("tonk.known")} /></div>` : null}
    ${view.hit_locked?.[seat] ? html`<span class="badge away">${t("tonk.hit_locked")}</span>` : null}
    ${revealed && seat !== view.seat ? html`<div class="revealed"><span class="caption">${t("tonk.revealed")}</span>
      <${CardRow} cards=${revealed} small=${true} label=${t("tonk.revealed")} /></div>` : null}`;
}

function TowersSeat({ view, seat }) {
  const tower = view.towers[seat];
  const nobility = view.nobility[seat];
  const marks = view.marks[seat];
  return html`
    <div class="tower" aria-label=${t("towers.tower")}>
      <span class="caption">${t("towers.tower")}</span>
      ${tower.length
        ? html`<${CardRow} cards=${tower} small=${true} />
          <span class="tower-value">${t("towers.tower_value", { value: view.tower_values[seat], goal: view.tower_goal })}</span>
          <progress max=${view.tower_goal} value=${Math.min(view.tower_values[seat], view.tower_goal)}
            aria-label=${t("towers.tower_value", { value: view.tower_values[seat], goal: view.tower_goal })}></progress>`
        : html`<span class="none">${t("towers.no_tower")}</span>`}
    </div>
    <div class="nobility">
      <span class="caption">${t("towers.nobility")}</span>
      ${nobility.length ? html`<${CardRow} cards=${nobility} small=${true} label=${t("towers.nobility")} />`
        : html`<span class="none">—</span>`}
    </div>
    <div class="store-line">
      <span>${t("towers.store_size", { count: view.store_sizes[seat] })}</span>
      <span class="marks" aria-label=${t("towers.marks", { count: marks })}>${"★".repeat(marks)}${"☆".repeat(Math.max(0, 3 - marks))}</span>
      <span>${t("towers.score", { score: view.scores[seat] })}</span>
    </div>
    ${view.known_stores?.[seat]?.length && seat !== view.seat ? html`<details class="known-store">
      <summary>${t("towers.known_store", { count: view.known_stores[seat].length })}</summary>
      <${CardRow} cards=${view.known_stores[seat]} small=${true} /></details>` : null}`;
}

export { CardBack, Card };
