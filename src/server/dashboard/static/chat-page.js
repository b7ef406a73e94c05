// The chat page: sessions on the side (switch, resume, rename, delete, new), the conversation
// with the reply streaming in and a card per tool call, and — with no model — how to connect one.
import { api, ApiError, stream } from './api.js';
import { h, icon, replace, setText, toast, translate } from './dom.js';
import { downloadPanel } from './download-panel.js';
import { formatTime, language, t } from './i18n.js';
import { onLiveEvent } from './live-events.js';
import { renderReply } from './reply-text.js';
import { toolCallCard } from './tool-call-card.js';
import { approvalCard, pendingApprovalCards, questionCard } from './approval-card.js';

export function chatPage(root, app) {
  let sessions = [];
  let current = null; // the open session's name; null for a new chat
  let running = null; // { controller } while a turn streams
  let loadToken = 0;

  const sessionList = h('ul', { class: 'session-list', 'aria-labelledby': 'sessions-title' });
  const sessionsPanel = h(
    'aside',
    { class: 'sessions', id: 'sessions-panel' },
    h('div', { class: 'sessions-head' }, h('h2', { id: 'sessions-title', i18n: 'sessions' }), h('button', { type: 'button', class: 'primary', onclick: () => newChat(), i18n: 'newChat', 'data-action': 'new-chat' })),
    sessionList,
  );
  const toggle = h('button', { type: 'button', class: 'icon sessions-toggle', 'aria-expanded': 'false', 'aria-controls': 'sessions-panel', i18n: 'sessions' });
  toggle.addEventListener('click', () => {
    const open = !sessionsPanel.classList.contains('open');
    sessionsPanel.classList.toggle('open', open);
    toggle.setAttribute('aria-expanded', String(open));
  });
  const title = h('h1', { id: 'conversation-title', i18n: 'newChat' });
  const transcript = h('ol', { class: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'conversation-title' });
  const input = h('textarea', { id: 'chat-input', rows: 1, i18nPlaceholder: 'messagePlaceholder', i18nAria: 'message', autocomplete: 'off', 'aria-describedby': 'composer-hint' });
  const sendButton = h('button', { type: 'submit', class: 'primary', i18n: 'send' });
  const composer = h('form', { class: 'composer', novalidate: true }, input, h('span', { id: 'composer-hint', class: 'visually-hidden', i18n: 'composerHint' }), sendButton);
  const connect = downloadPanel(app);
  const conversation = h('div', { class: 'conversation' }, h('div', { class: 'conversation-head' }, toggle, title), connect.element, transcript, composer);
  replace(root, sessionsPanel, conversation);

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (running === null) composer.requestSubmit(); // while a reply streams, only the Stop button stops it
    }
  });
  input.addEventListener('input', () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 192)}px`;
  });
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running !== null) {
      running.controller.abort();
      return;
    }
    const message = input.value.trim();
    if (message === '') return;
    input.value = '';
    input.style.height = '';
    void send(message);
  });

  /** The open session; the nav's Chat link leads back to it from the other pages. */
  function setCurrent(name) {
    current = name;
    document.querySelector('.nav a[data-page="chat"]')?.setAttribute('href', name === null ? '#/chat' : `#/chat/${encodeURIComponent(name)}`);
  }

  function updateComposer() {
    const hasModel = app.status?.model != null;
    input.disabled = !hasModel && running === null;
    setText(sendButton, running === null ? 'send' : 'stop');
    sendButton.classList.toggle('danger', running !== null);
    sendButton.disabled = !hasModel && running === null;
    connect.update(app.status);
  }

  function reply(text) {
    const item = h('li', { class: 'message assistant' });
    renderReply(item, text);
    return item;
  }

  function welcome() {
    return h('li', { class: 'welcome' }, h('h2', { i18n: 'welcomeTitle' }), h('p', { i18n: 'welcomeText' }));
  }

  function note(key, vars, kind = '') {
    const item = h('li', { class: `message note ${kind}`.trim(), i18n: key, i18nVars: vars });
    transcript.append(item);
    scroll();
    return item;
  }

  function scroll() {
    transcript.scrollTop = transcript.scrollHeight;
  }

  async function loadSessions() {
    try {
      const result = await api('/api/sessions');
      sessions = result.sessions ?? [];
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) toast(t('loadFailed', { reason: error.message }), 'error');
      return;
    }
    renderSessions();
  }

  function renderSessions() {
    replace(
      sessionList,
      sessions.length === 0 ? h('li', { class: 'muted empty', i18n: 'noSessions' }) : null,
      sessions.map((session) => sessionItem(session)),
    );
  }

  function sessionItem(session) {
    const item = h('li', { class: session.name === current ? 'session-item current' : 'session-item', 'data-session': session.name });
    const open = h(
      'button',
      { type: 'button', class: 'session-open', 'aria-current': session.name === current ? 'true' : undefined, onclick: () => (location.hash = `#/chat/${encodeURIComponent(session.name)}`) },
      h('span', { class: 'session-name', text: session.name }),
      h('span', { class: 'session-meta', i18n: 'sessionMeta', i18nVars: { count: session.messageCount ?? 0, when: formatTime(session.updatedAt) } }),
    );
    const rename = h('button', { type: 'button', class: 'icon', i18nAria: 'renameSession', i18nTitle: 'renameSession', i18nVars: { name: session.name } }, icon('pencil'));
    const remove = h('button', { type: 'button', class: 'icon danger', i18nAria: 'deleteSession', i18nTitle: 'deleteSession', i18nVars: { name: session.name } }, icon('trash'));
    rename.addEventListener('click', () => startRename(item, session));
    remove.addEventListener('click', () => void deleteSession(session));
    item.append(open, h('span', { class: 'session-actions' }, rename, remove));
    return item;
  }

  function startRename(item, session) {
    const field = h('input', { type: 'text', class: 'session-rename', value: session.name, i18nAria: 'newName', maxlength: 200 });
    let done = false;
    const finish = async (save) => {
      if (done) return;
      done = true;
      const name = field.value.trim();
      if (save && name !== '' && name !== session.name) {
        try {
          await api(`/api/sessions/${encodeURIComponent(session.name)}`, { method: 'PATCH', body: { name } });
          if (current === session.name) {
            setCurrent(name);
            history.replaceState(null, '', `#/chat/${encodeURIComponent(name)}`);
            title.textContent = name;
            delete title.dataset.i18n;
          }
        } catch (error) {
          toast(error.message, 'error');
        }
      }
      await loadSessions();
      const kept = save && name !== '' ? name : session.name;
      sessionList.querySelector(`[data-session="${CSS.escape(kept)}"] .session-open`)?.focus(); // the keyboard's place
    };
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') void finish(true);
      if (event.key === 'Escape') void finish(false);
    });
    field.addEventListener('blur', () => void finish(true));
    item.replaceChildren(field);
    field.focus();
    field.select();
  }

  async function deleteSession(session) {
    if (!confirm(t('confirmDelete', { name: session.name }))) return;
    try {
      await api(`/api/sessions/${encodeURIComponent(session.name)}`, { method: 'DELETE' });
    } catch (error) {
      toast(error.message, 'error');
      return;
    }
    if (current === session.name) location.hash = '#/chat';
    await loadSessions();
  }

  function newChat() {
    if (location.hash === '#/chat') show([]);
    else location.hash = '#/chat';
    input.focus();
  }

  /** Opens a session (its name), or a new chat (null). */
  async function open(name) {
    if (running !== null && name !== current) running.controller.abort();
    setCurrent(name);
    const ticket = ++loadToken;
    if (name === null) {
      setText(title, 'newChat');
      replace(transcript, welcome());
    } else {
      delete title.dataset.i18n;
      title.textContent = name;
      replace(transcript, h('li', { class: 'message note', i18n: 'loading' }));
      try {
        const [session, traces, pending] = await Promise.all([
          api(`/api/sessions/${encodeURIComponent(name)}`),
          api(`/api/traces?session=${encodeURIComponent(name)}&limit=1000`).catch(() => ({ traces: [] })),
          api('/api/approvals').catch(() => ({ approvals: [] })),
        ]);
        if (ticket !== loadToken) return;
        renderHistory(session.messages ?? [], traces.traces ?? []);
        // Calls of this session still waiting for an answer (the page was reloaded, the service restarted).
        for (const card of pendingApprovalCards(pending.approvals ?? [], session.session?.id)) transcript.append(h('li', {}, card.element));
      } catch (error) {
        if (ticket !== loadToken) return;
        replace(transcript);
        note(error instanceof ApiError && error.status === 404 ? 'sessionNotFound' : 'loadFailed', { name, reason: error.message }, 'error');
      }
    }
    renderSessions();
    sessionsPanel.classList.remove('open');
    toggle.setAttribute('aria-expanded', 'false');
  }

  function show(items) {
    replace(transcript, items.length === 0 ? welcome() : items);
  }

  function renderHistory(messages, traces) {
    const byCall = new Map(traces.map((trace) => [trace.callId, trace]));
    const cards = new Map();
    const items = [];
    for (const message of messages) {
      if (message.role === 'user') items.push(h('li', { class: 'message user', text: message.content }));
      else if (message.role === 'assistant') {
        if (message.content) items.push(reply(message.content));
        for (const call of message.toolCalls ?? []) {
          const card = toolCallCard({ tool: call.name, callId: call.id });
          card.start({ callId: call.id, tool: call.name, params: parseArguments(call.arguments) });
          const trace = byCall.get(call.id);
          if (trace !== undefined) card.finish(trace);
          cards.set(call.id, card);
          items.push(h('li', {}, card.element));
        }
      } else if (message.role === 'tool') {
        const card = cards.get(message.toolCallId);
        if (card !== undefined && card.element.dataset.state === 'running') card.finish({ success: message.isError !== true, data: message.content, error: message.isError === true ? message.content : undefined });
      }
    }
    for (const card of cards.values()) card.abandon();
    show(items);
    scroll();
  }

  async function send(message) {
    const shown = loadToken; // another session opened meanwhile: this turn's last words are not for it
    const say = (key, vars, kind) => {
      if (shown === loadToken) note(key, vars, kind);
    };
    transcript.querySelector('.welcome')?.remove();
    transcript.append(h('li', { class: 'message user', text: message }));
    scroll();
    const controller = new AbortController();
    running = { controller };
    transcript.setAttribute('aria-busy', 'true'); // read out once the reply is whole, not word by word
    updateComposer();
    let bubble = null; // the assistant's text being streamed
    let bubbleText = '';
    let drawing = 0;
    const draw = () => {
      drawing = 0;
      if (bubble !== null) renderReply(bubble, bubbleText);
    };
    const drafts = new Map(); // tool-call-delta index → card, until its tool-call event
    const cards = new Map(); // callId → card
    const asks = new Map(); // approval or question id → its card (approval-card.js)
    let waiting = null;
    const textBubble = () => {
      if (bubble === null) {
        bubble = h('li', { class: 'message assistant streaming' });
        bubbleText = '';
        transcript.append(bubble);
      }
      return bubble;
    };
    // Drawn once a frame at most, however many pieces arrive.
    const addText = (text) => {
      textBubble();
      bubbleText += text;
      drawing ||= requestAnimationFrame(draw);
    };
    const endBubble = () => {
      if (bubble === null) return;
      draw();
      bubble.classList.remove('streaming');
      bubble = null;
    };
    const cardItem = (card) => {
      endBubble();
      transcript.append(h('li', {}, card.element));
    };
    let done = null;
    let sawText = false;
    try {
      await stream('/api/chat', {
        method: 'POST',
        body: { message, lang: language(), ...(current === null ? {} : { session: current }) },
        signal: controller.signal,
        onEvent(type, data) {
          if (waiting !== null && type !== 'model-waiting') {
            waiting.remove();
            waiting = null;
          }
          switch (type) {
            case 'session':
              if (current !== data.name) {
                setCurrent(data.name);
                delete title.dataset.i18n;
                title.textContent = data.name;
                history.replaceState(null, '', `#/chat/${encodeURIComponent(data.name)}`);
                void loadSessions();
              }
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
            case 'approval-request':
            case 'question': {
              const card = type === 'question' ? questionCard(data) : approvalCard(data);
              asks.set(type === 'question' ? data.questionId : data.approvalId, card);
              cardItem(card);
              break;
            }
            case 'approval-answered':
              asks.get(data.approvalId)?.settle(data);
              break;
            case 'question-ended':
              asks.get(data.questionId)?.settle(data);
              break;
            case 'retry':
              bubble?.remove();
              bubble = null;
              bubbleText = '';
              sawText = false;
              for (const draft of drafts.values()) draft.element.closest('li')?.remove();
              drafts.clear();
              break;
            case 'model-retry':
              say('modelRetry', { attempt: data.attempt, seconds: Math.round((data.delayMs ?? 0) / 100) / 10, error: data.error?.message ?? data.error?.code ?? '' });
              break;
            case 'model-waiting':
              if (waiting === null) waiting = note('modelWaiting', { seconds: data.seconds });
              else setText(waiting, 'modelWaiting', { seconds: data.seconds });
              break;
            case 'done':
              done = data;
              if (!sawText && data.text) addText(data.text); // a model that does not stream
              break;
          }
          scroll();
        },
      });
      if (done === null) say('turnCut', {}, 'error');
      else if (done.error !== undefined && done.stopReason !== 'aborted') say('turnFailed', { reason: done.error.message ?? done.error.code ?? '' }, 'error');
      else if (done.stopReason === 'aborted') say('turnStopped');
      else if (done.stopReason === 'round-limit' || done.stopReason === 'loop-stopped') say(done.stopReason === 'round-limit' ? 'roundLimit' : 'loopStopped');
    } catch (error) {
      if (error?.name === 'AbortError') say('turnStopped');
      else if (error instanceof ApiError && error.code === 'no-model') {
        say('noModelYet', {}, 'error');
        void app.refreshStatus();
      } else say('turnFailed', { reason: error.message }, 'error');
    } finally {
      endBubble();
      for (const card of [...cards.values(), ...drafts.values()]) card.abandon();
      transcript.removeAttribute('aria-busy');
      running = null;
      updateComposer();
      void loadSessions();
      app.tracesChanged();
    }
  }

  onLiveEvent('model', () => updateComposer());

  return {
    /** Called on every visit: `#/chat` or `#/chat/NAME`. */
    show(rest) {
      const name = rest === '' ? null : decodeURIComponent(rest);
      if (name !== current || transcript.childElementCount === 0) void open(name);
      void loadSessions();
      updateComposer();
    },
    statusChanged: updateComposer,
    languageChanged() {
      translate(root);
      renderSessions();
    },
  };
}

function parseArguments(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
