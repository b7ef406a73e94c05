// A reply as people expect to read it: fenced code as code blocks, `inline code`, **bold** and
// web links; everything else stays text (line breaks kept by the stylesheet). Built as elements,
// never as HTML. A fence still open (a reply streaming in) runs to the end.
import { h } from './dom.js';

/** The blocks of a reply: `{ type: 'text' | 'code', text, lang? }`. */
export function replyBlocks(text) {
  const blocks = [];
  let lines = [];
  let code = null; // the open fence's language, while in one
  const flush = (type, extra = {}) => {
    if (lines.length > 0 || type === 'code') blocks.push({ type, text: lines.join('\n'), ...extra });
    lines = [];
  };
  for (const line of String(text).split('\n')) {
    const fence = /^\s*```\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence !== null && code === null) {
      flush('text');
      code = fence[1];
    } else if (fence !== null && code !== null && fence[1] === '') {
      flush('code', { lang: code });
      code = null;
    } else lines.push(line);
  }
  if (code !== null) flush('code', { lang: code });
  else flush('text');
  return blocks;
}

/** The pieces of a line of text: `{ type: 'text' | 'code' | 'strong' | 'link', text }`. */
export function inlinePieces(text) {
  const pieces = [];
  const pattern = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|(https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]])/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) pieces.push({ type: 'text', text: text.slice(at, match.index) });
    if (match[1] !== undefined) pieces.push({ type: 'code', text: match[1] });
    else if (match[2] !== undefined) pieces.push({ type: 'strong', text: match[2] });
    else pieces.push({ type: 'link', text: match[3] });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ type: 'text', text: text.slice(at) });
  return pieces;
}

/** Puts `text` into `element` as a reply. */
export function renderReply(element, text) {
  element.replaceChildren(
    ...replyBlocks(text).map((block) =>
      block.type === 'code'
        ? h('pre', { class: 'reply-code', 'data-lang': block.lang || undefined }, h('code', { text: block.text }))
        : h('span', {}, inlinePieces(block.text).map(inlineElement)),
    ),
  );
}

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
