// @ts-check
// The chat page: sessions on the side (session-list.js), the conversation (transcript.js) with a
// turn streaming in (chat-turn.js), the composer (composer.js) and — with no model — how to
// connect one (download-panel.js). Here: which session is open, and whether a turn runs.
import { chatTurn } from './chat-turn.js';
import { composer } from './composer.js';
import { h, replace, setText, translate } from './dom.js';
import { downloadPanel } from './download-panel.js';
import { onLiveEvent } from './live-events.js';
import { sessionList } from './session-list.js';
import { transcript } from './transcript.js';

/** @import { App } from './app.js' */

/**
 * @param {HTMLElement} root
 * @param {App} app
 */
export function chatPage(root, app) {
  /** @type {string | null} */
  let current = null; // the open session's name; null for a new chat
  /** @type {AbortController | null} */
  let running = null; // while a turn streams
  let loadToken = 0;

  const sessions = sessionList({ current: () => current, renamedCurrent: named, newChat });
  const title = h('h1', { id: 'conversation-title', i18n: 'newChat' });
  const log = transcript();
  const input = composer({
    running: () => running !== null,
    send: (message) => void send(message),
    stop: () => running?.abort(),
  });
  const connect = downloadPanel(app);
  const conversation = h(
    'div',
    { class: 'conversation' },
    h('div', { class: 'conversation-head' }, sessions.toggle, title),
    connect.element,
    log.element,
    input.element,
  );
  replace(root, sessions.element, conversation);

  /**
   * The open session; the nav's Chat link leads back to it from the other pages.
   * @param {string | null} name
   */
  function setCurrent(name) {
    current = name;
    document
      .querySelector('.nav a[data-page="chat"]')
      ?.setAttribute('href', name === null ? '#/chat' : `#/chat/${encodeURIComponent(name)}`);
  }

  /**
   * The open session is called `name` now (renamed, or a new chat's first turn named it).
   * @param {string} name
   */
  function named(name) {
    setCurrent(name);
    delete title.dataset.i18n;
    title.textContent = name;
    history.replaceState(null, '', `#/chat/${encodeURIComponent(name)}`);
  }

  function updateComposer() {
    input.update(app.status?.model != null);
    connect.update(app.status);
  }

  function newChat() {
    if (location.hash === '#/chat') log.show([]);
    else location.hash = '#/chat';
    input.focus();
  }

  /**
   * Opens a session (its name), or a new chat (null).
   * @param {string | null} name
   */
  async function open(name) {
    if (running !== null && name !== current) running.abort();
    setCurrent(name);
    const ticket = ++loadToken;
    if (name === null) {
      setText(title, 'newChat');
      log.welcome();
    } else {
      delete title.dataset.i18n;
      title.textContent = name;
      if (!(await log.load(name, () => ticket === loadToken))) return;
    }
    sessions.render();
    sessions.close();
  }

  /** @param {string} message */
  async function send(message) {
    const shown = loadToken; // another session opened meanwhile: this turn's last words are not for it
    const controller = new AbortController();
    running = controller;
    updateComposer();
    try {
      await chatTurn({
        message,
        session: current,
        signal: controller.signal,
        transcript: log,
        stillShown: () => shown === loadToken,
        onSession(name) {
          if (current === name) return;
          named(name);
          void sessions.load();
        },
        onNoModel: () => void app.refreshStatus(),
      });
    } finally {
      running = null;
      updateComposer();
      void sessions.load();
      app.tracesChanged();
    }
  }

  onLiveEvent('model', () => updateComposer());
  // A task of the open conversation ended: its result joins it (and the next message's turn reads it).
  onLiveEvent('task-delivered', (delivery) => {
    if (current !== null && delivery.session === current) log.taskArrived(delivery);
  });
  // An approval asked by a turn this page does not stream (another tab, another replica): answered
  // here too. While this page streams a turn, the session is busy: its approvals are that turn's.
  onLiveEvent('approval-request', (request) => {
    if (current !== null && request.session === current && running === null)
      log.approvalElsewhere({ type: 'approval-request', ...request });
  });
  onLiveEvent('approval-answered', (answered) => log.approvalElsewhere({ type: 'approval-answered', ...answered }));
  // A question of a task's call: while this page streams the chat's turn, that stream shows it.
  onLiveEvent('task-call', ({ session, event }) => {
    if (current !== null && session === current && running === null) log.taskCall(event);
  });
  // A question asked on any replica (the store's): answered here as a task's is.
  onLiveEvent('question-request', (request) => {
    if (current !== null && request.session === current && running === null)
      log.taskCall({ type: 'question', ...request });
  });
  onLiveEvent('question-answered', (answered) => log.taskCall({ type: 'question-ended', ...answered }));

  return {
    /**
     * Called on every visit: `#/chat` or `#/chat/NAME`.
     * @param {string} rest
     */
    show(rest) {
      const name = rest === '' ? null : decodeURIComponent(rest);
      if (name !== current || log.element.childElementCount === 0) void open(name);
      void sessions.load();
      updateComposer();
    },
    statusChanged: updateComposer,
    languageChanged() {
      translate(root);
      sessions.render();
    },
  };
}
