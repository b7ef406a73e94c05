// @ts-check
// The page's language: the one chosen in the switch (kept in localStorage), else the first of the
// browser's languages we speak, else English. Every string the page shows comes from messages.js.
import { MESSAGES, LANGUAGES } from './messages.js';

/** @import { Language, MessageKey } from './messages.js' */
/** A message's placeholders by name. @typedef {Record<string, unknown>} MessageVars */

const STORAGE_KEY = 'riverse.language';
/** @type {Language} */
let current = 'en';
/** @type {Set<(language: Language) => void>} */
const listeners = new Set();

/**
 * Whether we speak `value`.
 * @param {unknown} value
 * @returns {value is Language}
 */
function isLanguage(value) {
  return /** @type {readonly unknown[]} */ (LANGUAGES).includes(value);
}

/**
 * The first of `preferred` (BCP 47 tags, as navigator.languages) that we speak.
 * @param {readonly string[] | undefined} preferred
 * @returns {Language}
 * @public dashboard-static.test.ts reads it by the file's path
 */
export function pickLanguage(preferred) {
  for (const tag of preferred ?? []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** @returns {Language} */
export function initialLanguage() {
  const saved = safeStorage()?.getItem(STORAGE_KEY);
  return isLanguage(saved) ? saved : pickLanguage(navigator.languages ?? [navigator.language]);
}

export function language() {
  return current;
}

/**
 * @param {string} next
 * @param {boolean} [remember]
 */
export function setLanguage(next, remember = false) {
  if (!isLanguage(next)) return;
  if (remember) safeStorage()?.setItem(STORAGE_KEY, next);
  if (next === current && document.documentElement.lang === next) return;
  current = next;
  document.documentElement.lang = next;
  for (const listener of listeners) listener(next);
}

/** @param {(language: Language) => void} listener */
export function onLanguageChange(listener) {
  listeners.add(listener);
}

/**
 * The message `key` in the current language, `{name}` placeholders filled from `vars`.
 * @param {MessageKey} key
 * @param {MessageVars} [vars]
 */
export function t(key, vars = {}) {
  const text = MESSAGES[current]?.[key] ?? MESSAGES.en[key];
  if (text === undefined) {
    console.error(`riverse dashboard: no message "${key}"`); // the browser test fails on this
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/**
 * The key for `count` in the page's language: `one` where its plural rules say "one" (English's
 * 1; never in Chinese or Japanese, whose words do not change), else `other`.
 * @param {number} count
 * @param {MessageKey} one
 * @param {MessageKey} other
 * @returns {MessageKey}
 */
export function pluralKey(count, one, other) {
  return new Intl.PluralRules(current).select(count) === 'one' ? one : other;
}

/** @param {unknown} bytes */
export function formatBytes(bytes) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = Number(bytes) || 0;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat(current, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/** @param {unknown} ms */
export function formatDuration(ms) {
  const value = Number(ms) || 0;
  return value < 1000
    ? `${Math.round(value)} ms`
    : `${new Intl.NumberFormat(current, { maximumFractionDigits: 1 }).format(value / 1000)} s`;
}

/** @param {string} iso */
export function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage refused (private mode, policy): the choice lasts the visit
  }
}
