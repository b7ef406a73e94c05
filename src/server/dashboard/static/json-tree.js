// @ts-check
// A tool's `structured` result as a tree to unfold: keys and values, objects and arrays as
// <details>. The first levels are open; past a few items the rest is folded behind "N more", and
// what is folded is built only when it is opened, so a large or deep value costs nothing until read.
import { h } from './dom.js';
import { pluralKey } from './i18n.js';

/** Levels open at first. */
const OPEN_DEPTH = 2;
/** Items of an object or array shown before the rest is folded. */
const SHOWN = 8;
/** Items a "N more" shows when opened (then "N more" again). */
const BATCH = 50;
/** Characters of a string shown in full; a longer one is cut, and whole in its tooltip. */
const STRING_CHARS = 400;

/**
 * The tree of `value`, any JSON.
 * @param {unknown} value
 */
export function jsonTree(value) {
  return h('div', { class: 'json-tree' }, node(undefined, value, 0));
}

/**
 * One entry: `key: value` for a plain value, a <details> for an object or array.
 * @param {string | undefined} key
 * @param {unknown} value
 * @param {number} depth
 * @returns {HTMLElement}
 */
function node(key, value, depth) {
  const label = key === undefined ? null : h('span', { class: 'json-key', text: key });
  if (value === null || typeof value !== 'object') return h('div', { class: 'json-leaf' }, label, leaf(value));
  const entries = Array.isArray(value)
    ? value.map((item, index) => /** @type {[string, unknown]} */ ([String(index), item]))
    : Object.entries(value);
  const count = entries.length;
  const summary = h(
    'summary',
    {},
    label,
    h('span', { class: 'json-brace', text: Array.isArray(value) ? '[ ]' : '{ }' }),
    h('span', {
      class: 'json-count muted',
      i18n: Array.isArray(value)
        ? pluralKey(count, 'treeItemsOne', 'treeItems')
        : pluralKey(count, 'treeKeysOne', 'treeKeys'),
      i18nVars: { count },
    }),
  );
  const details = h('details', { class: 'json-node', open: depth < OPEN_DEPTH && count > 0 }, summary);
  const body = h('div', { class: 'json-children' });
  details.append(body);
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    for (const [childKey, child] of entries.slice(0, SHOWN)) body.append(node(childKey, child, depth + 1));
    if (count > SHOWN) body.append(rest(entries.slice(SHOWN), depth + 1));
  };
  if (details.open) build();
  else details.addEventListener('toggle', build);
  return details;
}

/**
 * The items past the first few, folded; opened, they are shown a batch at a time the same way.
 * @param {[string, unknown][]} entries
 * @param {number} depth
 */
function rest(entries, depth) {
  const details = h(
    'details',
    { class: 'json-more' },
    h('summary', { class: 'muted', i18n: 'treeMore', i18nVars: { count: entries.length } }),
  );
  details.addEventListener(
    'toggle',
    () => {
      for (const [key, value] of entries.slice(0, BATCH)) details.append(node(key, value, depth));
      if (entries.length > BATCH) details.append(rest(entries.slice(BATCH), depth));
    },
    { once: true },
  );
  return details;
}

/** @param {unknown} value a string, number, boolean or null */
function leaf(value) {
  if (typeof value === 'string') {
    const cut = value.length > STRING_CHARS;
    return h('span', {
      class: 'json-string',
      text: JSON.stringify(cut ? `${value.slice(0, STRING_CHARS)}…` : value),
      title: cut ? value.slice(0, 20_000) : undefined,
    });
  }
  return h('span', { class: value === null ? 'json-null' : `json-${typeof value}`, text: String(value) });
}
