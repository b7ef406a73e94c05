// @ts-check
// The chat page's composer: the message box (Enter sends, Shift+Enter a new line, growing with its
// text) and one button, Send, or Stop while a reply streams; both are off with no model.
import { h, setText } from './dom.js';

/**
 * @param {object} chat
 * @param {() => boolean} chat.running whether a reply streams
 * @param {(message: string) => void} chat.send
 * @param {() => void} chat.stop
 */
export function composer({ running, send, stop }) {
  const input = h('textarea', {
    id: 'chat-input',
    rows: 1,
    i18nPlaceholder: 'messagePlaceholder',
    i18nAria: 'message',
    autocomplete: 'off',
    'aria-describedby': 'composer-hint',
  });
  const sendButton = h('button', { type: 'submit', class: 'primary', i18n: 'send' });
  const element = h(
    'form',
    { class: 'composer', novalidate: true },
    input,
    h('span', { id: 'composer-hint', class: 'visually-hidden', i18n: 'composerHint' }),
    sendButton,
  );

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!running()) element.requestSubmit(); // while a reply streams, only the Stop button stops it
    }
  });
  input.addEventListener('input', () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 192)}px`;
  });
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running()) {
      stop();
      return;
    }
    const message = input.value.trim();
    if (message === '') return;
    input.value = '';
    input.style.height = '';
    send(message);
  });

  return {
    element,
    focus() {
      input.focus();
    },
    /**
     * Shows whether a reply streams, and whether there is a model to send to.
     * @param {boolean} hasModel
     */
    update(hasModel) {
      const busy = running();
      input.disabled = !hasModel && !busy;
      setText(sendButton, busy ? 'stop' : 'send');
      sendButton.classList.toggle('danger', busy);
      sendButton.disabled = !hasModel && !busy;
    },
  };
}
