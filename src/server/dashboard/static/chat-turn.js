// @ts-check
// One turn of the chat, shown as it comes: the person's message, the reply streaming in (drawn
// once a frame), a card per tool call, the approvals and questions it waits for, and how it ended.
import { ApiError, errorMessage, isAbort, stream } from './api.js';
import { approvalCard, questionCard } from './approval-card.js';
import { h, setText } from './dom.js';
import { language } from './i18n.js';
import { renderReply } from './reply-text.js';
import { toolCallCard } from './tool-call-card.js';
import { linkNewestTurn } from './trace-link.js';

/** @import { ApprovalRequest, QuestionRequest, Settled } from './approval-card.js' */
/** @import { MessageKey } from './messages.js' */
/** @import { MessageVars } from './i18n.js' */
/** @import { CallOutcome, ToolCallCard } from './tool-call-card.js' */
/** @import { LogLine, ProgressReport } from './call-progress.js' */
/** @import { Transcript } from './transcript.js' */
/** @typedef {{ message?: string, code?: string }} EventError */
/** @typedef {'answer' | 'round-limit' | 'loop-stopped' | 'tool-calls' | 'error' | 'aborted' | 'timeout'} StopReason */
/**
 * The events of POST /api/chat by type (docs/server-api.md, "Chat events").
 * @typedef {object} ChatEvents
 * @property {{ id: string, name: string }} session
 * @property {{ text: string }} text-delta
 * @property {{ index: number, name?: string }} tool-call-delta
 * @property {{ callId: string, tool: string, params: unknown }} tool-call
 * @property {CallOutcome & { callId: string, tool: string }} tool-result
 * @property {ProgressReport & { callId: string, tool: string }} tool-progress
 * @property {LogLine & { callId: string, tool: string }} tool-log
 * @property {{ reason?: string }} retry
 * @property {{ attempt: number, delayMs?: number, error?: EventError }} model-retry
 * @property {{ seconds: number }} model-waiting
 * @property {ApprovalRequest} approval-request
 * @property {{ approvalId: string, callId?: string, decision: Settled }} approval-answered
 * @property {QuestionRequest} question
 * @property {{ questionId: string, answered: boolean }} question-ended
 * @property {{ text?: string, stopReason?: StopReason, error?: EventError }} done
 */
/** @typedef {{ [K in keyof ChatEvents]: { type: K, data: ChatEvents[K] } }[keyof ChatEvents]} ChatEvent */

/**
 * Sends `message` and shows the turn in `transcript` until it ends; never throws.
 * @param {object} turn
 * @param {string} turn.message
 * @param {string | null} turn.session the open session's name; null for a new chat
 * @param {AbortSignal} turn.signal the Stop button, or another session opened
 * @param {Transcript} turn.transcript
 * @param {() => boolean} turn.stillShown whether the transcript still shows this conversation
 * @param {(name: string) => void} turn.onSession the service says the turn's session (a new chat learns its name)
 * @param {() => void} turn.onNoModel the service has no model (any more)
 */
export async function chatTurn({ message, session, signal, transcript, stillShown, onSession, onNoModel }) {
  const log = transcript.element;
  /** @type {(key: MessageKey, vars?: MessageVars, kind?: string) => void} */
  const say = (key, vars, kind) => {
    if (stillShown()) transcript.note(key, vars, kind);
  };
  log.querySelector('.welcome')?.remove();
  log.append(h('li', { class: 'message user', text: message }));
  transcript.scroll();
  log.setAttribute('aria-busy', 'true'); // read out once the reply is whole, not word by word
  /** @type {HTMLLIElement | null} */
  let bubble = null; // the assistant's text being streamed
  let bubbleText = '';
  // biome-ignore lint/correctness/noUnusedVariables: read by `||=`, which keeps one frame pending at a time
  let drawing = 0;
  const draw = () => {
    drawing = 0;
    if (bubble !== null) renderReply(bubble, bubbleText);
  };
  /** @type {Map<number, ToolCallCard>} */
  const drafts = new Map(); // tool-call-delta index → card, until its tool-call event
  /** @type {Map<string, ToolCallCard>} */
  const cards = new Map(); // callId → card
  /** @type {Map<string, ReturnType<typeof approvalCard>>} */
  const approvals = new Map(); // approval id → its card (approval-card.js)
  /** @type {Map<string, ReturnType<typeof questionCard>>} */
  const questions = new Map(); // question id → its card
  /** @type {Map<string, string>} */
  const askedBy = new Map(); // question id → the call that asked it
  /** @type {HTMLLIElement | null} */
  let waiting = null;
  /** @type {HTMLLIElement | null} */
  let retrying = null; // one note for the model's retries, said again in place; gone when the model answers or fails
  const endRetrying = () => {
    retrying?.remove();
    retrying = null;
  };
  const textBubble = () => {
    if (bubble === null) {
      bubble = h('li', { class: 'message assistant streaming' });
      bubbleText = '';
      log.append(bubble);
    }
    return bubble;
  };
  // Drawn once a frame at most, however many pieces arrive.
  /** @param {string} text */
  const addText = (text) => {
    textBubble();
    bubbleText += text;
    drawing ||= requestAnimationFrame(draw);
  };
  /** @type {HTMLLIElement | null} */
  let lastReply = null; // links to the turn's trace once it has ended
  let sessionName = session;
  const endBubble = () => {
    if (bubble === null) return;
    draw();
    bubble.classList.remove('streaming');
    lastReply = bubble;
    bubble = null;
  };
  /** @param {{ element: HTMLElement }} card */
  const cardItem = (card) => {
    endBubble();
    log.append(h('li', {}, card.element));
  };
  let done = /** @type {ChatEvents['done'] | null} */ (null); // set by an event: not narrowed to null
  let sawText = false;

  /** @param {ChatEvent} event */
  const onEvent = ({ type, data }) => {
    if (waiting !== null && type !== 'model-waiting') {
      waiting.remove();
      waiting = null;
    }
    if (retrying !== null && type !== 'model-retry' && type !== 'retry' && type !== 'model-waiting') endRetrying();
    switch (type) {
      case 'session':
        sessionName = data.name;
        onSession(data.name);
        break;
      case 'text-delta':
        addText(data.text);
        sawText = true;
        break;
      case 'tool-call-delta':
        if (!drafts.has(data.index)) {
          const card = toolCallCard({ tool: data.name });
          drafts.set(data.index, card);
          cardItem(card);
        }
        break;
      case 'tool-call': {
        let card;
        for (const [index, draft] of [...drafts].sort((a, b) => a[0] - b[0])) {
          if (draft.tool === data.tool || draft.tool === '…') {
            card = draft;
            drafts.delete(index);
            break;
          }
        }
        if (card === undefined) {
          card = toolCallCard({ tool: data.tool });
          cardItem(card);
        }
        card.start(data);
        cards.set(data.callId, card);
        break;
      }
      case 'tool-result': {
        let card = cards.get(data.callId);
        if (card === undefined) {
          card = toolCallCard({ tool: data.tool, callId: data.callId });
          cardItem(card);
        }
        card.finish(data);
        break;
      }
      case 'tool-progress':
        cards.get(data.callId)?.progress(data);
        break;
      case 'tool-log':
        cards.get(data.callId)?.log(data);
        break;
      case 'approval-request': {
        cards.get(data.callId)?.awaitApproval();
        const card = approvalCard(data);
        approvals.set(data.approvalId, card);
        cardItem(card);
        break;
      }
      case 'question': {
        const card = questionCard(data);
        questions.set(data.questionId, card);
        askedBy.set(data.questionId, data.callId ?? '');
        cards.get(data.callId ?? '')?.awaitAnswer();
        cardItem(card);
        break;
      }
      case 'approval-answered':
        approvals.get(data.approvalId)?.settle(data);
        if (data.decision === 'approved' || data.decision === 'always') cards.get(data.callId ?? '')?.resume();
        break;
      case 'question-ended':
        questions.get(data.questionId)?.settle(data);
        cards.get(askedBy.get(data.questionId) ?? '')?.answered();
        break;
      case 'retry':
        bubble?.remove();
        bubble = null;
        bubbleText = '';
        sawText = false;
        for (const draft of drafts.values()) draft.element.closest('li')?.remove();
        drafts.clear();
        break;
      case 'model-retry': {
        const vars = {
          attempt: data.attempt,
          seconds: Math.round((data.delayMs ?? 0) / 100) / 10,
          error: data.error?.message ?? data.error?.code ?? '',
        };
        if (retrying === null) retrying = transcript.note('modelRetry', vars);
        else setText(retrying, 'modelRetry', vars);
        break;
      }
      case 'model-waiting':
        if (waiting === null) waiting = transcript.note('modelWaiting', { seconds: data.seconds });
        else setText(waiting, 'modelWaiting', { seconds: data.seconds });
        break;
      case 'done':
        done = data;
        // A model that does not stream gives its answer here; a failed turn's text repeats the error, said below once.
        if (!sawText && data.text && data.stopReason !== 'error') addText(data.text);
        break;
    }
    transcript.scroll();
  };

  try {
    await stream('/api/chat', {
      method: 'POST',
      body: { message, lang: language(), ...(session === null ? {} : { session }) },
      signal,
      // What the service sends, typed by ChatEvents; an event of another type changes nothing.
      onEvent: (type, data) => onEvent(/** @type {ChatEvent} */ ({ type, data })),
    });
    endRetrying();
    if (done === null) say('turnCut', {}, 'error');
    else if (done.error !== undefined && done.stopReason !== 'aborted')
      say(
        done.error.code === 'network' ? 'modelUnreachable' : 'turnFailed',
        { reason: done.error.message ?? done.error.code ?? '' },
        'error',
      );
    else if (done.stopReason === 'aborted') say('turnStopped');
    else if (done.stopReason === 'round-limit' || done.stopReason === 'loop-stopped')
      say(done.stopReason === 'round-limit' ? 'roundLimit' : 'loopStopped');
  } catch (error) {
    if (isAbort(error)) say('turnStopped');
    else if (error instanceof ApiError && error.code === 'no-model') {
      say('noModelYet', {}, 'error');
      onNoModel();
    } else say('turnFailed', { reason: errorMessage(error) }, 'error');
  } finally {
    endRetrying();
    endBubble();
    for (const card of [...cards.values(), ...drafts.values()]) card.abandon();
    log.removeAttribute('aria-busy');
    // The trace says how the reply was made, or why there is none (a refused request, a deadline).
    if (sessionName !== null && done !== null && stillShown()) {
      let under = /** @type {HTMLLIElement | null} */ (lastReply); // set by endBubble: not narrowed to null
      if (under === null) {
        under = h('li', { class: 'turn-trace' });
        log.append(under);
      }
      void linkNewestTurn(under, sessionName);
    }
  }
}
