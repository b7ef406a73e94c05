// @ts-check
// A reply's link to its turn's trace on the traces page (#/traces/<turn id>): why was it slow,
// what did it call. The live chat learns its turn's id from the newest trace of its session.
import { api } from './api.js';
import { h } from './dom.js';

/**
 * @param {string} turnId
 * @param {boolean} [replied] whether the turn has a reply (the link is under it), else it says what happened
 */
export function traceLink(turnId, replied = true) {
  return h('a', {
    class: 'reply-trace',
    href: `#/traces/${encodeURIComponent(turnId)}`,
    'data-turn': turnId,
    i18n: replied ? 'replyTrace' : 'turnTrace',
  });
}

/**
 * Adds the link of `session`'s newest turn under `reply`, once the service has its trace (a turn
 * just ended: its trace is the newest of the session, one turn at a time). Nothing when it has none.
 * @param {HTMLElement} reply
 * @param {string} session
 */
export async function linkNewestTurn(reply, session) {
  try {
    const { traces } = /** @type {{ traces?: { id: string }[] }} */ (
      await api(`/api/traces/turns?session=${encodeURIComponent(session)}&limit=1`)
    );
    const newest = traces?.[0];
    // A turn whose trace could not be written must not take the one before it: that one is linked already.
    const taken =
      newest === undefined || document.querySelector(`.reply-trace[data-turn="${CSS.escape(newest.id)}"]`) !== null;
    if (!taken && reply.querySelector('.reply-trace') === null)
      reply.append(traceLink(newest.id, !reply.classList.contains('turn-trace')));
  } catch {
    // no link: the reply is whole without it
  }
}
