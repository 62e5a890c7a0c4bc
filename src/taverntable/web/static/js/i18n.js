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

// The string of `key` in the page's language, with {name} replaced by params.name.
export function t(key, params = {}) {
  const text = tables[state.lang]?.[key] ?? tables.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A list of names joined as the language joins them: "Anna, Bence and Csilla".
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return t("ui.list_and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}
