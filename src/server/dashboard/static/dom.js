// Building the page's elements. Text always goes in as text (textContent, attributes), never as
// markup: nothing the server or a tool returns can become HTML here.
import { t } from './i18n.js';

/**
 * An element: `props` are attributes, except `class`, `text`, `i18n` (a message key, kept in
 * data-i18n so a language switch can redo it; `i18nVars` for its placeholders), `on<event>`
 * listeners, and `checked`/`disabled`/`value`/`selected`, set as properties.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  let value;
  for (const [key, prop] of Object.entries(props)) {
    if (prop === undefined || prop === null || prop === false) continue;
    if (key === 'class') el.className = prop;
    else if (key === 'text') el.textContent = String(prop);
    else if (key === 'i18n') el.dataset.i18n = prop;
    else if (key === 'i18nVars') el.dataset.i18nVars = JSON.stringify(prop);
    else if (key === 'i18nAria') el.dataset.i18nAriaLabel = prop;
    else if (key === 'i18nPlaceholder') el.dataset.i18nPlaceholder = prop;
    else if (key === 'i18nTitle') el.dataset.i18nTitle = prop;
    else if (key === 'value') value = prop;
    else if (key === 'checked' || key === 'disabled' || key === 'selected' || key === 'open') el[key] = Boolean(prop);
    else if (key.startsWith('on') && typeof prop === 'function') el.addEventListener(key.slice(2), prop);
    else el.setAttribute(key, prop === true ? '' : String(prop));
  }
  append(el, children);
  if (value !== undefined) el.value = String(value);
  translate(el);
  return el;
}

/** Appends nodes and strings (as text); arrays are flattened, empty values skipped. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces an element's children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** Sets the translated text and attributes of an element and every element in it. */
export function translate(root) {
  const nodes = root.querySelectorAll ? [root, ...root.querySelectorAll('[data-i18n],[data-i18n-aria-label],[data-i18n-placeholder],[data-i18n-title]')] : [];
  for (const el of nodes) {
    if (!(el instanceof HTMLElement)) continue;
    const vars = el.dataset.i18nVars ? JSON.parse(el.dataset.i18nVars) : {};
    if (el.dataset.i18n) el.textContent = t(el.dataset.i18n, vars);
    if (el.dataset.i18nAriaLabel) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel, vars));
    if (el.dataset.i18nPlaceholder) el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder, vars));
    if (el.dataset.i18nTitle) el.setAttribute('title', t(el.dataset.i18nTitle, vars));
  }
}

/** Changes an element's message key (and placeholders), and translates it. */
export function setText(el, key, vars) {
  el.dataset.i18n = key;
  if (vars === undefined) delete el.dataset.i18nVars;
  else el.dataset.i18nVars = JSON.stringify(vars);
  translate(el);
}

/** JSON as people read it: strings as they are, everything else indented. */
export function pretty(value) {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

let toastTimer = 0;
/** A short message at the corner of the page (read out by screen readers). */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = h('div', { class: `toast ${kind}`, text: message });
  box.append(item);
  while (box.children.length > 3) box.firstElementChild?.remove();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.replaceChildren(), 5000);
}

const ICONS = {
  pencil: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
};

/** A small line icon (decorative: the button it is in carries the label). */
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
