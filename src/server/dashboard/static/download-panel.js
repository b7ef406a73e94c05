// @ts-check
// With no model: how to connect one (the service's hint, in the page's language), and the
// embedded default local model, downloaded with a progress bar (progress from /api/events).
import { api, errorMessage } from './api.js';
import { h, setText } from './dom.js';
import { formatBytes } from './i18n.js';
import { onLiveEvent } from './live-events.js';

/** @import { App, Status } from './app.js' */
/**
 * The default model's download (docs/server-api.md, "Download state").
 * @typedef {object} DownloadState
 * @property {'idle' | 'downloading' | 'done' | 'failed'} state
 * @property {string} [file]
 * @property {number} [receivedBytes]
 * @property {number} [totalBytes]
 * @property {number} [sizeGb]
 * @property {boolean} [loading]
 * @property {string} [error]
 * @property {string} [installCommand]
 */

/** @param {App} app */
export function downloadPanel(app) {
  const hint = h('p', { class: 'connect-hint' });
  const button = h('button', {
    type: 'button',
    class: 'primary',
    i18n: 'downloadButton',
    'data-action': 'download-model',
  });
  const offer = h('p', { class: 'muted' });
  const progress = h('progress', { max: 1, i18nAria: 'downloadProgress' });
  const progressText = h('span', { class: 'muted', 'aria-live': 'polite' });
  const progressBox = h('div', { class: 'download-progress', hidden: true }, progress, progressText);
  const problem = h('div', { class: 'notice error', role: 'alert', hidden: true });
  const install = h('div', { class: 'notice warn', hidden: true });
  const element = h(
    'section',
    { class: 'connect-panel card', 'aria-labelledby': 'connect-title', hidden: true, 'data-panel': 'connect' },
    h('h2', { id: 'connect-title', i18n: 'connectTitle' }),
    hint,
    h('h3', { i18n: 'localModelTitle' }),
    offer,
    install,
    h('div', { class: 'download-row' }, button),
    progressBox,
    problem,
  );
  /** @type {DownloadState} */
  let download = { state: 'idle' };
  /** @type {Status | null} */
  let status = null;

  button.addEventListener('click', async () => {
    button.disabled = true;
    problem.hidden = true;
    try {
      await api('/api/model/download', { method: 'POST' });
      render({ ...download, state: 'downloading', receivedBytes: 0, totalBytes: 0 });
    } catch (error) {
      button.disabled = false;
      problem.hidden = false;
      problem.textContent = errorMessage(error);
    }
  });

  onLiveEvent('model-download', (state) => render(state));

  /** @param {DownloadState | undefined} state */
  function render(state) {
    const before = download.state;
    download = state ?? { state: 'idle' };
    const received = Number(download.receivedBytes) || 0;
    const total = Number(download.totalBytes) || 0;
    setText(offer, 'localModelOffer', {
      file: download.file ?? 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
      size: download.sizeGb === undefined ? '1.1 GB' : `${download.sizeGb} GB`,
    });
    if (download.installCommand) {
      install.hidden = false;
      install.replaceChildren(h('p', { i18n: 'runtimeMissing' }), h('pre', { text: download.installCommand }));
    } else install.hidden = true;
    const busy = download.state === 'downloading';
    button.disabled = busy || Boolean(download.installCommand);
    setText(button, download.state === 'failed' ? 'downloadAgain' : 'downloadButton');
    progressBox.hidden = !busy && download.state !== 'done';
    if (total > 0) {
      progress.max = total;
      progress.value = Math.min(received, total);
    } else progress.removeAttribute('value'); // not known yet: the bar shows it is busy
    if (busy && download.loading) setText(progressText, 'loadingModel');
    else if (download.state === 'done') setText(progressText, 'downloadDone');
    else if (total > 0)
      setText(progressText, 'downloadProgressText', {
        received: formatBytes(received),
        total: formatBytes(total),
        percent: Math.floor((received / total) * 100),
      });
    else setText(progressText, 'downloadStarting');
    problem.hidden = download.state !== 'failed';
    if (download.state === 'failed')
      problem.replaceChildren(h('strong', { i18n: 'downloadFailed' }), ' ', download.error ?? '');
    // The model event may come before or after this one; asking once makes sure the page knows.
    if (download.state === 'done' && before !== 'done' && status?.model == null) void app.refreshStatus();
  }

  return {
    element,
    /** @param {Status | null} next */
    update(next) {
      status = next;
      element.hidden = next === null || next.model != null;
      hint.textContent = next?.connectHint ?? '';
      if (next?.download) render(next.download);
    },
  };
}
