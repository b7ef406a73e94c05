// @ts-check
// One tool call as a card: the tool, its parameters, and its result or error with the time it
// took; a spinner, progress and log lines while it runs; a result's pictures, sounds, files and
// structured data under its text. Chat and the traces page both show calls this way.
import { callProgress } from './call-progress.js';
import { h, pretty, replace, setText } from './dom.js';
import { formatDuration, t } from './i18n.js';
import { jsonTree } from './json-tree.js';
import { hasMedia, resultParts } from './result-parts.js';

/** @import { MessageKey } from './messages.js' */
/** @import { ContentPart } from './result-parts.js' */
/** @import { LogLine, ProgressReport } from './call-progress.js' */

/**
 * How a call ended, as a `tool-result` chat event, a trace or a run by hand says it.
 * @typedef {object} CallOutcome
 * @property {boolean} [success]
 * @property {unknown} [data]
 * @property {string} [error]
 * @property {string} [code]
 * @property {string} [tool]
 * @property {unknown} [params]
 * @property {number} [durationMs]
 * @property {ContentPart[]} [content] the parts, bytes as base64
 * @property {unknown} [structured] any JSON
 * @property {string} [taskId] the call runs on as this task (its result comes into the chat later)
 */
/**
 * A call as it ran, as GET /api/traces gives it (newest first).
 * @typedef {CallOutcome & {
 *   id: number, session: string, sessionId: string, turnId: string, callId: string, tool: string, startedAt: string
 * }} Trace
 */
/** @typedef {ReturnType<typeof toolCallCard>} ToolCallCard */

/**
 * The card of a call: its tool (`…` while the model is still naming it) and its id, when known.
 * @param {{ tool?: string, callId?: string }} call
 */
export function toolCallCard({ tool, callId }) {
  const status = h('span', { class: 'spinner', role: 'img', i18nAria: 'running' });
  const name = h('span', { class: 'tool-name', text: tool ?? '…' });
  const preview = h('span', { class: 'preview', i18n: 'preparingCall' });
  const duration = h('span', { class: 'duration' });
  const paramsBlock = h('pre', { class: 'tool-params', text: '…' });
  const resultHead = h('h4', { i18n: 'result' });
  const resultBlock = h('pre', { class: 'tool-result', i18n: 'stillRunning' });
  const extras = h('div', { class: 'tool-result-extras' }); // parts and structured data, once the result is in
  let live = callProgress(tool ?? '…');
  const element = h(
    'details',
    { class: 'tool-card', 'data-state': 'running', 'data-call-id': callId },
    h('summary', {}, status, name, preview, duration),
    h(
      'div',
      { class: 'tool-card-body' },
      h('div', {}, h('h4', { i18n: 'parameters' }), paramsBlock),
      live.element,
      h('div', { class: 'tool-result-box' }, resultHead, resultBlock, extras),
    ),
  );
  // Opened by itself for something to watch or see, unless the person opened or closed it already.
  let touched = false;
  element.querySelector('summary')?.addEventListener('click', () => {
    touched = true;
  });
  const reveal = () => {
    if (!touched) element.open = true;
  };
  let started = 0;
  let timer = 0;
  const run = () => {
    element.dataset.state = 'running';
    spin(status);
    setText(preview, 'runningCall');
    setText(resultBlock, 'stillRunning');
    started = performance.now();
    clearInterval(timer);
    timer = setInterval(() => {
      duration.textContent = formatDuration(performance.now() - started);
    }, 250);
  };

  return {
    element,
    get callId() {
      return element.dataset.callId;
    },
    get tool() {
      return name.textContent;
    },
    /**
     * The model has sent the whole call: it runs now.
     * @param {{ callId?: string, tool?: string, params?: unknown }} call
     */
    start(call) {
      if (call.callId !== undefined) element.dataset.callId = call.callId;
      if (call.tool !== undefined && call.tool !== name.textContent) {
        name.textContent = call.tool;
        const next = callProgress(call.tool);
        live.element.replaceWith(next.element);
        live = next;
      }
      paramsBlock.textContent = pretty(call.params ?? {});
      run();
    },
    /** It waits for the person's approval: not running, and the wait is not its time. */
    awaitApproval() {
      if (element.dataset.state !== 'running') return;
      clearInterval(timer);
      element.dataset.state = 'waiting';
      settle(status, 'muted', 'waitingBadge');
      setText(preview, 'waitingForApproval');
      setText(resultBlock, 'waitingForApproval');
      duration.textContent = '';
    },
    /** The tool asked the person something: it still runs (its time counts), and waits for their answer. */
    awaitAnswer() {
      if (element.dataset.state === 'running') setText(preview, 'waitingForAnswer');
    },
    /** The question ended (answered, declined, timed out): back to running. */
    answered() {
      if (element.dataset.state === 'running') setText(preview, 'runningCall');
    },
    /** Approved: it runs from now on. */
    resume() {
      if (element.dataset.state !== 'waiting') return;
      run();
    },
    /** @param {ProgressReport} report a `tool-progress` event */
    progress(report) {
      if (element.dataset.state !== 'running') return;
      live.progress(report);
      reveal();
    },
    /** @param {LogLine} line a `tool-log` event */
    log(line) {
      live.log(line);
      reveal();
    },
    /** @param {CallOutcome} result */
    finish(result) {
      clearInterval(timer);
      live.end();
      if (result.tool !== undefined) name.textContent = result.tool;
      if (result.params !== undefined) paramsBlock.textContent = pretty(result.params);
      const ok = result.success === true;
      element.dataset.state = ok ? 'success' : 'failure';
      if (result.taskId !== undefined) element.dataset.state = 'task';
      if (result.taskId !== undefined) settle(status, 'warn', 'callBecameTask');
      else settle(status, ok ? 'ok' : 'bad', ok ? 'succeeded' : 'failed');
      duration.textContent = result.durationMs === undefined ? '' : formatDuration(result.durationMs);
      const text = outcomeText(result);
      delete preview.dataset.i18n;
      preview.textContent = text.replace(/\s+/g, ' ').slice(0, 160);
      setText(resultHead, ok ? 'result' : 'error');
      delete resultBlock.dataset.i18n;
      resultBlock.textContent = text === '' ? '—' : text;
      resultBlock.classList.toggle('error', !ok);
      replace(extras, richResult(result, text, name.textContent ?? ''));
      if (hasMedia(result.content)) reveal();
    },
    /** The turn ended before the call's result came (cancelled, or the connection broke). */
    abandon() {
      if (element.dataset.state !== 'running' && element.dataset.state !== 'waiting') return;
      clearInterval(timer);
      live.end();
      element.dataset.state = 'abandoned';
      settle(status, 'muted', 'notFinished');
      setText(preview, 'noResult');
      setText(resultBlock, 'noResult');
    },
  };
}

/**
 * The spinner becomes a badge saying how the call ended.
 * @param {HTMLElement} status
 * @param {'ok' | 'bad' | 'muted' | 'warn'} kind
 * @param {MessageKey} key
 */
function settle(status, kind, key) {
  status.className = `badge ${kind}`;
  status.removeAttribute('role');
  status.removeAttribute('aria-label');
  delete status.dataset.i18nAriaLabel;
  setText(status, key);
}

/** @param {HTMLElement} status back to a spinner (a call that waited runs now) */
function spin(status) {
  status.className = 'spinner';
  status.textContent = '';
  delete status.dataset.i18n;
  status.setAttribute('role', 'img');
  status.dataset.i18nAriaLabel = 'running';
  status.setAttribute('aria-label', t('running'));
}

/**
 * A result's parts and structured data, as elements (what the text above does not say).
 * @param {CallOutcome} result
 * @param {string} text the result's text as shown
 * @param {string} tool
 */
export function richResult(result, text, tool) {
  return [
    resultParts(result.content, text, tool),
    result.structured === undefined
      ? null
      : h('div', { class: 'structured' }, h('h4', { i18n: 'structuredData' }), jsonTree(result.structured)),
  ];
}

/**
 * What a call gave back, as shown: its data, or its error with the error's code.
 * @param {CallOutcome} result
 */
export function outcomeText(result) {
  if (result.success === true) return pretty(result.data ?? '');
  return [result.code ? `[${result.code}] ` : '', result.error ?? result.data ?? ''].join('');
}
