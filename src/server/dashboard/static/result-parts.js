// @ts-check
// A result's content parts as a person takes them: an image sized to the card (click: full size),
// a sound to play, a resource to download (a text one shown collapsed too). Text parts are the
// result's text already (shown above them), unless the tool said something else in `data`.
import { h } from './dom.js';
import { formatBytes } from './i18n.js';

/**
 * A part as the /api events and /api/tools/:name/run give it (bytes as base64 text, MCP's shape).
 * @typedef {{ type: 'text', text: string }
 *   | { type: 'image' | 'audio', data: string, mimeType: string }
 *   | { type: 'resource', uri: string, mimeType?: string, text?: string, blob?: string }} ContentPart
 */

/**
 * The parts worth showing beside the result's text, as elements (none: null).
 * @param {readonly ContentPart[] | undefined} content
 * @param {string} text the result's text as shown
 * @param {string} tool whose result it is (said in the images' and sounds' labels)
 */
export function resultParts(content, text, tool) {
  if (!Array.isArray(content) || content.length === 0) return null;
  const items = [];
  for (const part of content) {
    const item = partElement(part, text, tool);
    if (item !== null) items.push(item);
  }
  return items.length === 0 ? null : h('div', { class: 'result-parts' }, items);
}

/**
 * Whether the parts hold something to see or hear (the card opens for them by itself).
 * @param {readonly ContentPart[] | undefined} content
 */
export function hasMedia(content) {
  return Array.isArray(content) && content.some((part) => part?.type !== 'text');
}

/**
 * @param {ContentPart} part
 * @param {string} text
 * @param {string} tool
 */
function partElement(part, text, tool) {
  switch (part?.type) {
    case 'text':
      return typeof part.text === 'string' && part.text !== '' && !text.includes(part.text)
        ? h('pre', { class: 'part-text', text: part.text })
        : null;
    case 'image':
      return image(part.data, part.mimeType, tool);
    case 'audio': {
      const vars = { tool, type: part.mimeType, size: formatBytes(base64Bytes(part.data)) };
      return h(
        'figure',
        { class: 'part-audio' },
        h('audio', {
          controls: true,
          preload: 'metadata',
          src: dataUrl(part.mimeType, part.data),
          i18nAria: 'partAudio',
          i18nVars: vars,
        }),
        h('figcaption', { class: 'muted', i18n: 'partAudio', i18nVars: vars }),
      );
    }
    case 'resource':
      return resource(part);
    default:
      return null;
  }
}

/**
 * The image at the card's width at most; a click shows it at its own size over the page.
 * @param {string} data base64
 * @param {string} mimeType
 * @param {string} tool
 */
function image(data, mimeType, tool) {
  const vars = { tool, type: mimeType, size: formatBytes(base64Bytes(data)) };
  const src = dataUrl(mimeType, data);
  const picture = h('img', { src, i18nAria: 'partImage', i18nVars: vars });
  const open = h(
    'button',
    { type: 'button', class: 'part-image-open', i18nTitle: 'partImageOpen', onclick: () => showFullSize(src, vars) },
    picture,
  );
  return h(
    'figure',
    { class: 'part-image' },
    open,
    h('figcaption', { class: 'muted', i18n: 'partImage', i18nVars: vars }),
  );
}

/**
 * The image at full size in a dialog over the page (scrolls when larger than the window); a click
 * anywhere or Escape closes it.
 * @param {string} src
 * @param {Record<string, unknown>} vars
 */
function showFullSize(src, vars) {
  const picture = h('img', { src, i18nAria: 'partImage', i18nVars: vars });
  const dialog = h(
    'dialog',
    { class: 'image-viewer', i18nAria: 'partImage', i18nVars: vars },
    h('button', { type: 'button', class: 'image-viewer-close', i18n: 'partImageClose' }),
    picture,
  );
  dialog.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/**
 * A resource: a download link named after its URI; a text one also shown, folded.
 * @param {Extract<ContentPart, { type: 'resource' }>} part
 */
function resource(part) {
  const name = fileName(part.uri);
  const isText = typeof part.text === 'string';
  const mimeType = part.mimeType ?? (isText ? 'text/plain' : 'application/octet-stream');
  const size = isText ? new TextEncoder().encode(part.text).length : base64Bytes(part.blob ?? '');
  const href = isText
    ? `data:${safeType(mimeType)};charset=utf-8,${encodeURIComponent(part.text ?? '')}`
    : dataUrl(mimeType, part.blob ?? '');
  const vars = { name, size: formatBytes(size) };
  const link = h('a', {
    class: 'part-download',
    href,
    download: name,
    title: part.uri,
    i18n: 'partDownload',
    i18nVars: vars,
  });
  return h(
    'div',
    { class: 'part-resource' },
    link,
    isText
      ? h(
          'details',
          { class: 'part-resource-text' },
          h('summary', { i18n: 'partShowText', i18nVars: vars }),
          h('pre', { text: part.text }),
        )
      : null,
  );
}

/**
 * The file name a URI ends with (`file:///a/b/report.csv` → `report.csv`), else its host, else "resource".
 * @param {string} uri
 */
function fileName(uri) {
  const text = String(uri ?? '');
  const path = text.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/^[a-z][\w+.-]*:/i, '');
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // a stray % stays as it is
  }
  // Nothing a file system refuses: separators and control characters become "_".
  name = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return name === '' || name === '.' || name === '..' ? 'resource' : name.slice(0, 120);
}

/**
 * @param {string} mimeType
 * @param {string} data base64
 */
function dataUrl(mimeType, data) {
  return `data:${safeType(mimeType)};base64,${data}`;
}

/**
 * A type as a data: URL may carry it: token/token; anything else (a `;`, a `,`) would change the
 * URL's meaning, and becomes application/octet-stream.
 * @param {string} mimeType
 */
function safeType(mimeType) {
  return /^[\w.+-]+\/[\w.+-]+$/.test(String(mimeType)) ? mimeType : 'application/octet-stream';
}

/** @param {string} data base64: the bytes it stands for */
function base64Bytes(data) {
  const text = String(data ?? '');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}
