// @ts-check
// The chat page's conversation: a welcome for a new chat, or a session's history as it was (the
// messages, a card per tool call with its trace, the approvals still waiting), and the page's notes.
// A turn being answered adds to it (chat-turn.js).
import { api, ApiError, errorMessage } from './api.js';
import { approvalCard, pendingApprovalCards, questionCard } from './approval-card.js';
import { h, replace } from './dom.js';
import { renderReply } from './reply-text.js';
import { toolCallCard } from './tool-call-card.js';
import { traceLink } from './trace-link.js';

/** @import { MessageKey } from './messages.js' */
/** @import { MessageVars } from './i18n.js' */
/** @import { PendingRequest, QuestionRequest } from './approval-card.js' */
/** @import { CallOutcome, ToolCallCard, Trace } from './tool-call-card.js' */
/**
 * A message as the store keeps it (GET /api/sessions/:name).
 * @typedef {({ role: 'user', content: string }
 *   | { role: 'assistant', content: string, toolCalls?: { id: string, name: string, arguments: string }[] }
 *   | { role: 'tool', toolCallId: string, name: string, content: string, isError?: boolean }) & { turnId?: string }} StoredMessage
 */
/** A session as GET /api/sessions/:name gives it. @typedef {{ session?: { id: string }, messages?: StoredMessage[] }} SessionRead */
/** @typedef {ReturnType<typeof transcript>} Transcript */

export function transcript() {
  /** Questions of tasks whose turn is over, by id. @type {Map<string, ReturnType<typeof questionCard>>} */
  const taskQuestions = new Map();
  /** Approvals asked by a turn this page does not stream (another tab, another replica), by id. @type {Map<string, ReturnType<typeof approvalCard>>} */
  const elsewhere = new Map();
  const element = h('ol', {
    class: 'transcript',
    role: 'log',
    'aria-live': 'polite',
    'aria-labelledby': 'conversation-title',
  });

  /**
   * A line from the page itself (loading, stopped, failed…), at the end.
   * @param {MessageKey} key
   * @param {MessageVars} [vars]
   * @param {string} [kind]
   */
  function note(key, vars, kind = '') {
    const item = h('li', { class: `message note ${kind}`.trim(), i18n: key, i18nVars: vars });
    element.append(item);
    scroll();
    return item;
  }

  function scroll() {
    element.scrollTop = element.scrollHeight;
  }

  /** @param {HTMLLIElement[]} items */
  function show(items) {
    replace(element, items.length === 0 ? welcome() : items);
  }

  /**
   * Shows the session called `name` as it was; false when `stillShown()` says another conversation
   * was opened meanwhile (nothing is shown then).
   * @param {string} name
   * @param {() => boolean} stillShown
   */
  async function load(name, stillShown) {
    replace(element, h('li', { class: 'message note', i18n: 'loading' }));
    try {
      const [session, traces, pending, tasks] = await Promise.all([
        /** @type {Promise<SessionRead>} */ (api(`/api/sessions/${encodeURIComponent(name)}`)),
        /** @type {Promise<{ traces?: Trace[] }>} */ (
          api(`/api/traces?session=${encodeURIComponent(name)}&limit=1000`)
        ).catch(() => ({ traces: [] })),
        /** @type {Promise<{ approvals?: PendingRequest[] }>} */ (api('/api/approvals')).catch(() => ({
          approvals: [],
        })),
        // The session's tasks: their results are messages of the history, shown as such.
        /** @type {Promise<{ tasks?: { id: string, tool: string, callId: string }[] }>} */ (
          api(`/api/tasks?session=${encodeURIComponent(name)}`)
        ).catch(() => ({ tasks: [] })),
      ]);
      if (!stillShown()) return false;
      const waiting = (pending.approvals ?? []).filter(
        (entry) => entry.kind === 'approval' && entry.sessionId === session.session?.id,
      );
      const cards = renderHistory(
        session.messages ?? [],
        traces.traces ?? [],
        new Set(waiting.map((entry) => entry.callId)),
        new Map((tasks.tasks ?? []).map((task) => [task.id, task])),
      );
      // Calls of this session still waiting for an answer (the page was reloaded, the service restarted):
      // their cards say they wait, and show the result when the approved call runs at once.
      const answered = (/** @type {string} */ callId, /** @type {{ result?: CallOutcome }} */ answer) => {
        const card = cards.get(callId);
        if (answer.result !== undefined) card?.finish(answer.result);
        else card?.abandon();
      };
      for (const card of pendingApprovalCards(waiting, session.session?.id, answered))
        element.append(h('li', {}, card.element));
    } catch (error) {
      if (!stillShown()) return false;
      replace(element);
      note(
        error instanceof ApiError && error.status === 404 ? 'sessionNotFound' : 'loadFailed',
        { name, reason: errorMessage(error) },
        'error',
      );
    }
    return true;
  }

  /**
   * The session's messages with a card per call (those in `waiting` wait for an approval); the cards by call id.
   * @param {StoredMessage[]} messages
   * @param {Trace[]} traces
   * @param {Set<string>} waiting
   * @param {Map<string, { id: string, tool: string, callId?: string }>} [tasks] the session's tasks, whose results are messages
   */
  function renderHistory(messages, traces, waiting, tasks = new Map()) {
    const byCall = new Map(traces.map((trace) => [trace.callId, trace]));
    // A call that became a task: its card says so, as it did live.
    const taskOfCall = new Map([...tasks.values()].map((task) => [task.callId, task.id]));
    /** @type {Map<string, ToolCallCard>} */
    const cards = new Map();
    /** @type {HTMLLIElement[]} */
    const items = [];
    /** Each turn's last reply, which links to the turn's trace. @type {Map<string, HTMLLIElement>} */
    const replies = new Map();
    /** Where each turn's items end: a turn with no reply (it failed) links there. @type {Map<string, number>} */
    const ends = new Map();
    for (const message of messages) {
      const task = message.role === 'user' ? tasks.get(TASK_ID.exec(message.content)?.[0] ?? '') : undefined;
      if (task !== undefined) items.push(taskResult(task, message.content));
      else if (message.role === 'user') items.push(h('li', { class: 'message user', text: message.content }));
      else if (message.role === 'assistant') {
        if (message.content) {
          const item = reply(message.content);
          items.push(item);
          if (message.turnId !== undefined) replies.set(message.turnId, item);
        }
        for (const call of message.toolCalls ?? []) {
          const card = toolCallCard({ tool: call.name, callId: call.id });
          card.start({ callId: call.id, tool: call.name, params: parseArguments(call.arguments) });
          const trace = byCall.get(call.id);
          const taskId = taskOfCall.get(call.id);
          if (trace !== undefined && !waiting.has(call.id))
            card.finish(taskId === undefined ? trace : { ...trace, taskId }); // a stopped turn's trace: the call still waits
          cards.set(call.id, card);
          items.push(h('li', {}, card.element));
        }
      } else if (message.role === 'tool') {
        const card = cards.get(message.toolCallId);
        if (card !== undefined && card.element.dataset.state === 'running')
          card.finish({
            success: message.isError !== true,
            data: message.content,
            error: message.isError === true ? message.content : undefined,
          });
      }
      if (message.turnId !== undefined) ends.set(message.turnId, items.length);
    }
    for (const [callId, card] of cards) {
      if (waiting.has(callId)) card.awaitApproval();
      else card.abandon();
    }
    for (const [turnId, item] of replies) item.append(traceLink(turnId));
    // From the last, so that the places of the earlier ones hold.
    for (const [turnId, end] of [...ends].reverse())
      if (!replies.has(turnId)) items.splice(end, 0, h('li', { class: 'turn-trace' }, traceLink(turnId, false)));
    show(items);
    scroll();
    return cards;
  }

  return {
    element,
    note,
    scroll,
    show,
    load,
    /**
     * A task's result arrived in this conversation (`task-delivered` on /api/events).
     * @param {{ task: { id: string, tool: string }, message: { content: string } }} delivery
     */
    taskArrived(delivery) {
      if (element.querySelector('.welcome') !== null) replace(element);
      element.append(taskResult(delivery.task, delivery.message.content));
      scroll();
    },
    /**
     * A question no turn of this page streams — a task's call's once its turn is over (`task-call`
     * on /api/events), or a turn's on another replica (`question-request`) — answered here as in a
     * turn; and its end (`question-ended`). Told twice (both events), it is shown once.
     * @param {{ type: string } & Record<string, any>} event
     */
    taskCall(event) {
      if (event.type === 'question') {
        if (taskQuestions.has(event.questionId)) return;
        const card = questionCard(/** @type {QuestionRequest} */ (/** @type {unknown} */ (event)));
        taskQuestions.set(event.questionId, card);
        element.append(h('li', {}, card.element));
        scroll();
      } else if (event.type === 'question-ended')
        taskQuestions.get(event.questionId)?.settle({ answered: event.answered === true });
    },
    /**
     * An approval of this conversation that no turn of this page streams (`approval-request` on
     * /api/events: asked in another tab, or by a turn on another replica), answered here; and its end.
     * @param {{ type: 'approval-request', approvalId: string, callId: string, tool: string, params?: unknown } | { type: 'approval-answered', approvalId: string, decision: string }} event
     */
    approvalElsewhere(event) {
      if (event.type === 'approval-answered') {
        elsewhere.get(event.approvalId)?.settle({ decision: /** @type {any} */ (event.decision) });
        elsewhere.delete(event.approvalId);
        return;
      }
      // Shown already (the page loaded it with the history, or its turn streams here).
      if (element.querySelector(`[data-approval-id="${CSS.escape(event.approvalId)}"]`) !== null) return;
      const card = approvalCard(event);
      elsewhere.set(event.approvalId, card);
      element.append(h('li', {}, card.element));
      scroll();
    },
    /** A new chat: the welcome. */
    welcome() {
      replace(element, welcome());
    },
  };
}

/** A task's id in the message that delivers its result ("Task <id> (tool) finished: …", in any language). */
const TASK_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * A task's result as the conversation shows it: said to be one, then the message the model reads.
 * @param {{ id: string, tool: string }} task
 * @param {string} content
 */
function taskResult(task, content) {
  return h(
    'li',
    { class: 'message task-result', 'data-task': task.id },
    h('p', { class: 'task-result-head', i18n: 'taskResultArrived', i18nVars: { tool: task.tool, id: task.id } }),
    h('p', { text: content }),
  );
}

/** @param {string} text */
function reply(text) {
  const item = h('li', { class: 'message assistant' });
  renderReply(item, text);
  return item;
}

function welcome() {
  return h('li', { class: 'welcome' }, h('h2', { i18n: 'welcomeTitle' }), h('p', { i18n: 'welcomeText' }));
}

/** @param {string} text */
function parseArguments(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
