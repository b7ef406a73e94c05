import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignIns, type PendingSignIn } from './sign-ins.ts';

test('a sign-in link is told to the listeners, listed, and ended by the loopback page only with its own state', async (t) => {
  const signIns = new SignIns();
  t.after(() => signIns.close());
  const port = await signIns.listen();
  assert.equal(signIns.redirectUrl, `http://127.0.0.1:${port}/callback`);
  const heard: PendingSignIn[] = [];
  signIns.onSignIn((sign) => heard.push(sign));
  const state = signIns.newState();
  signIns.begin('notes', new URL(`https://auth.example/authorize?state=${state}`), state);
  assert.deepEqual(
    heard.map((sign) => [sign.server, sign.url]),
    [['notes', `https://auth.example/authorize?state=${state}`]],
  );
  assert.equal(signIns.pending().length, 1);
  const waiting = signIns.wait(state);

  const forged = await fetch(`${signIns.redirectUrl}?code=x&state=other`, { headers: { 'accept-language': 'ja' } });
  assert.equal(forged.status, 404);
  assert.match(await forged.text(), /Riverse が待っているものではありません/);
  assert.equal(signIns.pending().length, 1, 'an answer for another sign-in ends none');

  const page = await fetch(`${signIns.redirectUrl}?code=abc&state=${state}&iss=https%3A%2F%2Fauth.example`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Signed in to notes/);
  const params = await waiting;
  assert.equal(params.get('code'), 'abc');
  assert.equal(params.get('iss'), 'https://auth.example');
  assert.deepEqual(signIns.pending(), []);
  assert.equal(signIns.stateOf('notes'), undefined);
});

test('a newer link for the same server replaces the older; closing the server ends its sign-in', async () => {
  const signIns = new SignIns();
  const first = signIns.newState();
  signIns.begin('notes', new URL('https://auth.example/a'), first);
  const older = signIns.wait(first);
  const second = signIns.newState();
  signIns.begin('notes', new URL('https://auth.example/b'), second);
  await assert.rejects(older, /a newer sign-in link for notes replaced this one/);
  assert.deepEqual(
    signIns.pending().map((sign) => sign.url),
    ['https://auth.example/b'],
  );
  const newer = signIns.wait(second);
  signIns.cancel('notes');
  await assert.rejects(newer, /notes was closed/);
  await signIns.close();
});
