// @ts-check
// A running call's reports in its card: a progress bar (filled to progress/total, or moving without
// a total) with the tool's message, and its log lines, coloured by level. The box shows the last
// few lines; at most MAX_LINES are kept, so a tool that floods its log cannot grow the page.
import { h, setText } from './dom.js';
import { pluralKey } from './i18n.js';

/** @import { MessageKey } from './messages.js' */
/**
 * The `tool-progress` and `tool-log` chat events (docs/server-api.md).
 * @typedef {{ progress: number, total?: number, message?: string }} ProgressReport
 * @typedef {{ level: string, message: string }} LogLine
 */

/** Log lines kept in the card; the oldest go first. */
const MAX_LINES = 200;
/** @type {Record<string, MessageKey>} MCP's levels (RFC 5424), as said */
const LEVELS = {
  debug: 'logDebug',
  info: 'logInfo',
  notice: 'logNotice',
  warning: 'logWarning',
  error: 'logError',
  critical: 'logCritical',
  alert: 'logAlert',
  emergency: 'logEmergency',
};

/**
 * One log line as a list item: its level (in the page's language) and its text; the tool card's and a task's alike.
 * @param {LogLine} line
 */
export function logLineItem(line) {
  const level = Object.hasOwn(LEVELS, line.level) ? line.level : 'info';
  return h(
    'li',
    { class: `log-line log-${level}`, 'data-level': level },
    h('span', { class: 'log-level', i18n: /** @type {MessageKey} */ (LEVELS[level]) }),
    h('span', { class: 'log-text', text: String(line.message ?? '') }),
  );
}

/** @param {string} tool the call's tool (the bar's label says it) */
export function callProgress(tool) {
  const bar = h('progress', { class: 'call-progress-bar', i18nAria: 'progressLabel', i18nVars: { tool } });
  const count = h('span', { class: 'call-progress-count' });
  const message = h('span', { class: 'call-progress-message' });
  const progressRow = h(
    'div',
    { class: 'call-progress', hidden: true },
    bar,
    h('div', { class: 'call-progress-text' }, count, message),
  );
  const dropped = h('li', { class: 'log-dropped muted', hidden: true });
  const lines = h('ol', { class: 'call-log-lines', i18nAria: 'logTitle' }, dropped);
  // Not a heading: the card's headings are its parameters and its result.
  const logBox = h(
    'div',
    { class: 'call-log', hidden: true },
    h('div', { class: 'call-log-title', i18n: 'logTitle' }),
    lines,
  );
  const element = h('div', { class: 'call-live' }, progressRow, logBox);
  let droppedCount = 0;

  return {
    element,
    /** @param {ProgressReport} report */
    progress(report) {
      progressRow.hidden = false;
      const progress = Number(report.progress);
      const total = report.total === undefined ? Number.NaN : Number(report.total);
      if (Number.isFinite(total) && total > 0) {
        bar.max = total;
        bar.value = Math.min(Math.max(progress, 0), total);
        setText(count, 'progressCount', { progress: formatNumber(progress), total: formatNumber(total) });
      } else {
        bar.removeAttribute('value'); // indeterminate: it moves, not filling
        setText(count, 'progressSoFar', { progress: formatNumber(progress) });
      }
      message.textContent = typeof report.message === 'string' ? report.message : '';
    },
    /** @param {LogLine} line */
    log(line) {
      logBox.hidden = false;
      const atEnd = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
      lines.append(logLineItem(line));
      while (lines.children.length > MAX_LINES + 1) {
        dropped.nextElementSibling?.remove();
        droppedCount += 1;
      }
      if (droppedCount > 0) {
        dropped.hidden = false;
        setText(dropped, pluralKey(droppedCount, 'logDroppedOne', 'logDropped'), { count: droppedCount });
      }
      if (atEnd) lines.scrollTop = lines.scrollHeight; // follow the log unless the person scrolled back
    },
    /** The call ended: the bar goes (the result says how it ended); the log stays to be read. */
    end() {
      progressRow.hidden = true;
    },
  };
}

/** @param {number} value */
function formatNumber(value) {
  return Number.isFinite(value) ? new Intl.NumberFormat(document.documentElement.lang || undefined).format(value) : '?';
}
