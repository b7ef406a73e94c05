// @ts-check
// The traces page: the turns (each opens to its waterfall: turn-list.js), a chart per tool
// (tool-charts.js), and the recent tool calls, newest first, each opening to its parameters and its
// result or error; the filters (tool, outcome) choose in all three. `#/traces/<turn id>` opens a turn.
import { api, ApiError } from './api.js';
import { h, loadFailedNotice, pretty, replace, setText, translate } from './dom.js';
import { formatDuration, formatTime } from './i18n.js';
import { outcomeText, richResult } from './tool-call-card.js';
import { toolCharts } from './tool-charts.js';
import { TURN_LIMIT, turnList } from './turn-list.js';

/** @import { Trace as CallTrace } from './tool-call-card.js' */
/** @import { ToolStats } from './tool-charts.js' */
/** @import { TurnSummary } from './turn-list.js' */
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
  const turns = turnList();
  const charts = h('div', { class: 'charts-box' });
  replace(
    root,
    h('div', { class: 'page-header' }, h('div', {}, h('h1', { i18n: 'tracesTitle' }), count)),
    filters,
    h(
      'section',
      { class: 'traces-section', 'aria-labelledby': 'turns-title' },
      h('h2', { id: 'turns-title', i18n: 'turnsTitle' }),
      h('p', { class: 'muted section-hint', i18n: 'turnsHint' }),
      turns.element,
    ),
    h(
      'section',
      { class: 'traces-section', 'aria-labelledby': 'tool-charts-title' },
      h('h2', { id: 'tool-charts-title', i18n: 'toolChartsTitle' }),
      h('p', { class: 'muted section-hint', i18n: 'toolChartsHint' }),
      charts,
    ),
    h(
      'section',
      { class: 'traces-section', 'aria-labelledby': 'calls-title' },
      h('h2', { id: 'calls-title', i18n: 'callsTitle' }),
      list,
    ),
  );
  /** @type {Trace[]} */
  let traces = [];
  /** @type {TurnSummary[]} */
  let turnTraces = [];
  /** @type {ToolStats} */
  let stats = { since: '', until: '', bucketMs: 0, tools: [] };
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
    const turnQuery = new URLSearchParams(query);
    turnQuery.set('limit', String(TURN_LIMIT));
    const statsQuery = new URLSearchParams();
    if (toolSelect.value !== '') statsQuery.set('tool', toolSelect.value);
    try {
      const [result, tools, turnResult, statsResult] = await Promise.all([
        /** @type {Promise<{ traces?: Trace[] }>} */ (api(`/api/traces?${query}`)),
        /** @type {Promise<{ tools?: { name: string }[] }>} */ (api('/api/tools')).catch(() => ({ tools: [] })),
        /** @type {Promise<{ traces?: TurnSummary[] }>} */ (api(`/api/traces/turns?${turnQuery}`)),
        /** @type {Promise<ToolStats>} */ (api(`/api/traces/tools?${statsQuery}`)),
      ]);
      if (mine !== ticket) return;
      traces = result.traces ?? [];
      turnTraces = turnResult.traces ?? [];
      stats = statsResult;
      fillTools(tools.tools ?? []);
      render();
      await turns.show(turnTraces, filtered());
    } catch (error) {
      if (mine !== ticket || (error instanceof ApiError && error.status === 401)) return;
      replace(list, loadFailedNotice('li', error));
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
    const filtered = isFiltered();
    replace(charts, toolCharts(stats));
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

  function isFiltered() {
    return toolSelect.value !== '' || outcomeSelect.value !== '';
  }
  const filtered = isFiltered;

  return {
    /** @param {string} [rest] the address after #/traces/: a turn's id to open */
    show(rest = '') {
      if (rest !== '') turns.want(decodeURIComponent(rest));
      void refresh();
    },
    refresh,
    languageChanged() {
      translate(root);
      render();
      turns.render();
    },
  };
}
