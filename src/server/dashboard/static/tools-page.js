// @ts-check
// The tools page: every tool with its file, whether it is available (and why not), its
// diagnostics, an on/off switch, and a form built from its parameters to run it by hand. Files that
// failed to load are listed first. Reloads on disk arrive as `tools-changed` and update in place.
import { api, ApiError, errorMessage } from './api.js';
import { h, loadFailedNotice, replace, setText, toast, translate } from './dom.js';
import { formatDuration } from './i18n.js';
import { onLiveEvent } from './live-events.js';
import { schemaForm } from './schema-form.js';
import { outcomeText, richResult } from './tool-call-card.js';

/** @import { MessageKey } from './messages.js' */
/** @import { JsonSchema } from './schema-values.js' */
/** @import { CallOutcome } from './tool-call-card.js' */
/**
 * A diagnostic as the API shows it, in the page's language.
 * @typedef {{
 *   severity: 'error' | 'warning', code: string, file: string, line?: number, column?: number, tool?: string,
 *   message: string, hint?: string
 * }} Diagnostic
 */
/**
 * One tool as /api/tools shows it (docs/server-api.md, `ToolView`).
 * @typedef {object} ToolView
 * @property {string} name
 * @property {string} description
 * @property {string} file
 * @property {string} source
 * @property {boolean} available
 * @property {string} [reason]
 * @property {boolean} enabled
 * @property {'process' | 'worker' | 'none'} isolation
 * @property {'always' | 'never' | { when: unknown }} approval
 * @property {JsonSchema} parameters
 * @property {string[]} examples
 * @property {Diagnostic[]} diagnostics
 */
/** A file that failed to load: no tool, its diagnostics. @typedef {{ file: string, diagnostics: Diagnostic[] }} Failure */
/** @typedef {{ view: ToolView, element: HTMLElement, update(view: ToolView): void }} ToolCard */

/** @param {HTMLElement} root */
export function toolsPage(root) {
  /** @type {Map<string, ToolCard>} */
  const cards = new Map(); // tool name → { view, element, update(view) }
  const failures = h('div', { class: 'failures' });
  const list = h('div', { class: 'tool-list', 'aria-live': 'polite' });
  const filter = h('input', { type: 'search', i18nPlaceholder: 'filterTools', i18nAria: 'filterTools' });
  const summary = h('p', { class: 'tools-summary' });
  replace(
    root,
    h(
      'div',
      { class: 'page-header' },
      h('div', {}, h('h1', { i18n: 'toolsTitle' }), summary),
      h('div', { class: 'toolbar' }, filter),
    ),
    failures,
    list,
  );
  let loaded = false;
  /** @type {Promise<void> | null} */
  let refreshing = null;

  filter.addEventListener('input', applyFilter);

  function applyFilter() {
    const needle = filter.value.trim().toLowerCase();
    for (const [name, card] of cards)
      card.element.hidden = needle !== '' && !`${name} ${card.view.description ?? ''}`.toLowerCase().includes(needle);
  }

  // A refresh asked for while one is on its way (a language switch, a tools-changed event) runs again once it is
  // back: the answer on its way may be in the old language, or from before the change.
  let again = false;
  async function refresh() {
    if (refreshing !== null) again = true;
    refreshing ??= (async () => {
      try {
        do {
          again = false;
          /** @type {{ tools?: ToolView[], failures?: Failure[] }} */
          const result = await api('/api/tools');
          if (again) continue;
          render(result.tools ?? [], result.failures ?? []);
          loaded = true;
        } while (again);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) replace(list, loadFailedNotice('p', error));
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  /**
   * @param {ToolView[]} tools
   * @param {Failure[]} failed
   */
  function render(tools, failed) {
    const available = tools.filter((tool) => tool.available).length;
    setText(summary, 'toolsSummary', { total: tools.length, available });
    replace(
      failures,
      failed.map((failure) =>
        h(
          'article',
          { class: 'card tool', 'data-failure': failure.file },
          h(
            'div',
            { class: 'tool-head' },
            h('h2', { text: baseName(failure.file) }),
            h('span', { class: 'badge bad', i18n: 'failedToLoad' }),
          ),
          h('div', { class: 'tool-meta' }, h('code', { text: failure.file })),
          diagnosticsList(failure.diagnostics ?? []),
        ),
      ),
    );
    const seen = new Set();
    for (const view of tools) {
      seen.add(view.name);
      const card = cards.get(view.name);
      if (card === undefined) cards.set(view.name, toolCard(view));
      else card.update(view);
    }
    for (const [name, card] of cards) {
      if (!seen.has(name)) {
        card.element.remove();
        cards.delete(name);
      }
    }
    // In name order, moving only what is out of place (an open form keeps its focus and values).
    const ordered = [...cards.values()].sort((a, b) => a.view.name.localeCompare(b.view.name));
    ordered.forEach((card, index) => {
      if (list.children[index] !== card.element) list.insertBefore(card.element, list.children[index] ?? null);
    });
    if (ordered.length === 0 && failed.length === 0) replace(list, h('p', { class: 'empty', i18n: 'noTools' }));
    else list.querySelector('.empty')?.remove();
    applyFilter();
  }

  /**
   * @param {ToolView} initial
   * @returns {ToolCard}
   */
  function toolCard(initial) {
    let view = initial;
    const id = `tool-${initial.name.replace(/[^\w-]/g, '_')}`;
    const badge = h('span', { class: 'badge' });
    // A person is asked before each call (approval: always), or before the calls a rule picks.
    const asks = h('span', { class: 'badge warn', hidden: true });
    const toggle = h('input', {
      type: 'checkbox',
      role: 'switch',
      id: `${id}-enabled`,
      i18nAria: 'toolSwitch',
      i18nVars: { name: initial.name },
    });
    // The label says the state the switch shows (On or Off); a spinner while it is being applied.
    const switchState = h('span', { class: 'switch-state', i18n: 'enabled' });
    const switchSpinner = h('span', { class: 'spinner', hidden: true, i18nAria: 'switchBusy', role: 'img' });
    const switchLabel = h('label', { class: 'switch', for: `${id}-enabled` }, switchSpinner, switchState, toggle);
    const description = h('p', { class: 'tool-description' });
    const meta = h('div', { class: 'tool-meta' });
    const reason = h('p', { class: 'notice warn', hidden: true });
    const diagnostics = h('div', {});
    const examples = h('div', {});
    const formBox = h('div', {});
    const result = h('div', { class: 'run-result', 'aria-live': 'polite' });
    const runButton = h('button', { type: 'submit', class: 'primary', i18n: 'run' });
    const form = h(
      'form',
      { class: 'tool-form', novalidate: true },
      formBox,
      h('div', { class: 'form-actions' }, runButton),
      result,
    );
    const runPanel = h('details', { class: 'run-panel' }, h('summary', { i18n: 'runByHand' }), form);
    // A tool that cannot run is not offered to run: its switch first (when off), or its reason.
    const runWhenOn = h('p', { class: 'muted run-when-on', i18n: 'runWhenOn', hidden: true });
    const element = h(
      'article',
      { class: 'card tool', id, 'data-tool': initial.name, 'aria-labelledby': `${id}-name` },
      h('div', { class: 'tool-head' }, h('h2', { id: `${id}-name`, text: initial.name }), badge, asks, switchLabel),
      description,
      reason,
      meta,
      diagnostics,
      examples,
      runPanel,
      runWhenOn,
    );
    /** @type {ReturnType<typeof schemaForm> | null} */
    let fields = null;
    let schemaText = '';

    // Busy, not disabled, while a switch or a run is sent: a disabled control would lose the keyboard's focus.
    // Clicks while a switch is applied are kept: the last state asked for is sent when the one under way is done.
    /** @type {boolean | null} */
    let wanted = null;
    let switching = false;
    let running = false;
    toggle.addEventListener('change', () => {
      wanted = toggle.checked;
      showSwitch();
      void applySwitch();
    });

    async function applySwitch() {
      if (switching) return;
      switching = true;
      showSwitch();
      try {
        while (wanted !== null && wanted !== view.enabled) {
          const enabled = wanted;
          try {
            update(
              await api(`/api/tools/${encodeURIComponent(view.name)}/enabled`, { method: 'PUT', body: { enabled } }),
            );
            toast(enabled ? 'toolSwitchedOn' : 'toolSwitchedOff', { name: view.name });
          } catch (error) {
            toast('switchFailed', { name: view.name, reason: errorMessage(error) }, 'error');
            break;
          }
        }
      } finally {
        switching = false;
        wanted = null;
        toggle.checked = view.enabled !== false;
        showSwitch();
      }
    }

    /** The switch's label and busy state, as the checkbox now shows it. */
    function showSwitch() {
      setText(switchState, toggle.checked ? 'enabled' : 'switchOff');
      switchSpinner.hidden = !switching;
      if (switching) toggle.setAttribute('aria-busy', 'true');
      else toggle.removeAttribute('aria-busy');
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (running) return;
      const read = fields?.read();
      if (read === undefined) return;
      running = true;
      runButton.setAttribute('aria-disabled', 'true');
      replace(
        result,
        h(
          'p',
          { class: 'muted' },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }),
          ' ',
          h('span', { i18n: 'runningCall' }),
        ),
      );
      try {
        /** @type {CallOutcome} */
        const outcome = await api(`/api/tools/${encodeURIComponent(view.name)}/run`, {
          method: 'POST',
          body: { params: read.params },
        });
        const text = outcomeText(outcome);
        replace(
          result,
          h(
            'div',
            { class: 'tool-head' },
            h('span', {
              class: `badge ${outcome.success ? 'ok' : 'bad'}`,
              i18n: outcome.success ? 'succeeded' : 'failed',
            }),
            h('span', { class: 'muted', text: formatDuration(outcome.durationMs) }),
          ),
          h('pre', { class: outcome.success ? 'run-output' : 'run-output error', text }),
          richResult(outcome, text, view.name),
        );
      } catch (error) {
        replace(result, h('p', { class: 'notice error', role: 'alert', text: errorMessage(error) }));
      } finally {
        running = false;
        runButton.removeAttribute('aria-disabled');
      }
    });

    /** @param {ToolView} next */
    function update(next) {
      view = next;
      card.view = next;
      badge.className = `badge ${next.available ? 'ok' : next.enabled === false ? 'muted' : 'bad'}`;
      setText(badge, next.available ? 'available' : next.enabled === false ? 'switchedOff' : 'unavailable');
      asks.hidden = next.approval === undefined || next.approval === 'never';
      setText(asks, next.approval === 'always' ? 'asksFirst' : 'asksFirstSometimes');
      toggle.checked = wanted ?? next.enabled !== false; // a click not yet applied keeps what it asked for
      showSwitch();
      description.textContent = next.description ?? '';
      reason.hidden = next.available || !next.reason;
      reason.textContent = next.reason ?? '';
      runPanel.hidden = !next.available;
      runWhenOn.hidden = next.available || next.enabled !== false;
      replace(
        meta,
        h('span', {}, h('span', { i18n: 'file' }), ' ', h('code', { text: next.file ?? '' })),
        next.source ? h('span', {}, h('span', { i18n: 'source' }), ' ', h('code', { text: next.source })) : null,
        next.isolation
          ? h(
              'span',
              {},
              h('span', { i18n: 'isolation' }),
              ' ',
              h('span', { i18n: ISOLATION[next.isolation] ?? 'isolationNone' }),
            )
          : null,
      );
      replace(diagnostics, diagnosticsList(next.diagnostics ?? []));
      replace(
        examples,
        (next.examples ?? []).length === 0
          ? null
          : h(
              'ul',
              { class: 'examples', i18nAria: 'examples' },
              next.examples.map((example) => h('li', { text: example })),
            ),
      );
      const text = JSON.stringify(next.parameters ?? {});
      if (text !== schemaText) {
        schemaText = text;
        fields = schemaForm(next.parameters ?? {});
        replace(formBox, fields.element);
      }
    }

    const card = { view, element, update };
    update(initial);
    return card;
  }

  onLiveEvent('tools-changed', () => void refresh());
  onLiveEvent('open', () => {
    if (loaded) void refresh();
  });

  return {
    show() {
      void refresh();
    },
    refresh,
    languageChanged() {
      translate(root);
      if (loaded || refreshing !== null) void refresh(); // descriptions and diagnostics come in the page's language
    },
  };
}

/**
 * Where a tool's code runs (tools.isolation), as people say it.
 * @type {Partial<Record<string, MessageKey>>}
 */
const ISOLATION = { process: 'isolationProcess', worker: 'isolationWorker', none: 'isolationNone' };

/** @param {Diagnostic[]} diagnostics */
function diagnosticsList(diagnostics) {
  if (diagnostics.length === 0) return null;
  return h(
    'ul',
    { class: 'diagnostics', i18nAria: 'diagnostics' },
    diagnostics.map((diagnostic) =>
      h(
        'li',
        { class: `diagnostic ${diagnostic.severity === 'error' ? 'error' : 'warning'}` },
        h('strong', { i18n: diagnostic.severity === 'error' ? 'error' : 'warning' }),
        ' ',
        diagnostic.line === undefined
          ? null
          : h('code', {
              text: `${baseName(diagnostic.file ?? '')}:${diagnostic.line}${diagnostic.column === undefined ? '' : `:${diagnostic.column}`}`,
            }),
        ' ',
        diagnostic.message ?? '',
        diagnostic.hint ? h('span', { class: 'hint', text: diagnostic.hint }) : null,
      ),
    ),
  );
}

/** @param {string} path */
function baseName(path) {
  return String(path).split(/[\\/]/).pop() ?? String(path);
}
