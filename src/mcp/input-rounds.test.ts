import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputRounds } from './input-rounds.ts';

const QUESTION = {
  mode: 'form' as const,
  message: 'Run it?',
  requestedSchema: { type: 'object' as const, properties: {} },
};
const yes = { action: 'accept', content: { approve: true } };
const round = (inputResponses?: Record<string, unknown>, state?: unknown) => ({
  ...(inputResponses === undefined ? {} : { inputResponses }),
  requestState: () => state,
});

test("a call's questions: asked one per round, answered with the state it was given, then answered from it", () => {
  const first = new InputRounds('wipe', { all: true }, round());
  assert.equal(first.approval(QUESTION), undefined);
  assert.equal(first.asking, true);
  const asked = first.result() as { inputRequests: Record<string, { method: string }>; requestState: string };
  assert.equal(asked.inputRequests.approve!.method, 'elicitation/create');

  const second = new InputRounds('wipe', { all: true }, round({ approve: yes }, asked.requestState));
  assert.deepEqual(second.approval(QUESTION), { kind: 'elicit', ...yes });
  assert.equal(second.ask(QUESTION), undefined, 'the next question is a round of its own');
  const next = second.result() as { inputRequests: Record<string, unknown>; requestState: string };
  assert.deepEqual(Object.keys(next.inputRequests), ['ask-1']);

  // The third round has both answers: the approval from the state, the ask from this round.
  const third = new InputRounds(
    'wipe',
    { all: true },
    round({ 'ask-1': { action: 'accept', content: { answer: 'x' } } }, next.requestState),
  );
  assert.equal(third.approval(QUESTION)?.kind, 'elicit');
  assert.deepEqual(third.ask(QUESTION), { kind: 'elicit', action: 'accept', content: { answer: 'x' } });
  assert.equal(third.asking, false);
});

test('an answer counts only beside a state signed for this call and for the question it asked; another state is refused', () => {
  const first = new InputRounds('wipe', { all: true }, round());
  first.approval(QUESTION);
  const { requestState } = first.result() as { requestState: string };
  // Unasked: asked again.
  const unasked = new InputRounds('wipe', { all: true }, round({ approve: yes }));
  assert.equal(unasked.approval(QUESTION), undefined);
  // Tampered with, or signed for other arguments: the protocol's error, not a fresh round.
  for (const [args, state] of [
    [{ all: true }, `${requestState.split('.')[0]}.AAAA`],
    [{ all: true }, `${requestState}-TAMPERED`],
    [{ all: false }, requestState],
  ] as const)
    assert.throws(
      () => new InputRounds('wipe', args, round({ approve: yes }, state)),
      (error: { code?: number; message?: string }) =>
        error.code === -32602 &&
        /requestState was not issued by this server for this call to wipe/.test(error.message ?? ''),
      JSON.stringify([args, state]),
    );
  // An answer under another key than the one asked is not taken either.
  const other = new InputRounds('wipe', { all: true }, round({ 'ask-1': yes }, requestState));
  assert.equal(other.ask(QUESTION), undefined);
});

test('a question named by the tool (key) is asked under that key; an answer that does not fit is asked again', () => {
  const first = new InputRounds('greet', {}, round());
  assert.equal(first.ask(QUESTION, { key: 'user_name' }), undefined);
  const asked = first.result() as { inputRequests: Record<string, unknown>; requestState: string };
  assert.deepEqual(Object.keys(asked.inputRequests), ['user_name']);

  const fits = (view: { kind: string; content?: Record<string, unknown> }) => typeof view.content?.name === 'string';
  const wrong = new InputRounds(
    'greet',
    {},
    round({ user_name: { action: 'accept', content: { name: 7 } } }, asked.requestState),
  );
  assert.equal(wrong.ask(QUESTION, { key: 'user_name', fits }), undefined);
  const again = wrong.result() as { inputRequests: Record<string, unknown>; requestState: string };
  assert.deepEqual(Object.keys(again.inputRequests), ['user_name']);

  const right = new InputRounds(
    'greet',
    {},
    round({ user_name: { action: 'accept', content: { name: 'Alice' } } }, again.requestState),
  );
  assert.deepEqual(right.ask(QUESTION, { key: 'user_name', fits }), {
    kind: 'elicit',
    action: 'accept',
    content: { name: 'Alice' },
  });
  assert.equal(right.asking, false);
});

test('requests a run makes together go in one round (a form, a sampling request, the roots), and their answers come back by kind', () => {
  const params = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hi' } }],
    maxTokens: 10,
  };
  const first = new InputRounds('greet', {}, round());
  assert.equal(first.ask(QUESTION, { key: 'user_name' }), undefined);
  assert.equal(first.sample(params), undefined);
  assert.equal(first.roots({ key: 'client_roots' }), undefined);
  const asked = first.result() as { inputRequests: Record<string, { method: string }>; requestState: string };
  assert.deepEqual(
    Object.entries(asked.inputRequests).map(([key, request]) => [key, request.method]),
    [
      ['user_name', 'elicitation/create'],
      ['sample-1', 'sampling/createMessage'],
      ['client_roots', 'roots/list'],
    ],
  );
  const reply = { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm', stopReason: 'endTurn' };
  const second = new InputRounds(
    'greet',
    {},
    round(
      {
        user_name: { action: 'accept', content: { name: 'Ada' } },
        'sample-1': reply,
        client_roots: { roots: [{ uri: 'file:///w', name: 'w' }] },
      },
      asked.requestState,
    ),
  );
  assert.equal(second.ask(QUESTION, { key: 'user_name' })?.kind, 'elicit');
  assert.deepEqual(second.sample(params), { kind: 'sampling', result: reply });
  assert.deepEqual(second.roots({ key: 'client_roots' }), { kind: 'roots', roots: [{ uri: 'file:///w', name: 'w' }] });
  assert.equal(second.asking, false);
});
