// @ts-check
// The tasks page: the tool calls that run apart from their chat, running ones first, each with its
// status, a progress bar from the task's progress, and a cancel button while it runs; kept up to
// date by the `task` events of /api/events.
import { api, ApiError, errorMessage } from './api.js';
import { h, loadFailedNotice, replace, setText, toast } from './dom.js';
import { formatTime } from './i18n.js';
import { onLiveEvent } from './live-events.js';
import { logLineItem } from './call-progress.js';

/** @import { MessageKey } from './messages.js' */
/**
 * A task as GET /api/tasks gives it (docs/server-api.md).
 * @typedef {object} Task
 * @property {string} id
 * @property {string} tool
 * @property {string} [sessionId]
 * @property {'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'interrupted'} status
 * @property {string} [statusMessage]
 * @property {string} [errorCode]
 * @property {string} created
 * @property {number} createdAt
 * @property {{ progress: number, total?: number, message?: string }} [progress]
 * @property {{ atMs: number, level: string, message: string }[]} [logs]
 * @property {{ success: boolean, data: string, error?: string }} [result]
 */

/** @type {Record<Task['status'], { key: MessageKey, kind: string }>} */
const STATUS = {
  working: { key: 'taskWorking', kind: 'warn' },
  input_required: { key: 'taskInputRequired', kind: 'warn' },
  completed: { key: 'taskCompleted', kind: 'ok' },
  failed: { key: 'taskFailed', kind: 'bad' },
  cancelled: { key: 'taskCancelled', kind: 'muted' },
  interrupted: { key: 'taskInterrupted', kind: 'bad' },
};
const LIMIT = 100;

/** @param {Task} task */
const running = (task) => task.status === 'working' || task.status === 'input_required';

/** @param {HTMLElement} root */
export function tasksPage(root) {
  const count = h('p', { class: 'muted' });
  const list = h('ul', { class: 'task-list', 'aria-live': 'polite' });
  replace(
    root,
    h(
      'div',
      { class: 'page-header' },
      h('div', {}, h('h1', { i18n: 'tasksTitle' }), h('p', { class: 'muted', i18n: 'tasksIntro' }), count),
    ),
    list,
  );
  /** @type {Map<string, Task>} */
  const tasks = new Map();
  /** Session names by id, for the line under each task. @type {Map<string, string>} */
  let sessions = new Map();
  let shown = false;

  async function refresh() {
    try {
      const [result, known] = await Promise.all([
        /** @type {Promise<{ tasks?: Task[] }>} */ (api(`/api/tasks?limit=${LIMIT}`)),
        /** @type {Promise<{ sessions?: { id: string, name: string }[] }>} */ (api('/api/sessions')).catch(() => ({
          sessions: [],
        })),
      ]);
      sessions = new Map((known.sessions ?? []).map((session) => [session.id, session.name]));
      tasks.clear();
      for (const task of result.tasks ?? []) tasks.set(task.id, task);
      render();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      replace(list, loadFailedNotice('li', error));
    }
  }

  function render() {
    const all = [...tasks.values()].sort(
      (a, b) => Number(running(b)) - Number(running(a)) || b.createdAt - a.createdAt,
    );
    const busy = all.filter(running).length;
    setText(count, 'tasksRunning', { count: busy });
    if (all.length === 0) {
      replace(list, h('li', { class: 'notice', i18n: 'noTasks' }));
      return;
    }
    replace(list, ...all.map(row));
  }

  /** @param {Task} task */
  function row(task) {
    const status = STATUS[task.status];
    const progress = task.progress;
    const session = task.sessionId === undefined ? undefined : sessions.get(task.sessionId);
    // Riverse's own reasons are said in the page's language; a failure's is the tool's or the runtime's words.
    const interrupted = task.errorCode === 'interrupted';
    const result =
      interrupted || task.status === 'cancelled'
        ? undefined
        : task.result === undefined
          ? task.statusMessage
          : task.result.success
            ? task.result.data
            : task.result.error;
    return h(
      'li',
      { class: `task ${task.status}`, 'data-task': task.id },
      h(
        'div',
        { class: 'task-head' },
        h('strong', { class: 'task-tool', text: task.tool }),
        h('span', { class: `badge ${status.kind}`, i18n: status.key }),
        running(task)
          ? h('button', { type: 'button', class: 'task-cancel', i18n: 'taskCancel', onclick: () => void cancel(task) })
          : null,
      ),
      progress === undefined
        ? null
        : h(
            'div',
            { class: 'task-progress' },
            h('progress', {
              max: progress.total,
              value: progress.total === undefined ? undefined : progress.progress,
              i18nAria: 'taskProgress',
              i18nVars: { tool: task.tool },
            }),
            progress.message === undefined ? null : h('span', { class: 'muted', text: progress.message }),
          ),
      h(
        'p',
        { class: 'muted task-where' },
        h('span', { i18n: 'taskStarted', i18nVars: { when: formatTime(task.created) } }),
        session === undefined
          ? null
          : [
              ' · ',
              h('a', { href: `#/chat/${encodeURIComponent(session)}`, i18n: 'taskSession', i18nVars: { session } }),
            ],
        ' · ',
        h('code', { text: task.id }),
      ),
      interrupted ? h('p', { class: 'task-result', i18n: 'taskInterruptedReason' }) : null,
      result === undefined || result === '' || running(task) ? null : h('p', { class: 'task-result', text: result }),
      logLines(task),
    );
  }

  /**
   * The lines its call logged, after its turn too: folded under a count, open while it runs.
   * @param {Task} task
   */
  function logLines(task) {
    const logs = task.logs ?? [];
    if (logs.length === 0) return null;
    return h(
      'details',
      { class: 'task-log', open: running(task) },
      h('summary', { i18n: logs.length === 1 ? 'taskLogOne' : 'taskLog', i18nVars: { count: logs.length } }),
      h('ol', { class: 'call-log-lines' }, ...logs.map(logLineItem)),
    );
  }

  /** @param {Task} task */
  async function cancel(task) {
    try {
      const answer = /** @type {{ task: Task }} */ (
        await api(`/api/tasks/${encodeURIComponent(task.id)}/cancel`, { method: 'POST' })
      );
      tasks.set(answer.task.id, answer.task);
      render();
    } catch (error) {
      toast('taskCancelFailed', { reason: errorMessage(error) }, 'error');
      void refresh();
    }
  }

  onLiveEvent('task', ({ task }) => {
    tasks.set(task.id, /** @type {Task} */ (task));
    if (shown) render();
  });
  onLiveEvent('open', () => {
    if (shown) void refresh();
  });

  return {
    show() {
      shown = true;
      void refresh();
    },
    languageChanged() {
      if (shown) render();
    },
  };
}
