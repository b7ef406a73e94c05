// @ts-check
// A call waiting for the person's approval, as a card in the chat: the tool, its parameters exactly
// as they will run, and three answers (once, always for this session, deny with a reason). The
// answer names the call and its parameters, so the service refuses it if they are not the
// approval's. A question a tool asks (ask_user) is a card of the same kind.
import { api, errorMessage } from './api.js';
import { h, pretty, setText } from './dom.js';
import { t } from './i18n.js';
import { schemaForm } from './schema-form.js';

/** @import { MessageKey } from './messages.js' */
/** @import { CallOutcome } from './tool-call-card.js' */
/** @import { MessageVars } from './i18n.js' */
/** @import { JsonSchema } from './schema-values.js' */
/**
 * A call waiting for approval: the `approval-request` chat event.
 * @typedef {{ approvalId: string, callId: string, tool: string, params?: unknown, expiresAt?: string }} ApprovalRequest
 */
/**
 * A tool's question: the `question` chat event.
 * @typedef {{
 *   questionId: string, callId?: string, tool: string, question: string, choices?: string[], expiresAt?: string,
 *   fields?: Record<string, JsonSchema>, required?: string[]
 * }} QuestionRequest
 */
/**
 * What GET /api/approvals lists: the approvals and questions still waiting.
 * @typedef {{
 *   kind: 'approval' | 'question', id: string, sessionId: string, callId: string, tool: string, params?: unknown
 * }} PendingRequest
 */
/** What the person answers. @typedef {'approve' | 'always' | 'deny'} Decision */
/**
 * How an approval ended (`approval-answered`).
 * @typedef {'approved' | 'always' | 'denied' | 'approval-timeout' | 'aborted'} Settled
 */

/**
 * @param {ApprovalRequest} request
 * @param {(answer: { result?: CallOutcome }) => void} [onAnswered] what the service answered (with the call's result
 *   when the turn that asked is gone and the approved call ran at once)
 */
export function approvalCard(request, onAnswered) {
  const status = h('p', { class: 'approval-status', role: 'status' });
  const reason = h('input', {
    type: 'text',
    class: 'approval-reason',
    maxlength: '2000',
    i18nPlaceholder: 'denyReasonShort',
    i18nAria: 'denyReason',
    i18nTitle: 'denyReason',
  });
  const buttons = [
    h('button', {
      type: 'button',
      class: 'primary',
      'data-decision': 'approve',
      i18n: 'approveOnce',
      onclick: () => answer('approve'),
    }),
    h('button', {
      type: 'button',
      'data-decision': 'always',
      i18n: 'approveAlways',
      i18nVars: { tool: request.tool },
      onclick: () => answer('always'),
    }),
    h('button', {
      type: 'button',
      class: 'danger',
      'data-decision': 'deny',
      i18n: 'deny',
      onclick: () => answer('deny'),
    }),
  ];
  const heading = h('h3', { i18n: 'approvalTitle', i18nVars: { tool: request.tool } });
  const explanation = h('p', { i18n: 'approvalText' });
  const actions = h('div', { class: 'approval-actions' }, reason, ...buttons);
  const element = h(
    'section',
    {
      class: 'approval-card',
      'data-state': 'pending',
      'data-approval-id': request.approvalId,
      'data-call-id': request.callId,
      role: 'group',
      i18nAria: 'approvalTitle',
      i18nVars: { tool: request.tool },
    },
    heading,
    explanation,
    h('pre', { class: 'tool-params', text: pretty(request.params ?? {}) }),
    actions,
    status,
  );
  /** @type {(state: string, key: MessageKey, vars?: MessageVars) => void} */
  const close = (state, key, vars) => {
    element.dataset.state = state;
    for (const button of buttons) button.disabled = true;
    reason.disabled = true;
    setText(status, key, vars);
    // Answered: the card says what happened, and no longer asks.
    /** @type {MessageKey} */
    const title =
      state === 'approved'
        ? 'approvalTitleApproved'
        : state === 'denied'
          ? 'approvalTitleDenied'
          : state === 'stale'
            ? 'approvalTitleAsked' // answered elsewhere, perhaps: the status says what is known
            : 'approvalTitleClosed';
    setText(heading, title, { tool: request.tool });
    element.dataset.i18nAriaLabel = title; // the group's name follows, in every language
    element.setAttribute('aria-label', t(title, { tool: request.tool }));
    explanation.hidden = true;
    actions.hidden = true;
  };

  /** @param {Decision} decision */
  async function answer(decision) {
    if (element.dataset.state !== 'pending') return;
    element.dataset.state = 'sending';
    for (const button of buttons) button.disabled = true;
    setText(status, 'approvalSending');
    const text = reason.value.trim();
    try {
      /** @type {{ result?: CallOutcome }} */
      const answered = await api(`/api/approvals/${encodeURIComponent(request.approvalId)}`, {
        method: 'POST',
        body: {
          decision,
          callId: request.callId,
          tool: request.tool,
          params: request.params,
          ...(decision === 'deny' && text !== '' ? { reason: text } : {}),
        },
      });
      close(
        decision === 'deny' ? 'denied' : 'approved',
        decision === 'deny' ? 'approvalDenied' : decision === 'always' ? 'approvalAlways' : 'approvalApproved',
        { tool: request.tool },
      );
      onAnswered?.(answered);
    } catch (error) {
      close('stale', 'approvalStale', { reason: errorMessage(error) });
    }
  }

  return {
    element,
    /**
     * The service says how it ended (approval-answered): a timeout or a stopped turn closes the card.
     * @param {{ decision: Settled }} event
     */
    settle(event) {
      if (event.decision === 'approval-timeout') close('timed-out', 'approvalTimedOut');
      else if (event.decision === 'aborted') close('stopped', 'approvalStopped');
      else if (element.dataset.state === 'pending' || element.dataset.state === 'sending')
        close(
          event.decision === 'denied' ? 'denied' : 'approved',
          event.decision === 'denied'
            ? 'approvalDenied'
            : event.decision === 'always'
              ? 'approvalAlways'
              : 'approvalApproved',
          { tool: request.tool },
        );
    },
  };
}

/**
 * Cards for the approvals of a session that no chat on this page is waiting for (GET /api/approvals);
 * `answered` hears what the service said of each call, by its id.
 * @param {PendingRequest[]} pending
 * @param {string | undefined} sessionId
 * @param {(callId: string, answer: { result?: CallOutcome }) => void} [answered]
 */
export function pendingApprovalCards(pending, sessionId, answered) {
  return pending
    .filter((entry) => entry.kind === 'approval' && entry.sessionId === sessionId)
    .map((entry) =>
      approvalCard({ approvalId: entry.id, callId: entry.callId, tool: entry.tool, params: entry.params }, (answer) =>
        answered?.(entry.callId, answer),
      ),
    );
}

/**
 * A question's card around its form (a line of text, or fields): who asks, the question, the status line.
 * @param {QuestionRequest} request
 * @param {HTMLElement} form
 * @param {HTMLElement} status
 */
function questionSection(request, form, status) {
  return h(
    'section',
    {
      class: 'approval-card question-card',
      'data-state': 'pending',
      'data-question-id': request.questionId,
      role: 'group',
      i18nAria: 'questionTitle',
      i18nVars: { tool: request.tool },
    },
    h('h3', { i18n: 'questionTitle', i18nVars: { tool: request.tool } }),
    h('p', { class: 'question-text', text: request.question }),
    form,
    status,
  );
}

/**
 * A tool's question: a line of text with its choices, or a small form when it asks with fields
 * (MCP's elicitation schemas, shown by schema-form.js, answered with `{ values }`).
 * @param {QuestionRequest} request
 */
export function questionCard(request) {
  if (request.fields !== undefined) return formCard(request, request.fields);
  const status = h('p', { class: 'approval-status', role: 'status' });
  const input = h('input', {
    type: 'text',
    class: 'question-answer',
    maxlength: '10000',
    i18nAria: 'questionAnswer',
    i18nPlaceholder: 'questionAnswer',
  });
  const choices = (request.choices ?? []).map((choice) =>
    h('button', { type: 'button', class: 'choice', text: choice, onclick: () => send(choice) }),
  );
  const submit = h('button', { type: 'submit', class: 'primary', i18n: 'questionSend' });
  const form = h(
    'form',
    { class: 'approval-actions', onsubmit: (event) => (event.preventDefault(), send(input.value)) },
    ...choices,
    input,
    submit,
  );
  const element = questionSection(request, form, status);
  /** @type {(state: string, key: MessageKey, vars?: MessageVars) => void} */
  const close = (state, key, vars) => {
    element.dataset.state = state;
    for (const control of [...choices, input, submit]) control.disabled = true;
    setText(status, key, vars);
  };

  /** @param {string} text */
  async function send(text) {
    if (element.dataset.state !== 'pending') return;
    element.dataset.state = 'sending';
    try {
      await api(`/api/approvals/${encodeURIComponent(request.questionId)}`, { method: 'POST', body: { answer: text } });
      close('answered', 'questionAnswered');
    } catch (error) {
      close('stale', 'approvalStale', { reason: errorMessage(error) });
    }
  }

  return {
    element,
    /** @param {{ answered: boolean }} event */
    settle(event) {
      if (element.dataset.state === 'pending' || element.dataset.state === 'sending')
        close(event.answered ? 'answered' : 'closed', event.answered ? 'questionAnswered' : 'questionEnded');
    },
  };
}

/**
 * @param {QuestionRequest} request
 * @param {Record<string, JsonSchema>} fields
 */
function formCard(request, fields) {
  const status = h('p', { class: 'approval-status', role: 'status' });
  const fieldsForm = schemaForm({ type: 'object', properties: fields, required: request.required ?? [] });
  const submit = h('button', { type: 'submit', class: 'primary', i18n: 'questionSend' });
  const form = h(
    'form',
    { class: 'question-form', novalidate: true, onsubmit: (event) => (event.preventDefault(), send()) },
    fieldsForm.element,
    h('div', { class: 'approval-actions' }, submit),
  );
  const element = questionSection(request, form, status);
  /** @type {(state: string, key: MessageKey, vars?: MessageVars) => void} */
  const close = (state, key, vars) => {
    element.dataset.state = state;
    const controls = /** @type {NodeListOf<HTMLInputElement>} */ (
      form.querySelectorAll('input, select, textarea, button')
    );
    for (const control of controls) control.disabled = true;
    setText(status, key, vars);
  };

  async function send() {
    if (element.dataset.state !== 'pending') return;
    const read = fieldsForm.read();
    if (read === undefined) return; // the fields say what is wrong
    element.dataset.state = 'sending';
    try {
      await api(`/api/approvals/${encodeURIComponent(request.questionId)}`, {
        method: 'POST',
        body: { values: read.params },
      });
      close('answered', 'questionAnswered');
    } catch (error) {
      // A value the service refused (400) can be corrected; anything else ends the card.
      if (/** @type {{ status?: number }} */ (error).status === 400) {
        element.dataset.state = 'pending';
        setText(status, 'questionRefused', { reason: errorMessage(error) });
      } else close('stale', 'approvalStale', { reason: errorMessage(error) });
    }
  }

  return {
    element,
    /** @param {{ answered: boolean }} event */
    settle(event) {
      if (element.dataset.state === 'pending' || element.dataset.state === 'sending')
        close(event.answered ? 'answered' : 'closed', event.answered ? 'questionAnswered' : 'questionEnded');
    },
  };
}
