import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { followSignal } from './follow-signal.ts';

test('the controller aborts with the reason of the signal it follows', () => {
  const source = new AbortController();
  const follower = new AbortController();
  followSignal(source.signal, follower);
  const reason = new DOMException('gone', 'AbortError');
  source.abort(reason);
  assert.equal(follower.signal.aborted, true);
  assert.equal(follower.signal.reason, reason);
});

test('a signal aborted already aborts the controller at once', () => {
  const follower = new AbortController();
  followSignal(AbortSignal.abort('before'), follower);
  assert.equal(follower.signal.reason, 'before');
});

test('once unlinked, the controller no longer follows, and the signal keeps no listener of it', () => {
  const source = new AbortController();
  const follower = new AbortController();
  const unfollow = followSignal(source.signal, follower);
  assert.equal(getEventListeners(source.signal, 'abort').length, 1);
  unfollow();
  assert.equal(getEventListeners(source.signal, 'abort').length, 0);
  source.abort();
  assert.equal(follower.signal.aborted, false);
});

test('without a signal there is nothing to follow', () => {
  const follower = new AbortController();
  followSignal(undefined, follower)();
  assert.equal(follower.signal.aborted, false);
});
