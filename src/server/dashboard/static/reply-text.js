// @ts-check
// A reply as people expect to read it: fenced code as code blocks, `inline code`, **bold** and
// web links; everything else stays text (line breaks kept by the stylesheet). Built as elements,
// never as HTML. A fence still open (a reply streaming in) runs to the end.
import { h } from './dom.js';

/** @typedef {{ type: 'text' | 'code', text: string, lang?: string }} Block */
/** @typedef {{ type: 'text' | 'code' | 'strong' | 'link', text: string }} Piece */

/**
 * The blocks of a reply: `{ type: 'text' | 'code', text, lang? }`.
 * @param {string} text
 * @public dashboard-static.test.ts reads it by the file's path
 */
export function replyBlocks(text) {
  /** @type {Block[]} */
  const blocks = [];
  /** @type {string[]} */
  let lines = [];
  /** @type {string | null} */
  let code = null; // the open fence's language, while in one
  /** @type {(type: Block['type'], extra?: { lang?: string }) => void} */
  const flush = (type, extra = {}) => {
    if (lines.length > 0 || type === 'code') blocks.push({ type, text: lines.join('\n'), ...extra });
    lines = [];
  };
  for (const line of String(text).split('\n')) {
    const fence = /^\s*```\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence !== null && code === null) {
      flush('text');
      code = fence[1] ?? '';
    } else if (fence !== null && code !== null && fence[1] === '') {
      flush('code', { lang: code });
      code = null;
    } else lines.push(line);
  }
  if (code !== null) flush('code', { lang: code });
  else flush('text');
  return blocks;
}

/**
 * The pieces of a line of text: `{ type: 'text' | 'code' | 'strong' | 'link', text }`.
 * @param {string} text
 * @public dashboard-static.test.ts reads it by the file's path
 */
export function inlinePieces(text) {
  /** @type {Piece[]} */
  const pieces = [];
  const pattern = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|(https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]])/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) pieces.push({ type: 'text', text: text.slice(at, match.index) });
    if (match[1] !== undefined) pieces.push({ type: 'code', text: match[1] });
    else if (match[2] !== undefined) pieces.push({ type: 'strong', text: match[2] });
    else pieces.push({ type: 'link', text: match[3] ?? '' });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ type: 'text', text: text.slice(at) });
  return pieces;
}

/**
 * Puts `text` into `element` as a reply.
 * @param {HTMLElement} element
 * @param {string} text
 */
export function renderReply(element, text) {
  element.replaceChildren(
    ...replyBlocks(text).map((block) =>
      block.type === 'code'
        ? h('pre', { class: 'reply-code', 'data-lang': block.lang || undefined }, h('code', { text: block.text }))
        : h('span', {}, inlinePieces(block.text).map(inlineElement)),
    ),
  );
}

/** @param {Piece} piece */
function inlineElement(piece) {
  switch (piece.type) {
    case 'code':
      return h('code', { text: piece.text });
    case 'strong':
      return h('strong', { text: piece.text });
    case 'link':
      return h('a', { href: piece.text, target: '_blank', rel: 'noopener noreferrer', text: piece.text });
    default:
      return piece.text;
  }
}
