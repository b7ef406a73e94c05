// @ts-check
// Building the page's elements. Text always goes in as text (textContent, attributes), never as
// markup: nothing the server or a tool returns can become HTML here.
import { t } from './i18n.js';

/** @import { MessageKey } from './messages.js' */
/** @import { MessageVars } from './i18n.js' */

/**
 * The `on<event>` props: listeners, given the event's own type.
 * @typedef {{ [K in keyof HTMLElementEventMap as `on${K}`]?: (event: HTMLElementEventMap[K]) => unknown }} Listeners
 */
/**
 * @typedef {object} TextProps
 * @property {unknown} [class]
 * @property {unknown} [text]
 * @property {MessageKey} [i18n]
 * @property {MessageVars} [i18nVars]
 * @property {MessageKey} [i18nAria]
 * @property {MessageKey} [i18nPlaceholder]
 * @property {MessageKey} [i18nTitle]
 */
/** What `h()` takes: the props above, and any attribute. @typedef {Listeners & TextProps & Record<string, unknown>} Props */
/**
 * What `append()` takes: nodes, text, arrays of them; empty values are skipped.
 * @typedef {Node | string | number | boolean | null | undefined | readonly Child[]} Child
 */

/**
 * An element: `props` are attributes, except `class`, `text`, `i18n` (a message key, kept in
 * data-i18n so a language switch can redo it; `i18nVars` for its placeholders), `on<event>`
 * listeners, and `checked`/`disabled`/`value`/`selected`, set as properties.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  let value;
  for (const [key, prop] of Object.entries(props)) {
    if (prop === undefined || prop === null || prop === false) continue;
    if (key === 'class') el.className = String(prop);
    else if (key === 'text') el.textContent = String(prop);
    else if (key === 'i18n') el.dataset.i18n = String(prop);
    else if (key === 'i18nVars') el.dataset.i18nVars = JSON.stringify(prop);
    else if (key === 'i18nAria') el.dataset.i18nAriaLabel = String(prop);
    else if (key === 'i18nPlaceholder') el.dataset.i18nPlaceholder = String(prop);
    else if (key === 'i18nTitle') el.dataset.i18nTitle = String(prop);
    else if (key === 'value') value = prop;
    else if (key === 'checked' || key === 'disabled' || key === 'selected' || key === 'open')
      Object.assign(el, { [key]: Boolean(prop) });
    else if (key.startsWith('on') && typeof prop === 'function')
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (prop));
    else el.setAttribute(key, prop === true ? '' : String(prop));
  }
  append(el, children);
  if (value !== undefined) Object.assign(el, { value: String(value) }); // inputs, selects, options: after their children
  translate(el);
  return el;
}

/**
 * Appends nodes and strings (as text); arrays are flattened, empty values skipped.
 * @template {ParentNode} P
 * @param {P} parent
 * @param {readonly Child[]} children
 * @returns {P}
 */
function append(parent, children) {
  for (const child of /** @type {unknown[]} */ (children).flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Replaces an element's children.
 * @template {ParentNode} P
 * @param {P} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/**
 * Sets the translated text and attributes of an element and every element in it.
 * @param {Element} root
 */
export function translate(root) {
  const nodes = root.querySelectorAll
    ? [root, ...root.querySelectorAll('[data-i18n],[data-i18n-aria-label],[data-i18n-placeholder],[data-i18n-title]')]
    : [];
  for (const el of nodes) {
    if (!(el instanceof HTMLElement)) continue;
    const vars = el.dataset.i18nVars ? JSON.parse(el.dataset.i18nVars) : {};
    // Keys put there by h() and setText(), typed there; t() says so if one is not in the catalog.
    const { i18n, i18nAriaLabel, i18nPlaceholder, i18nTitle } = /** @type {Partial<Record<string, MessageKey>>} */ (
      el.dataset
    );
    if (i18n) el.textContent = t(i18n, vars);
    if (i18nAriaLabel) el.setAttribute('aria-label', t(i18nAriaLabel, vars));
    if (i18nPlaceholder) el.setAttribute('placeholder', t(i18nPlaceholder, vars));
    if (i18nTitle) el.setAttribute('title', t(i18nTitle, vars));
  }
}

/**
 * Changes an element's message key (and placeholders), and translates it.
 * @param {HTMLElement} el
 * @param {MessageKey} key
 * @param {MessageVars} [vars]
 */
export function setText(el, key, vars) {
  el.dataset.i18n = key;
  if (vars === undefined) delete el.dataset.i18nVars;
  else el.dataset.i18nVars = JSON.stringify(vars);
  translate(el);
}

/**
 * JSON as people read it: strings as they are, everything else indented.
 * @param {unknown} value
 */
export function pretty(value) {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

let toastTimer = 0;
/**
 * A short message at the corner of the page (read out by screen readers). Given as a message key, so
 * that a language switch while it shows redoes it too; a text from the server is shown as it is.
 * @param {MessageKey | { text: string }} message
 * @param {MessageVars} [vars]
 * @param {'info' | 'error'} [kind]
 */
export function toast(message, vars = {}, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item =
    typeof message === 'string'
      ? h('div', { class: `toast ${kind}`, i18n: message, i18nVars: vars })
      : h('div', { class: `toast ${kind}`, text: message.text });
  box.append(item);
  while (box.children.length > 3) box.firstElementChild?.remove();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.replaceChildren(), 5000);
}

const ICONS = {
  pencil: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
};

/**
 * A small line icon (decorative: the button it is in carries the label).
 * @param {keyof typeof ICONS} name
 */
export function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon-svg');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * The notice a page shows where a list could not be loaded: "Could not load: <why>", as an alert.
 * @param {'p' | 'li'} tag
 * @param {unknown} error
 */
export function loadFailedNotice(tag, error) {
  return h(tag, {
    class: 'notice error',
    role: 'alert',
    i18n: 'loadFailed',
    i18nVars: { reason: error instanceof Error ? error.message : String(error) },
  });
}
