// @ts-check
// The traces page: recent tool calls, newest first, filtered by tool and outcome; each opens to
// its parameters and its result or error.
import { api, ApiError, errorMessage } from './api.js';
import { h, pretty, replace, setText, translate } from './dom.js';
import { formatDuration, formatTime } from './i18n.js';
import { outcomeText, richResult } from './tool-call-card.js';

/** @import { Trace as CallTrace } from './tool-call-card.js' */
/** A trace, and whether a person ran it by hand on the tools page (in no session). @typedef {CallTrace & { byHand?: true }} Trace */

const LIMIT = 200;

/** @param {HTMLElement} root */
export function tracesPage(root) {
  const toolSelect = h('select', { id: 'trace-tool', name: 'tool' }, h('option', { value: '', i18n: 'allTools' }));
  const outcomeSelect = h(
    'select',
    { id: 'trace-outcome', name: 'outcome' },
    h('option', { value: '', i18n: 'allOutcomes' }),
    h('option', { value: 'success', i18n: 'succeeded' }),
    h('option', { value: 'failure', i18n: 'failed' }),
  );
  const refreshButton = h('button', { type: 'submit', i18n: 'refresh' });
  const filters = h(
    'form',
    { class: 'filters', role: 'search', i18nAria: 'traceFilters' },
    h('label', { for: 'trace-tool' }, h('span', { i18n: 'tool' }), toolSelect),
    h('label', { for: 'trace-outcome' }, h('span', { i18n: 'outcome' }), outcomeSelect),
    refreshButton,
  );
  const count = h('p', { class: 'muted' });
  const list = h('ul', { class: 'trace-list' });
  replace(
    root,
    h('div', { class: 'page-header' }, h('div', {}, h('h1', { i18n: 'tracesTitle' }), count)),
    filters,
    list,
  );
  /** @type {Trace[]} */
  let traces = [];
  let ticket = 0;

  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    void refresh();
  });
  toolSelect.addEventListener('change', () => void refresh());
  outcomeSelect.addEventListener('change', () => void refresh());

  async function refresh() {
    const mine = ++ticket;
    const query = new URLSearchParams({ limit: String(LIMIT) });
    if (toolSelect.value !== '') query.set('tool', toolSelect.value);
    if (outcomeSelect.value !== '') query.set('outcome', outcomeSelect.value);
    try {
      const [result, tools] = await Promise.all([
        /** @type {Promise<{ traces?: Trace[] }>} */ (api(`/api/traces?${query}`)),
        /** @type {Promise<{ tools?: { name: string }[] }>} */ (api('/api/tools')).catch(() => ({ tools: [] })),
      ]);
      if (mine !== ticket) return;
      traces = result.traces ?? [];
      fillTools(tools.tools ?? []);
      render();
    } catch (error) {
      if (mine !== ticket || (error instanceof ApiError && error.status === 401)) return;
      replace(
        list,
        h('li', {
          class: 'notice error',
          role: 'alert',
          i18n: 'loadFailed',
          i18nVars: { reason: errorMessage(error) },
        }),
      );
    }
  }

  /**
   * Every tool there is, and any tool the traces name that is gone now.
   * @param {{ name: string }[]} tools
   */
  function fillTools(tools) {
    const chosen = toolSelect.value;
    const names = [
      ...new Set([
        ...tools.map((tool) => tool.name),
        ...traces.map((trace) => trace.tool),
        ...(chosen === '' ? [] : [chosen]),
      ]),
    ].sort();
    replace(
      toolSelect,
      h('option', { value: '', i18n: 'allTools' }),
      names.map((name) => h('option', { value: name, text: name })),
    );
    toolSelect.value = chosen;
  }

  function render() {
    count.hidden = traces.length === 0; // the empty state says it
    setText(count, traces.length >= LIMIT ? 'tracesCountMax' : traces.length === 1 ? 'tracesCountOne' : 'tracesCount', {
      count: traces.length,
    });
    const filtered = toolSelect.value !== '' || outcomeSelect.value !== '';
    replace(
      list,
      traces.length === 0
        ? h('li', { class: 'empty', i18n: filtered ? 'noTraces' : 'noTracesYet' })
        : traces.map(traceItem),
    );
  }

  /** @param {Trace} trace */
  function traceItem(trace) {
    const ok = trace.success === true;
    const output = outcomeText(trace);
    return h(
      'li',
      {},
      h(
        'details',
        { class: 'trace card', 'data-trace': trace.id, 'data-outcome': ok ? 'success' : 'failure' },
        h(
          'summary',
          {},
          h('span', { class: `badge ${ok ? 'ok' : 'bad'}`, i18n: ok ? 'succeeded' : 'failed' }),
          h('span', { class: 'tool-name', text: trace.tool }),
          trace.byHand
            ? h('span', { class: 'session by-hand', i18n: 'byHand' })
            : h('span', { class: 'session', text: trace.session ?? '' }),
          h('span', { class: 'when', text: formatTime(trace.startedAt) }),
          h('span', { class: 'muted duration', text: formatDuration(trace.durationMs) }),
          // A sign that the row opens, turned when it is open.
          h('span', { class: 'chevron', 'aria-hidden': 'true' }),
        ),
        h(
          'div',
          { class: 'trace-body' },
          h('div', {}, h('h4', { i18n: 'parameters' }), h('pre', { text: pretty(trace.params ?? {}) })),
          h(
            'div',
            { class: 'tool-result-box' },
            h('h4', { i18n: ok ? 'result' : 'error' }),
            h('pre', { text: output === '' ? '—' : output }),
            // A trace that keeps the result's parts and structured data shows them as the chat's card does.
            richResult(trace, output, trace.tool),
          ),
          h('p', {
            class: 'muted',
            i18n: trace.byHand ? 'traceByHand' : 'traceWhere',
            i18nVars: { session: trace.session ?? '—', when: formatTime(trace.startedAt), call: trace.callId ?? '' },
          }),
        ),
      ),
    );
  }

  return {
    show() {
      void refresh();
    },
    refresh,
    languageChanged() {
      translate(root);
      render();
    },
  };
}
