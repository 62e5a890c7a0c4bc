// Every string the page shows goes through t(key, params): the tables are static/i18n/LANG.json
// (a test checks that every language has every key, and that every key is used).
import { state, update } from "./store.js";

export const LANGUAGES = ["en", "hu", "ru", "uk"];
export const LANGUAGE_NAMES = { en: "English", hu: "Magyar", ru: "Русский", uk: "Українська" };
const tables = {};

async function load(lang) {
  if (!tables[lang]) {
    const response = await fetch(`/static/i18n/${lang}.json`);
    tables[lang] = await response.json();
  }
  return tables[lang];
}

export function chooseLanguage() {
  const kept = localStorage.getItem("tt_lang");
  if (LANGUAGES.includes(kept)) return kept;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

export async function setLanguage(lang, remember = true) {
  await Promise.all([load("en"), load(lang)]);
  if (remember) localStorage.setItem("tt_lang", lang);
  document.documentElement.lang = lang;
  update({ lang });
  document.title = t("ui.title");
}

// A person's name inside a sentence, isolated (FSI … PDI: what <bdi> is to an element), so that
// a name in a right-to-left script keeps the words and numbers around it in their order.
export function isolate(name) {
  return `\u2068${name}\u2069`;
}

// The parameters that are a person's name (a seat's, as the table names it).
const NAME_PARAMS = new Set(["who", "whom", "name", "seat", "owner"]);

// Each language's plural rules (CLDR, through Intl): English and Hungarian say "one" and
// "other", Russian and Ukrainian "one", "few", "many" and "other" (1 карта, 3 карты, 5 карт).
const pluralRules = {};

function pluralForm(lang, forms, count) {
  const rules = (pluralRules[lang] ??= new Intl.PluralRules(lang));
  return forms[rules.select(Number(count))] ?? forms.other;
}

// The string of `key` in the page's language, with {name} replaced by params.name. A string
// that counts something is an object of plural forms in the tables; params.count chooses one.
export function t(key, params = {}) {
  const own = tables[state.lang]?.[key];
  const found = own ?? tables.en?.[key] ?? key;
  const text = typeof found === "object" ? pluralForm(own === undefined ? "en" : state.lang, found, params.count) : found;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    return NAME_PARAMS.has(name) ? isolate(String(params[name])) : String(params[name]);
  });
}

// A list of names joined as the language joins them: "Anna, Bence and Csilla", each isolated.
export function joinNames(names) {
  const each = names.map(isolate);
  if (each.length <= 1) return each.join("");
  return t("ui.list_and", { first: each.slice(0, -1).join(", "), last: each[each.length - 1] });
}
