// The bots' names and faces (issue 26, item 7). The server names a bot seat after one of the
// seeds' characters (taverntable/characters.py: Goblin, Elmo, One-Eye … the names the terminal
// gives its bots); the page shows that name in its language ("bot.name.Goblin": Гоблин in
// Russian) and a small face drawn here as inline SVG, the same for the same name on every page
// (nothing is fetched).
import { html } from "./html.js";
import { t } from "./i18n.js";

// A character's name in the page's language; a bot named otherwise keeps its name. A name the
// server numbered past the list's end ("Goblin 2") keeps its number.
export function botName(name) {
  const found = /^(.*?)( \d+)?$/.exec(name || "");
  const key = `bot.name.${found[1]}`;
  const said = t(key);
  return said === key ? name : said + (found[2] || "");
}

// FNV-1a of the name: the same face for the same name, different ones for different names.
function hash(text) {
  let h = 2166136261;
  for (const ch of text) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

const SKIN = ["#f2c9a0", "#e0ac7e", "#c68a5a", "#9c6a43", "#f6d7b8", "#b5c98a"];
const HAIR = ["#2b1d12", "#5a3a1e", "#8a5a2b", "#c9a45a", "#6b6b6b", "#9e2f1f", "#1e2a3a"];
const BACK = ["#d7e3f4", "#f4e3c1", "#dcefd8", "#f2d7e3", "#e3dcf4", "#f4d7d2", "#d8eeee"];
// Traits some characters are known by.
const TRAITS = { "One-Eye": { patch: true }, Goblin: { ears: true, skin: 5 }, Silent: { mouth: 3 },
  Lady: { hair: 4, crown: true }, Zarr: { ears: true, skin: 5, hair: 6 }, Croaker: { beard: true } };

// The face's parts, chosen by the name's hash (and the character's traits).
export function faceOf(name) {
  const base = /^(.*?)( \d+)?$/.exec(name || "")[1];
  const h = hash(name || "?");
  const pick = (list, shift) => (h >>> shift) % list;
  const traits = TRAITS[base] || {};
  return {
    back: BACK[pick(BACK.length, 0)],
    skin: SKIN[traits.skin ?? pick(SKIN.length - 1, 3)],
    hair: HAIR[pick(HAIR.length, 6)],
    hairStyle: traits.hair ?? pick(5, 9),
    eyes: pick(3, 12),
    mouth: traits.mouth ?? pick(3, 14),
    hat: !traits.crown && pick(4, 16) === 0,
    beard: traits.beard ?? pick(5, 18) === 0,
    patch: Boolean(traits.patch),
    ears: Boolean(traits.ears),
    crown: Boolean(traits.crown),
  };
}

function Hair({ f }) {
  switch (f.hairStyle) {
    case 0: return html`<path d="M9 15 Q9 6 16 6 Q23 6 23 15 Q20 10 16 10 Q12 10 9 15Z" fill=${f.hair} />`;
    case 1: return html`<path d="M8 17 Q8 5 16 5 Q24 5 24 17 L22 17 Q21 9 16 9 Q11 9 10 17Z" fill=${f.hair} />`;
    case 2: return html`<path d="M10 11 L12 6 L14 10 L16 5 L18 10 L20 6 L22 11 Q16 8 10 11Z" fill=${f.hair} />`;
    case 3: return html`<path d="M8 20 Q7 6 16 6 Q25 6 24 20 L22 20 L22 13 Q16 9 10 13 L10 20Z" fill=${f.hair} />`;
    default: return html`<path d="M8 18 Q7 5 16 5 Q25 5 24 18 Q23 25 21 27 L21 14 Q16 10 11 14 L11 27 Q9 25 8 18Z" fill=${f.hair} />`;
  }
}

function Eyes({ f }) {
  const eye = (x) => (f.eyes === 0 ? html`<circle cx=${x} cy="16" r="1.3" fill="#1d1d1d" />`
    : f.eyes === 1 ? html`<path d=${`M${x - 1.6} 16 Q${x} 14.6 ${x + 1.6} 16`} stroke="#1d1d1d" stroke-width="1.1" fill="none" />`
      : html`<ellipse cx=${x} cy="16" rx="1.5" ry="1" fill="#1d1d1d" />`);
  return html`${f.patch ? html`<path d="M9.5 13 L22 18.5" stroke="#1d1d1d" stroke-width="0.8" />
      <ellipse cx="13" cy="16" rx="2.4" ry="2" fill="#1d1d1d" />` : eye(13)}${eye(19)}`;
}

function Mouth({ f }) {
  if (f.mouth === 0) return html`<path d="M13 21 Q16 23.5 19 21" stroke="#6b2a1e" stroke-width="1.1" fill="none" />`;
  if (f.mouth === 1) return html`<path d="M13.5 21.5 L18.5 21.5" stroke="#6b2a1e" stroke-width="1.1" />`;
  if (f.mouth === 3) return html`<path d="M14 21.8 L18 21.8" stroke="#6b2a1e" stroke-width="0.8" />`;
  return html`<ellipse cx="16" cy="21.6" rx="1.6" ry="1.1" fill="#6b2a1e" />`;
}

// The face of the bot called `name` (its English name: the same face in every language).
export function Avatar({ name, size = 28 }) {
  const f = faceOf(name);
  return html`<svg class="avatar" width=${size} height=${size} viewBox="0 0 32 32" aria-hidden="true"
      data-face=${name} focusable="false">
    <circle cx="16" cy="16" r="16" fill=${f.back} />
    ${f.ears ? html`<path d="M8.5 15 L3 10 L9 19Z M23.5 15 L29 10 L23 19Z" fill=${f.skin} />` : null}
    <ellipse cx="16" cy="17" rx="7.5" ry="8.5" fill=${f.skin} />
    ${f.beard ? html`<path d="M9 19 Q16 31 23 19 Q21 25 16 25 Q11 25 9 19Z" fill=${f.hair} />` : null}
    <${Hair} f=${f} />
    <${Eyes} f=${f} />
    <${Mouth} f=${f} />
    ${f.hat ? html`<path d="M7 11 L25 11 L22 9 L20 2 L12 2 L10 9Z" fill="#3b2a1a" />` : null}
    ${f.crown ? html`<path d="M10 8 L11 3 L13.5 6 L16 2 L18.5 6 L21 3 L22 8Z" fill="#e0b341" />` : null}
  </svg>`;
}
