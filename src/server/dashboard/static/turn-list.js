// @ts-check
// The traces page's turns (GET /api/traces/turns), newest first: a row each that opens to its
// waterfall (GET /api/traces/turns/:id, fetched when opened). `#/traces/<turn id>` opens one, from a
// reply's link, even when it is older than the list.
import { api, ApiError } from './api.js';
import { h, loadFailedNotice, replace } from './dom.js';
import { formatDuration, formatTime } from './i18n.js';
import { STOP_REASONS, turnFigures, waterfall } from './trace-waterfall.js';

/** @import { TurnTraceTree } from './trace-waterfall.js' */
/**
 * A turn in the list (docs/server-api.md, GET /api/traces/turns).
 * @typedef {{ id: string, session: string, byHand?: string, startedAt: string, durationMs: number,
 *   outcome: 'success' | 'failure', stopReason: string, tools: string[], modelRequests: number, toolCalls: number }} TurnSummary
 */

/** Turns listed at most (the API allows more; a page of them is what a person scans). */
export const TURN_LIMIT = 50;

export function turnList() {
  const list = h('ul', { class: 'turn-list' });
  /** @type {TurnSummary[]} */
  let turns = [];
  /** Whole trees already fetched, by turn id. @type {Map<string, TurnTraceTree>} */
  const trees = new Map();
  /** The turn asked for by the address, opened once it is shown. */
  let wanted = '';
  /** Whether the turn the address asked for is no longer kept (said above the list). */
  let gone = false;
  let filtered = false;

  function render() {
    const open = new Set(
      [...list.querySelectorAll('details.turn[open]')].map((item) => /** @type {HTMLElement} */ (item).dataset.turn),
    );
    if (wanted !== '') open.add(wanted);
    replace(
      list,
      gone ? h('li', { class: 'notice turn-gone', role: 'status', i18n: 'turnGone' }) : null,
      turns.length === 0
        ? h('li', { class: 'empty', i18n: filtered ? 'noTurns' : 'noTurnsYet' })
        : turns.map((turn) => turnItem(turn, open.has(turn.id))),
    );
    if (wanted !== '') {
      const row = list.querySelector(`details.turn[data-turn="${CSS.escape(wanted)}"]`);
      row?.scrollIntoView({ block: 'start' });
      /** @type {HTMLElement | null | undefined} */ (row?.querySelector('summary'))?.focus({ preventScroll: true });
      wanted = '';
    }
  }

  /**
   * @param {TurnSummary} turn
   * @param {boolean} open
   */
  function turnItem(turn, open) {
    const ok = turn.outcome === 'success';
    const body = h('div', { class: 'turn-body' }, h('p', { class: 'muted', i18n: 'turnLoading' }));
    const details = h(
      'details',
      { class: 'turn card', 'data-turn': turn.id, 'data-outcome': ok ? 'success' : 'failure' },
      h(
        'summary',
        {},
        h('span', { class: `badge ${ok ? 'ok' : 'bad'}`, i18n: ok ? 'succeeded' : 'failed' }),
        turn.byHand
          ? h('span', { class: 'session by-hand', i18n: 'byHand' })
          : h('span', { class: 'session', text: turn.session }),
        h('span', { class: 'when', text: formatTime(turn.startedAt) }),
        h('span', { class: 'muted duration', text: formatDuration(turn.durationMs) }),
        h(
          'span',
          { class: 'turn-figures muted' },
          turnFigures(turn, turn.byHand !== undefined),
          ok || STOP_REASONS[turn.stopReason] === undefined
            ? null
            : h('span', { i18n: STOP_REASONS[turn.stopReason] ?? 'stopError' }),
        ),
        turn.tools.length === 0 ? null : h('span', { class: 'turn-tools', text: turn.tools.join(', ') }),
        h('span', { class: 'chevron', 'aria-hidden': 'true' }),
      ),
      body,
    );
    details.addEventListener('toggle', () => {
      if (details.open) void fill(turn.id, body);
    });
    if (open) details.open = true;
    return h('li', {}, details);
  }

  /**
   * @param {string} id
   * @param {HTMLElement} body
   */
  async function fill(id, body) {
    try {
      let tree = trees.get(id);
      if (tree === undefined) {
        tree = /** @type {{ trace: TurnTraceTree }} */ (await api(`/api/traces/turns/${encodeURIComponent(id)}`)).trace;
        trees.set(id, tree);
      }
      replace(body, waterfall(tree));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      replace(
        body,
        error instanceof ApiError && error.status === 404
          ? h('p', { class: 'notice', i18n: 'turnGone' })
          : loadFailedNotice('p', error),
      );
    }
  }

  return {
    element: list,
    /**
     * Shows `next` (the list as fetched); `wasFiltered` says whether a filter chose them.
     * @param {TurnSummary[]} next
     * @param {boolean} wasFiltered
     */
    async show(next, wasFiltered) {
      // The same turns again (a refresh after a live event): the open waterfalls stay as they are.
      const same =
        wanted === '' &&
        wasFiltered === filtered &&
        next.length === turns.length &&
        next.every((turn, index) => turn.id === turns[index]?.id && turn.durationMs === turns[index]?.durationMs);
      if (same && list.childElementCount > 0) return;
      turns = next;
      filtered = wasFiltered;
      // A turn the address asks for that the list does not hold (older, or filtered out) comes first.
      if (wanted !== '' && !turns.some((turn) => turn.id === wanted)) {
        try {
          const { trace } = /** @type {{ trace: TurnTraceTree & TurnSummary }} */ (
            await api(`/api/traces/turns/${encodeURIComponent(wanted)}`)
          );
          trees.set(trace.id, trace);
          wanted = trace.id;
          const spans = Array.isArray(trace.spans) ? trace.spans : [];
          turns = [
            {
              ...trace,
              modelRequests: spans.filter((span) => span.kind === 'model-request').length,
              toolCalls: spans.filter((span) => span.kind === 'tool-call').length,
            },
            ...turns,
          ];
        } catch {
          wanted = '';
          gone = true; // removed by the retention, or its session deleted: said above the list
        }
      }
      render();
    },
    /** @param {string} id the turn to open when the list is next shown */
    want(id) {
      wanted = id;
      gone = false;
    },
    render,
  };
}
