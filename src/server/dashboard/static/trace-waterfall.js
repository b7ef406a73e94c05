// @ts-check
// A turn's trace as a waterfall: a row per span (model requests with their attempts, tool calls,
// approval waits) on one time axis from the turn's start, waits hatched, the first token marked.
// Pointing at a row, tapping it or focusing it shows its attributes, and a call's kept parts and
// progress, in the panel below. Bars are placed with CSSOM (style-src 'self' allows no style attribute).
import { h, replace } from './dom.js';
import { formatBytes, formatDuration, pluralKey } from './i18n.js';
import { resultParts } from './result-parts.js';

/** @import { MessageKey } from './messages.js' */
/** @import { MessageVars } from './i18n.js' */
/** @import { ContentPart } from './result-parts.js' */
/**
 * A span as GET /api/traces/turns/:id gives it (docs/server-api.md).
 * @typedef {object} Span
 * @property {string} spanId
 * @property {string} [parentId]
 * @property {'turn' | 'routing' | 'model-request' | 'tool-call' | 'approval'} kind
 * @property {string} name
 * @property {number} startMs
 * @property {number} endMs
 * @property {'ok' | 'error'} status
 * @property {string} [errorCode]
 * @property {Record<string, string | number | boolean | string[]>} attributes
 * @property {TracePart[]} [parts]
 * @property {{ atMs: number, progress: number, total?: number, message?: string }[]} [progress]
 */
/** A part as a span keeps it: whole, or a marker of what was left out. @typedef {ContentPart & { chars?: number } | { type: 'image' | 'audio' | 'resource', mimeType?: string, uri?: string, bytes: number, omitted: true }} TracePart */
/** @typedef {{ id: string, startedAt: string, durationMs: number, stopReason: string, spans: Span[] }} TurnTraceTree */

/** What a trace keeps of a call's bytes (src/store/trace-parts.ts). */
const PART_CAP = 24 * 1024;

/** @type {Record<string, MessageKey>} */
const DECISIONS = {
  approved: 'decisionApproved',
  always: 'decisionAlways',
  denied: 'decisionDenied',
  'approval-timeout': 'decisionTimeout',
  aborted: 'decisionAborted',
};
/** @type {Record<string, MessageKey>} */
export const STOP_REASONS = {
  answer: 'stopAnswer',
  'round-limit': 'stopRoundLimit',
  'loop-stopped': 'stopLoopStopped',
  'tool-calls': 'stopToolCalls',
  error: 'stopError',
  aborted: 'stopAborted',
  timeout: 'stopTimeout',
};

/**
 * The waterfall of `trace`.
 * @param {TurnTraceTree} trace
 */
export function waterfall(trace) {
  const spans = Array.isArray(trace.spans) ? trace.spans : [];
  if (spans.length === 0) return h('p', { class: 'muted', i18n: 'turnGone' });
  const root = spans.find((span) => span.kind === 'turn');
  const origin = root?.startMs ?? Math.min(...spans.map((span) => span.startMs));
  const end = Math.max(root?.endMs ?? origin, ...spans.map((span) => span.endMs));
  const total = Math.max(end - origin, 0.1);
  const depth = depths(spans);
  const detail = h('div', { class: 'wf-detail', 'aria-live': 'polite' }, h('p', { class: 'muted', i18n: 'spanPick' }));
  /** @type {HTMLElement | null} */
  let chosen = null;
  /** @param {HTMLElement} row @param {Span} span */
  const choose = (row, span) => {
    if (chosen === row) return;
    chosen?.removeAttribute('aria-current');
    chosen = row;
    row.setAttribute('aria-current', 'true');
    replace(detail, spanDetail(span, origin));
  };
  const rows = treeOrder(spans).map((span) => {
    const row = spanRow(span, spans, origin, total, depth.get(span.spanId) ?? 0);
    const pick = () => choose(row, span);
    row.addEventListener('mouseenter', pick);
    row.addEventListener('focus', pick);
    row.addEventListener('click', pick);
    return h('li', {}, row);
  });
  return h(
    'div',
    { class: 'waterfall', 'data-turn': trace.id },
    axis(total),
    h('ol', { class: 'wf-rows', i18nAria: 'waterfallLabel' }, rows),
    legend(),
    detail,
  );
}

/**
 * The spans as a tree is read: each right under its parent (an approval under its call), siblings
 * in the order they started; a span whose parent is not in the trace comes after the rest.
 * @param {Span[]} spans
 */
function treeOrder(spans) {
  const ids = new Set(spans.map((span) => span.spanId));
  /** @type {Map<string | undefined, Span[]>} */
  const children = new Map();
  for (const span of [...spans].sort((a, b) => a.startMs - b.startMs)) {
    const parent = span.parentId !== undefined && ids.has(span.parentId) ? span.parentId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  /** @type {Span[]} */
  const ordered = [];
  /** @param {Span} span */
  const visit = (span) => {
    if (ordered.includes(span)) return;
    ordered.push(span);
    for (const child of children.get(span.spanId) ?? []) visit(child);
  };
  for (const root of children.get(undefined) ?? []) visit(root);
  return ordered;
}

/**
 * How deep each span sits under the turn (a call's approval one step more).
 * @param {Span[]} spans
 */
function depths(spans) {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  /** @type {Map<string, number>} */
  const depth = new Map();
  for (const span of spans) {
    let level = 0;
    let parent = span.parentId === undefined ? undefined : byId.get(span.parentId);
    while (parent !== undefined && level < 8) {
      level++;
      parent = parent.parentId === undefined ? undefined : byId.get(parent.parentId);
    }
    depth.set(span.spanId, level);
  }
  return depth;
}

/** @param {number} total */
function axis(total) {
  return h(
    'div',
    { class: 'wf-axis', 'aria-hidden': 'true' },
    h('span', { class: 'wf-axis-spacer' }),
    h(
      'span',
      { class: 'wf-ticks' },
      [0, 0.25, 0.5, 0.75, 1].map((share) => {
        const tick = h('span', { class: 'wf-tick', text: formatDuration(total * share) });
        tick.style.left = `${share * 100}%`;
        return tick;
      }),
    ),
  );
}

function legend() {
  /** @type {[string, MessageKey][]} */
  const items = [
    ['model', 'legendModel'],
    ['tool', 'legendTool'],
    ['wait', 'legendWait'],
    ['ttft', 'legendFirstToken'],
    ['failed', 'legendFailed'],
  ];
  return h(
    'ul',
    { class: 'wf-legend' },
    items.map(([kind, key]) =>
      h('li', {}, h('span', { class: `wf-swatch wf-swatch-${kind}`, 'aria-hidden': 'true' }), h('span', { i18n: key })),
    ),
  );
}

/**
 * One span's row: its label and its bar on the axis.
 * @param {Span} span
 * @param {Span[]} spans
 * @param {number} origin
 * @param {number} total
 * @param {number} level
 */
function spanRow(span, spans, origin, total, level) {
  const [key, vars] = spanTitle(span);
  const duration = span.endMs - span.startMs;
  const notes = spanNotes(span);
  const bar = h('span', { class: 'wf-bar' });
  place(bar, span.startMs - origin, duration, total);
  // The wait inside a bar: a retried attempt's delay, a call's approval.
  const delay = Number(span.attributes['riverse.retry_delay_ms'] ?? 0);
  if (span.kind === 'model-request' && delay > 0) bar.append(inner('wf-wait', 0, delay, duration));
  if (span.kind === 'tool-call')
    for (const wait of spans.filter((other) => other.kind === 'approval' && other.parentId === span.spanId))
      bar.append(inner('wf-wait', wait.startMs - span.startMs, wait.endMs - wait.startMs, duration));
  const ttft = Number(span.attributes['riverse.time_to_first_token_ms'] ?? Number.NaN);
  if (span.kind === 'model-request' && Number.isFinite(ttft)) {
    const mark = h('span', { class: 'wf-ttft', 'aria-hidden': 'true' });
    mark.style.left = `${Math.min(100, (ttft / Math.max(duration, 0.1)) * 100)}%`;
    bar.append(mark);
  }
  const row = h(
    'button',
    {
      type: 'button',
      class: 'wf-row',
      'data-kind': span.kind,
      'data-status': span.status,
      'data-span': span.spanId,
      ...(span.attributes['riverse.retry'] === true ? { 'data-retry': 'true' } : {}),
    },
    h(
      'span',
      { class: 'wf-label' },
      h('span', { class: 'wf-name', i18n: key, i18nVars: vars }),
      h('span', { class: 'wf-time', text: formatDuration(duration) }),
      notes.map(([note, noteVars]) => h('span', { class: 'wf-note', i18n: note, i18nVars: noteVars })),
    ),
    h('span', { class: 'wf-track' }, bar),
  );
  row.style.setProperty('--depth', String(level));
  return row;
}

/**
 * @param {HTMLElement} element
 * @param {number} start ms from the axis' start
 * @param {number} length ms
 * @param {number} total ms of the axis
 */
function place(element, start, length, total) {
  element.style.left = `${Math.max(0, Math.min(100, (start / total) * 100))}%`;
  element.style.width = `${Math.max(0, Math.min(100, (length / total) * 100))}%`;
}

/**
 * @param {string} kind
 * @param {number} start
 * @param {number} length
 * @param {number} total
 */
function inner(kind, start, length, total) {
  const part = h('span', { class: kind, 'aria-hidden': 'true' });
  place(part, start, length, Math.max(total, 0.1));
  return part;
}

/**
 * The row's name, as a message.
 * @param {Span} span
 * @returns {[MessageKey, MessageVars]}
 */
function spanTitle(span) {
  const a = span.attributes;
  switch (span.kind) {
    case 'turn':
      return ['spanTurn', {}];
    case 'routing':
      return ['spanRouting', { count: Number(a['riverse.routing.offered_count'] ?? 0) }];
    case 'model-request':
      return a['riverse.retry'] === true
        ? ['spanRetry', { request: Number(a['riverse.request'] ?? 1), attempt: Number(a['riverse.attempt'] ?? 2) }]
        : ['spanModel', { request: Number(a['riverse.request'] ?? 1) }];
    case 'tool-call':
      return ['spanTool', { tool: String(a['gen_ai.tool.name'] ?? span.name) }];
    case 'approval':
      return ['spanApproval', {}];
    default:
      return ['spanTool', { tool: span.name }];
  }
}

/**
 * What a row says beside its name: how it failed, its first token and tokens, an approval's answer.
 * @param {Span} span
 * @returns {[MessageKey, MessageVars][]}
 */
function spanNotes(span) {
  const a = span.attributes;
  /** @type {[MessageKey, MessageVars][]} */
  const notes = [];
  if (span.kind === 'approval' && typeof a['riverse.approval.decision'] === 'string') {
    const decision = DECISIONS[a['riverse.approval.decision']];
    if (decision !== undefined) notes.push([decision, {}]);
  }
  if (span.kind === 'turn' && typeof a['riverse.stop_reason'] === 'string') {
    const reason = STOP_REASONS[a['riverse.stop_reason']];
    if (reason !== undefined && a['riverse.stop_reason'] !== 'answer') notes.push([reason, {}]);
  }
  if (span.status === 'error' && span.errorCode !== undefined && span.kind !== 'approval' && span.kind !== 'turn')
    notes.push(['spanFailed', { code: span.errorCode }]);
  if (span.kind === 'model-request') {
    const ttft = a['riverse.time_to_first_token_ms'];
    if (typeof ttft === 'number') notes.push(['spanFirstToken', { time: formatDuration(ttft) }]);
    const input = a['gen_ai.usage.input_tokens'];
    const output = a['gen_ai.usage.output_tokens'];
    if (typeof input === 'number' || typeof output === 'number')
      notes.push(['spanTokens', { input: input ?? '—', output: output ?? '—' }]);
  }
  return notes;
}

/**
 * The panel of one span: when, how long, every attribute; a call's parts and progress.
 * @param {Span} span
 * @param {number} origin
 */
function spanDetail(span, origin) {
  const rows = [
    ['status', span.errorCode === undefined ? span.status : `${span.status} (${span.errorCode})`],
    ...Object.entries(span.attributes ?? {}).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') || '—' : String(value),
    ]),
  ];
  return [
    h('h4', { i18n: 'spanDetails', i18nVars: { name: span.name } }),
    h('p', {
      class: 'muted',
      i18n: 'spanAt',
      i18nVars: { start: formatDuration(span.startMs - origin), duration: formatDuration(span.endMs - span.startMs) },
    }),
    h(
      'dl',
      { class: 'wf-attributes' },
      rows.map(([name, value]) => h('div', {}, h('dt', { text: name }), h('dd', { text: value }))),
    ),
    progressList(span, origin),
    partsView(span),
  ];
}

/**
 * @param {Span} span
 * @param {number} origin
 */
function progressList(span, origin) {
  if (!Array.isArray(span.progress) || span.progress.length === 0) return null;
  return h(
    'div',
    { class: 'wf-progress' },
    h('h4', { i18n: 'spanProgress' }),
    h(
      'ol',
      {},
      span.progress.map((update) =>
        h('li', {
          i18n: 'spanProgressAt',
          i18nVars: {
            time: formatDuration(update.atMs - origin),
            progress: [
              update.total === undefined ? String(update.progress) : `${update.progress}/${update.total}`,
              update.message ?? '',
            ]
              .join(' ')
              .trim(),
          },
        }),
      ),
    ),
  );
}

/**
 * A call's parts as the chat's card shows them; what the trace left out, said.
 * @param {Span} span
 */
function partsView(span) {
  if (!Array.isArray(span.parts) || span.parts.length === 0) return null;
  const tool = String(span.attributes['gen_ai.tool.name'] ?? span.name);
  /** @type {ContentPart[]} */
  const kept = [];
  const notes = [];
  for (const part of span.parts) {
    if ('omitted' in part && part.omitted) {
      notes.push(
        h('p', {
          class: 'muted wf-omitted',
          i18n: 'partOmitted',
          i18nVars: {
            type: part.mimeType ?? part.uri ?? part.type,
            size: formatBytes(part.bytes),
            cap: formatBytes(PART_CAP),
          },
        }),
      );
      continue;
    }
    const whole = /** @type {ContentPart & { chars?: number }} */ (part);
    kept.push(whole);
    if (typeof whole.chars === 'number') {
      const length = 'text' in whole && typeof whole.text === 'string' ? whole.text.length : 0;
      notes.push(h('p', { class: 'muted', i18n: 'partCut', i18nVars: { kept: length, chars: whole.chars } }));
    }
  }
  return h('div', { class: 'wf-parts' }, h('h4', { i18n: 'spanParts' }), resultParts(kept, '', tool), notes);
}

/**
 * "2 model requests", "1 tool call": a turn's figures, each in the page's plural (a run by hand asks no model).
 * @param {{ modelRequests?: number, toolCalls?: number }} summary
 * @param {boolean} byHand
 */
export function turnFigures(summary, byHand) {
  const requests = summary.modelRequests ?? 0;
  const calls = summary.toolCalls ?? 0;
  return [
    byHand
      ? null
      : h('span', { i18n: pluralKey(requests, 'turnRequestsOne', 'turnRequests'), i18nVars: { count: requests } }),
    h('span', { i18n: pluralKey(calls, 'turnCallsOne', 'turnCalls'), i18nVars: { count: calls } }),
  ];
}
