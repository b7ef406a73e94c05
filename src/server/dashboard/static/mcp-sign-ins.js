// @ts-check
// The MCP servers waiting for a person to sign in (GET /api/mcp/sign-ins), as a banner above
// every page: each with its link. Fetched again when a new link is made (the `mcp-sign-in`
// event), when the tools change (a server that signed in brings its tools) and on reconnection.
import { api } from './api.js';
import { h, replace } from './dom.js';
import { onLiveEvent } from './live-events.js';

/** @typedef {{ server: string, url: string, startedAt: string }} PendingSignIn */

/** @param {HTMLElement} banner */
export function mcpSignIns(banner) {
  async function refresh() {
    /** @type {{ signIns: PendingSignIn[] }} */
    let listed;
    try {
      listed = await api('/api/mcp/sign-ins');
    } catch {
      return; // a refused token opens the sign-in box elsewhere; the banner waits for the next event
    }
    banner.hidden = listed.signIns.length === 0;
    replace(
      banner,
      ...listed.signIns.map((sign) =>
        h(
          'div',
          { class: 'approval-card mcp-sign-in' },
          h('h3', { i18n: 'mcpSignInTitle', i18nVars: { server: sign.server } }),
          h('p', { i18n: 'mcpSignInText' }),
          h('a', {
            href: sign.url,
            target: '_blank',
            rel: 'noopener noreferrer',
            i18n: 'mcpSignInOpen',
            i18nVars: { server: sign.server },
          }),
        ),
      ),
    );
  }
  onLiveEvent('mcp-sign-in', () => void refresh());
  onLiveEvent('tools-changed', () => void refresh());
  onLiveEvent('open', () => void refresh());
}
