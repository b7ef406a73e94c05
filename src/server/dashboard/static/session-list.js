// @ts-check
// The chat page's side panel: the sessions, newest first, each to open, rename or delete, and a
// button for a new chat; at phone widths a toggle in the conversation's head shows and hides it.
import { api, ApiError, errorMessage } from './api.js';
import { h, icon, replace, toast } from './dom.js';
import { formatTime, pluralKey, t } from './i18n.js';

/**
 * A session as GET /api/sessions lists it.
 * @typedef {{
 *   id: string, name: string, createdAt: string, updatedAt: string, language?: string, messageCount: number
 * }} SessionSummary
 */

/**
 * @param {object} chat
 * @param {() => string | null} chat.current the open session's name; null for a new chat
 * @param {(name: string) => void} chat.renamedCurrent the open session has this name now
 * @param {() => void} chat.newChat
 */
export function sessionList({ current, renamedCurrent, newChat }) {
  /** @type {SessionSummary[]} */
  let sessions = [];

  const list = h('ul', { class: 'session-list', 'aria-labelledby': 'sessions-title' });
  const element = h(
    'aside',
    { class: 'sessions', id: 'sessions-panel' },
    h(
      'div',
      { class: 'sessions-head' },
      h('h2', { id: 'sessions-title', i18n: 'sessions' }),
      h('button', {
        type: 'button',
        class: 'primary',
        onclick: () => newChat(),
        i18n: 'newChat',
        'data-action': 'new-chat',
      }),
    ),
    list,
  );
  const toggle = h('button', {
    type: 'button',
    class: 'icon sessions-toggle',
    'aria-expanded': 'false',
    'aria-controls': 'sessions-panel',
    i18n: 'sessions',
  });
  toggle.addEventListener('click', () => {
    const open = !element.classList.contains('open');
    element.classList.toggle('open', open);
    toggle.setAttribute('aria-expanded', String(open));
  });

  async function load() {
    try {
      /** @type {{ sessions?: SessionSummary[] }} */
      const result = await api('/api/sessions');
      sessions = result.sessions ?? [];
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        toast('loadFailed', { reason: errorMessage(error) }, 'error');
      return;
    }
    render();
  }

  function render() {
    replace(
      list,
      sessions.length === 0 ? h('li', { class: 'muted empty', i18n: 'noSessions' }) : null,
      sessions.map((session) => sessionItem(session)),
    );
  }

  /** @param {SessionSummary} session */
  function sessionItem(session) {
    const item = h('li', {
      class: session.name === current() ? 'session-item current' : 'session-item',
      'data-session': session.name,
    });
    const open = h(
      'button',
      {
        type: 'button',
        class: 'session-open',
        'aria-current': session.name === current() ? 'true' : undefined,
        onclick: () => (location.hash = `#/chat/${encodeURIComponent(session.name)}`),
      },
      h('span', { class: 'session-name', text: session.name }),
      h('span', {
        class: 'session-meta',
        i18n: pluralKey(session.messageCount ?? 0, 'sessionMetaOne', 'sessionMeta'),
        i18nVars: { count: session.messageCount ?? 0, when: formatTime(session.updatedAt) },
      }),
    );
    const rename = h(
      'button',
      {
        type: 'button',
        class: 'icon',
        i18nAria: 'renameSession',
        i18nTitle: 'renameSession',
        i18nVars: { name: session.name },
      },
      icon('pencil'),
    );
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'icon danger',
        i18nAria: 'deleteSession',
        i18nTitle: 'deleteSession',
        i18nVars: { name: session.name },
      },
      icon('trash'),
    );
    rename.addEventListener('click', () => startRename(item, session));
    remove.addEventListener('click', () => void deleteSession(session));
    item.append(open, h('span', { class: 'session-actions' }, rename, remove));
    return item;
  }

  /**
   * @param {HTMLLIElement} item
   * @param {SessionSummary} session
   */
  function startRename(item, session) {
    const field = h('input', {
      type: 'text',
      class: 'session-rename',
      value: session.name,
      i18nAria: 'newName',
      maxlength: 200,
    });
    let done = false;
    /** @param {boolean} save */
    const finish = async (save) => {
      if (done) return;
      done = true;
      const name = field.value.trim();
      if (save && name !== '' && name !== session.name) {
        try {
          await api(`/api/sessions/${encodeURIComponent(session.name)}`, { method: 'PATCH', body: { name } });
          if (current() === session.name) renamedCurrent(name);
        } catch (error) {
          toast({ text: errorMessage(error) }, {}, 'error');
        }
      }
      await load();
      const kept = save && name !== '' ? name : session.name;
      /** @type {HTMLButtonElement | null} */ (
        list.querySelector(`[data-session="${CSS.escape(kept)}"] .session-open`)
      )?.focus(); // the keyboard's place
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

  /** @param {SessionSummary} session */
  async function deleteSession(session) {
    if (!confirm(t('confirmDelete', { name: session.name }))) return;
    try {
      await api(`/api/sessions/${encodeURIComponent(session.name)}`, { method: 'DELETE' });
    } catch (error) {
      toast({ text: errorMessage(error) }, {}, 'error');
      return;
    }
    if (current() === session.name) location.hash = '#/chat';
    await load();
  }

  return {
    element,
    toggle,
    /** Asks for the sessions again, and shows them. */
    load,
    /** Shows them again: another one is open, or the language changed. */
    render,
    /** Hides the panel (at phone widths) once a session is open. */
    close() {
      element.classList.remove('open');
      toggle.setAttribute('aria-expanded', 'false');
    },
  };
}
