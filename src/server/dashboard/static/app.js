// @ts-check
// The dashboard's start: the token from the address, the language, the pages (#/chat, #/tools,
// #/traces) and what they share — the service's status and the live events.
import { api, ApiError, onUnauthorized, setToken, takeTokenFromAddress } from './api.js';
import { chatPage } from './chat-page.js';
import { setText, translate } from './dom.js';
import { initialLanguage, language, onLanguageChange, setLanguage } from './i18n.js';
import { onLiveEvent, reconnectNow, startLiveEvents } from './live-events.js';
import { mcpSignIns } from './mcp-sign-ins.js';
import { toolsPage } from './tools-page.js';
import { tracesPage } from './traces-page.js';
import { tasksPage } from './tasks-page.js';

/** @import { DownloadState } from './download-panel.js' */
/**
 * What GET /api/status says (docs/server-api.md).
 * @typedef {object} Status
 * @property {string} version
 * @property {{ id: string } | null} model
 * @property {string | null} connectHint
 * @property {DownloadState} [download]
 * @property {string} language
 * @property {{ total: number, available: number }} tools
 */
/**
 * What the pages share: the service's status, and what to do when it or the traces change.
 * @typedef {object} App
 * @property {Status | null} status
 * @property {() => Promise<void>} refreshStatus
 * @property {() => void} tracesChanged
 */

setLanguage(initialLanguage()); // before the pages, which build their text in it

/** @type {App} */
const app = {
  status: null,
  async refreshStatus() {
    try {
      app.status = await api('/api/status');
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) console.error(error);
      return;
    }
    renderModelBadge();
    pages.chat.statusChanged();
  },
  tracesChanged() {
    if (currentPage === 'traces') void pages.traces.refresh();
  },
};

takeTokenFromAddress();
const pages = {
  chat: chatPage(element('page-chat'), app),
  tools: toolsPage(element('page-tools')),
  traces: tracesPage(element('page-traces')),
  tasks: tasksPage(element('page-tasks')),
};
let currentPage = '';

/**
 * An element of index.html: there, or the page cannot work at all.
 * @param {string} id
 */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`riverse dashboard: index.html has no #${id}`);
  return found;
}

function route() {
  // A link with #token=… opened in a tab that is already here changes only the hash.
  if (takeTokenFromAddress()) {
    reconnectNow();
    void app.refreshStatus();
  }
  const [, page = 'chat', ...rest] = (location.hash.replace(/^#/, '') || '/chat').split('/');
  const name = /** @type {keyof typeof pages} */ (page in pages ? page : 'chat');
  currentPage = name;
  for (const section of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.page')))
    section.hidden = section.dataset.page !== name;
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('.nav a'))) {
    if (link.dataset.page === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${document.querySelector(`.nav a[data-page="${name}"]`)?.textContent ?? ''} · Riverse`;
  closeMenu();
  pages[name].show(rest.join('/'));
}

function renderModelBadge() {
  const badge = element('model-badge');
  const model = app.status?.model;
  badge.hidden = false; // hidden until the service has said (an empty pill says nothing)
  badge.classList.toggle('none', model == null);
  if (model == null) setText(badge, 'noModel');
  else setText(badge, 'modelBadge', { id: model.id });
}

// The menu at phone widths.
const menuButton = /** @type {HTMLButtonElement} */ (document.querySelector('.menu-button'));
const nav = element('nav');
function closeMenu() {
  nav.classList.remove('open');
  menuButton.setAttribute('aria-expanded', 'false');
}
for (const link of nav.querySelectorAll('a')) link.addEventListener('click', closeMenu); // the same page again changes no hash
menuButton.addEventListener('click', () => {
  const open = !nav.classList.contains('open');
  nav.classList.toggle('open', open);
  menuButton.setAttribute('aria-expanded', String(open));
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && nav.classList.contains('open')) {
    closeMenu();
    menuButton.focus();
  }
});

// Language: the switch remembers the choice; server texts are asked for again in it.
const languageSelect = /** @type {HTMLSelectElement} */ (element('language-select'));
languageSelect.addEventListener('change', () => setLanguage(languageSelect.value, true));
onLanguageChange(() => {
  languageSelect.value = language();
  translate(document.body);
  document.title = `${document.querySelector('.nav a[aria-current="page"]')?.textContent ?? ''} · Riverse`;
  for (const page of Object.values(pages)) page.languageChanged();
  void app.refreshStatus();
});

// Sign-in: any 401 opens the box. It says a token was not accepted only when the refused request
// carried one (typed in the box, from a #token= link, or kept from before): a first visit without a
// token sees only what the box is for, however many of its first requests are refused.
const dialog = /** @type {HTMLDialogElement} */ (element('sign-in'));
const tokenInput = /** @type {HTMLInputElement} */ (element('sign-in-token'));
const signInError = element('sign-in-error');
onUnauthorized((sent) => {
  if (sent !== '') {
    signInError.hidden = false;
    setText(signInError, 'signInWrong');
  }
  if (dialog.open) return;
  dialog.showModal();
  tokenInput.focus();
});
element('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = tokenInput.value.trim();
  if (value === '') return;
  setToken(value);
  tokenInput.value = '';
  signInError.hidden = true;
  dialog.close();
  reconnectNow();
  void app.refreshStatus();
  route();
});
dialog.addEventListener('cancel', (event) => event.preventDefault()); // nothing works without it

mcpSignIns(element('mcp-sign-ins'));
onLiveEvent('model', () => void app.refreshStatus());
onLiveEvent('open', () => void app.refreshStatus());
onLiveEvent('tools-changed', () => void app.refreshStatus());

languageSelect.value = language();
translate(document.body);
window.addEventListener('hashchange', route);
route();
void app.refreshStatus();
startLiveEvents();
