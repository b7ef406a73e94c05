// The dashboard's start: the token from the address, the language, the pages (#/chat, #/tools,
// #/traces) and what they share — the service's status and the live events.
import { api, ApiError, onUnauthorized, setToken, takeTokenFromAddress } from './api.js';
import { chatPage } from './chat-page.js';
import { setText, translate } from './dom.js';
import { initialLanguage, language, onLanguageChange, setLanguage } from './i18n.js';
import { onLiveEvent, reconnectNow, startLiveEvents } from './live-events.js';
import { toolsPage } from './tools-page.js';
import { tracesPage } from './traces-page.js';

setLanguage(initialLanguage()); // before the pages, which build their text in it

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
  chat: chatPage(document.getElementById('page-chat'), app),
  tools: toolsPage(document.getElementById('page-tools')),
  traces: tracesPage(document.getElementById('page-traces')),
};
let currentPage = '';

function route() {
  // A link with #token=… opened in a tab that is already here changes only the hash.
  if (takeTokenFromAddress()) {
    reconnectNow();
    void app.refreshStatus();
  }
  const [, page = 'chat', ...rest] = (location.hash.replace(/^#/, '') || '/chat').split('/');
  const name = page in pages ? page : 'chat';
  currentPage = name;
  for (const section of document.querySelectorAll('.page')) section.hidden = section.dataset.page !== name;
  for (const link of document.querySelectorAll('.nav a')) {
    if (link.dataset.page === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${document.querySelector(`.nav a[data-page="${name}"]`)?.textContent ?? ''} · Riverse`;
  closeMenu();
  pages[name].show(rest.join('/'));
}

function renderModelBadge() {
  const badge = document.getElementById('model-badge');
  const model = app.status?.model;
  badge.classList.toggle('none', model == null);
  if (model == null) setText(badge, 'noModel');
  else setText(badge, 'modelBadge', { id: model.id });
}

// The menu at phone widths.
const menuButton = document.querySelector('.menu-button');
const nav = document.getElementById('nav');
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
const languageSelect = document.getElementById('language-select');
languageSelect.addEventListener('change', () => setLanguage(languageSelect.value, true));
onLanguageChange(() => {
  languageSelect.value = language();
  translate(document.body);
  document.title = `${document.querySelector('.nav a[aria-current="page"]')?.textContent ?? ''} · Riverse`;
  for (const page of Object.values(pages)) page.languageChanged();
  void app.refreshStatus();
});

// Sign-in: any 401 opens the box; a new token retries everything.
const dialog = document.getElementById('sign-in');
const tokenInput = document.getElementById('sign-in-token');
const signInError = document.getElementById('sign-in-error');
let signInShown = false;
onUnauthorized(() => {
  if (dialog.open) {
    if (signInShown) {
      signInError.hidden = false;
      setText(signInError, 'signInWrong');
    }
    return;
  }
  signInShown = true;
  dialog.showModal();
  tokenInput.focus();
});
document.getElementById('sign-in-form').addEventListener('submit', (event) => {
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

onLiveEvent('model', () => void app.refreshStatus());
onLiveEvent('open', () => void app.refreshStatus());
onLiveEvent('tools-changed', () => void app.refreshStatus());

languageSelect.value = language();
translate(document.body);
window.addEventListener('hashchange', route);
route();
void app.refreshStatus();
startLiveEvents();
