import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskRecord } from '../tasks/task-types.ts';
import { SessionNameTakenError, type KeptTokens } from './store-records.ts';
import type { Store } from './store.ts';
import type { TurnTrace } from './turn-trace.ts';

/**
 * The behaviour every Store must have, as `node:test` tests: `sqlite-store.test.ts` runs it on
 * SQLite, the PostgreSQL store's test on PostgreSQL. `open` gives a fresh, empty store each time;
 * the tests close what they open.
 */
export function storeContract(kind: string, open: () => Promise<Store>): void {
  const withStore = (body: (store: Store) => Promise<void>) => async () => {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };

  describe(`Store contract (${kind})`, () => {
    it(
      'creates a session once by name, finds, renames, lists and deletes it',
      withStore(async (store) => {
        const a = await store.session('trip');
        assert.equal((await store.session('trip')).id, a.id, 'the same name is the same session');
        assert.equal(await store.sessionId('trip'), a.id);
        assert.equal((await store.findSession('trip'))?.id, a.id);
        assert.equal(await store.findSession('nobody'), undefined);
        await store.session('other');
        await assert.rejects(store.renameSession('trip', 'other'), SessionNameTakenError);
        assert.equal((await store.renameSession('trip', 'journey'))?.id, a.id);
        assert.equal(await store.renameSession('nobody', 'x'), undefined);
        assert.deepEqual((await store.listSessions()).map((session) => session.name).sort(), ['journey', 'other']);
        await store.setLanguage(a.id, 'ja');
        assert.equal((await store.findSession('journey'))?.language, 'ja');
        await store.setLanguage(a.id, undefined);
        assert.equal((await store.findSession('journey'))?.language, undefined);
        await assert.rejects(store.setLanguage('no-such-id', 'en'), /No session/);
        assert.equal(await store.deleteSession('journey'), true);
        assert.equal(await store.deleteSession('journey'), false);
        assert.equal(await store.findSession('journey'), undefined);
      }),
    );

    it(
      'keeps messages in order, exactly as appended, with their turns; counts what a person reads',
      withStore(async (store) => {
        const { id } = await store.session('chat');
        await store.appendMessages(id, [{ role: 'user', content: 'Weather in 東京? 🌧' }], 'turn-1');
        await store.appendMessages(
          id,
          [
            {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Tokyo"}' }],
            },
            { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'rain\u0000', isError: false },
            { role: 'assistant', content: 'Rain.' },
          ],
          'turn-1',
        );
        await store.appendMessages(id, [{ role: 'user', content: 'thanks' }]);
        assert.deepEqual(await store.messages(id), [
          { role: 'user', content: 'Weather in 東京? 🌧' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Tokyo"}' }] },
          { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'rain\u0000', isError: false },
          { role: 'assistant', content: 'Rain.' },
          { role: 'user', content: 'thanks' },
        ]);
        assert.deepEqual(await store.messageTurns(id), ['turn-1', 'turn-1', 'turn-1', 'turn-1', null]);
        assert.equal((await store.listSessions()).find((session) => session.name === 'chat')?.messageCount, 3);
        await assert.rejects(store.appendMessages('no-such-id', [{ role: 'user', content: 'x' }]), /No session/);
        // All or none: a bad message leaves the ones before it out too.
        await assert.rejects(
          store.appendMessages(id, [{ role: 'user', content: 'kept?' }, { role: 'robot', content: 'x' } as never]),
        );
        assert.equal((await store.messages(id)).length, 5);
      }),
    );

    it(
      'records tool calls now and queued, reads them in order, per turn and across sessions',
      withStore(async (store) => {
        const { id } = await store.session('tools');
        const call = (callId: string, turnId: string, success = true) => ({
          sessionId: id,
          turnId,
          callId,
          tool: 'weather',
          params: { city: 'Oslo' },
          success,
          data: success ? 'snow' : '',
          ...(success ? {} : { error: 'down', code: 'threw' as const }),
          durationMs: 12.5,
          startedAt: new Date().toISOString(),
        });
        await store.recordToolCall(call('c1', 't1'));
        store.queueToolCall(call('c2', 't2', false));
        store.queueToolCall(call('c3', 't2'));
        assert.deepEqual(
          (await store.toolCalls(id)).map((trace) => trace.callId),
          ['c1', 'c2', 'c3'],
        );
        assert.deepEqual(
          (await store.toolCalls(id, { turnId: 't2', limit: 1 })).map((trace) => trace.callId),
          ['c3'],
        );
        const [failed] = await store.traces({ outcome: 'failure' });
        assert.equal(failed?.callId, 'c2');
        assert.equal(failed?.session, 'tools');
        assert.equal(failed?.error, 'down');
        assert.deepEqual(
          (await store.traces({ session: 'tools', limit: 2 })).map((trace) => trace.callId),
          ['c3', 'c2'],
        );
        const stats = await store.toolStats({ buckets: 1 });
        assert.equal(stats.tools[0]?.tool, 'weather');
        assert.equal(stats.tools[0]?.calls, 3);
        assert.equal(stats.tools[0]?.failures, 1);
        await assert.rejects(store.recordToolCall({ ...call('c4', 't3'), sessionId: 'no-such-id' }), /No session/);
      }),
    );

    it(
      'keeps turn traces queued off the turn, lists and annotates them; runs by hand apart from sessions',
      withStore(async (store) => {
        const { id } = await store.session('traced');
        const trace: TurnTrace = {
          id: 'turn-abc1',
          traceId: '0af7651916cd43dd8448eb211c80319c',
          sessionId: id,
          startedAt: new Date().toISOString(),
          durationMs: 40,
          outcome: 'success',
          stopReason: 'answer',
          tools: ['weather'],
          spans: [
            {
              spanId: 'b7ad6b7169203331',
              kind: 'tool-call',
              name: 'execute_tool weather',
              startMs: 1,
              endMs: 2,
              status: 'ok',
              attributes: { 'gen_ai.tool.call.id': 'c1' },
            },
          ],
        };
        store.turnTraces.queue(trace);
        await store.turnTraces.flush();
        const [listed] = await store.turnTraces.list({ session: 'traced' });
        assert.equal(listed?.id, 'turn-abc1');
        assert.equal(listed?.toolCalls, 1);
        assert.equal((await store.turnTraces.get('turn-abc1'))?.session, 'traced');
        assert.equal((await store.turnTraces.get('turn'))?.id, 'turn-abc1', 'by the start of its id');
        assert.equal(
          await store.turnTraces.annotateCall('turn-abc1', 'c1', { 'riverse.task.status': 'completed' }),
          true,
        );
        assert.equal(await store.turnTraces.annotateCall('turn-abc1', 'nope', { x: 1 }), false);
        assert.equal(
          (await store.turnTraces.get('turn-abc1'))?.spans[0]?.attributes['riverse.task.status'],
          'completed',
        );
        const hand = await store.recordHandRun(
          {
            turnId: 'hand-1',
            callId: 'h1',
            tool: 'echo',
            params: {},
            success: true,
            data: 'hi',
            durationMs: 1,
            startedAt: new Date().toISOString(),
          },
          'cli',
        );
        assert.equal(hand.byHand, 'cli');
        assert.equal((await store.turnTraces.last(true))?.session, '', 'a run by hand is in no session');
        assert.equal((await store.traces({ tool: 'echo' }))[0]?.byHand, true);
        assert.deepEqual(
          (await store.listSessions()).map((session) => session.name),
          ['traced'],
        );
      }),
    );

    it(
      'approvals: pending until answered, only the first answer counts, a run begins once',
      withStore(async (store) => {
        const { id } = await store.session('approve');
        const now = Date.now();
        await store.approvals.add({
          id: 'ap-1',
          sessionId: id,
          turnId: 't1',
          callId: 'c1',
          tool: 'delete_file',
          params: { path: '/tmp/x' },
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 60_000).toISOString(),
        });
        assert.deepEqual(
          (await store.approvals.pending()).map((record) => record.id),
          ['ap-1'],
        );
        const [first, second] = await Promise.all([
          store.approvals.decide('ap-1', 'approved', { always: true }),
          store.approvals.decide('ap-1', 'denied', { reason: 'no' }),
        ]);
        assert.deepEqual([first, second], [true, false], 'the first answer counts, the second is refused');
        const decided = await store.approvals.get('ap-1');
        assert.equal(decided?.status, 'approved');
        assert.equal(decided?.always, true);
        assert.equal(decided?.reason, undefined);
        assert.deepEqual(await store.approvals.pending(), []);
        assert.deepEqual(
          (await store.approvals.approvedNotRun()).map((record) => record.id),
          ['ap-1'],
        );
        assert.equal(await store.approvals.setRun('ap-1', 'started'), true);
        assert.equal(await store.approvals.setRun('ap-1', 'started'), false, 'begun once');
        assert.equal(await store.approvals.setRun('ap-1', 'done'), true);
        assert.deepEqual(await store.approvals.approvedNotRun(), []);
        assert.equal(await store.approvals.alwaysAllowed(id, 'delete_file'), false);
        await store.approvals.allowAlways(id, 'delete_file');
        await store.approvals.allowAlways(id, 'delete_file');
        assert.equal(await store.approvals.alwaysAllowed(id, 'delete_file'), true);
        assert.equal(await store.approvals.get('nope'), undefined);
      }),
    );

    it(
      "questions: pending until settled, only the first answer counts, a form keeps its values, a dead turn's end",
      withStore(async (store) => {
        const { id } = await store.session('ask');
        const now = Date.now();
        const asked = (qid: string, turnId: string, extra: object = {}) =>
          store.questions.add({
            id: qid,
            sessionId: id,
            turnId,
            callId: `call-${qid}`,
            tool: 'ask_user',
            question: 'Which city?',
            createdAt: new Date(now).toISOString(),
            expiresAt: new Date(now + 60_000).toISOString(),
            ...extra,
          });
        await asked('q-1', 't1', { choices: ['Paris', 'Oslo'] });
        await asked('q-2', 't1', { fields: { name: { type: 'string' } }, required: ['name'] });
        await asked('q-3', 't2');
        assert.deepEqual(
          (await store.questions.pending()).map((record) => record.id),
          ['q-1', 'q-2', 'q-3'],
        );
        const [first, second] = await Promise.all([
          store.questions.settle('q-1', { status: 'answered', answer: 'Oslo' }),
          store.questions.settle('q-1', { status: 'declined' }),
        ]);
        assert.deepEqual([first, second], [true, false], 'the first answer counts, the second is refused');
        const one = await store.questions.get('q-1');
        assert.equal(one?.status, 'answered');
        assert.equal(one?.answer, 'Oslo');
        assert.deepEqual(one?.choices, ['Paris', 'Oslo']);
        assert.ok(one?.decidedAt);
        assert.equal(
          await store.questions.settle('q-2', { status: 'answered', answer: 'name: Ada', values: { name: 'Ada' } }),
          true,
        );
        const form = await store.questions.get('q-2');
        assert.deepEqual(
          [form?.fields, form?.required, form?.values],
          [{ name: { type: 'string' } }, ['name'], { name: 'Ada' }],
        );
        await asked('q-4', 't2');
        assert.equal(await store.questions.endTurn(id, 't2'), 2, 'the pending questions of that turn end');
        assert.equal((await store.questions.get('q-3'))?.status, 'ended');
        assert.equal(await store.questions.settle('q-4', { status: 'answered', answer: 'late' }), false);
        assert.deepEqual(await store.questions.pending(), []);
        assert.equal(await store.questions.get('nope'), undefined);
        await store.deleteSession('ask');
        assert.equal(await store.questions.get('q-1'), undefined, 'gone with its session');
      }),
    );

    it(
      'responses: kept, followed back as one conversation, deleted',
      withStore(async (store) => {
        const { id } = await store.session('openai');
        const createdAt = new Date().toISOString();
        await store.responses.add({
          id: 'resp_1',
          sessionId: id,
          messages: [{ role: 'user', content: 'a' }],
          body: '{"id":"resp_1"}',
          createdAt,
        });
        await store.responses.add({
          id: 'resp_2',
          sessionId: id,
          previousId: 'resp_1',
          messages: [{ role: 'assistant', content: 'b' }],
          body: '{}',
          createdAt,
        });
        assert.equal((await store.responses.get('resp_1'))?.body, '{"id":"resp_1"}');
        assert.equal((await store.responses.get('resp_2'))?.previousId, 'resp_1');
        assert.deepEqual(await store.responses.conversation('resp_2'), [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ]);
        assert.equal(await store.responses.conversation('nope'), undefined);
        assert.equal(await store.responses.delete('resp_1'), true);
        assert.equal(await store.responses.delete('resp_1'), false);
        assert.deepEqual(await store.responses.conversation('resp_2'), [{ role: 'assistant', content: 'b' }]);
        await store.deleteSession('openai');
        assert.equal(await store.responses.get('resp_2'), undefined, 'gone with its session');
      }),
    );

    it(
      'task inputs: pending until settled, the first response per key counts, asked again under its key, gone with their task',
      withStore(async (store) => {
        const now = Date.now();
        const task: TaskRecord = {
          id: 'mcp-task',
          tool: 'plan',
          callId: 'c1',
          origin: 'mcp',
          status: 'working',
          arguments: {},
          createdAt: now,
          updatedAt: now,
        };
        await store.tasks.put(task, 'host:1:1');
        const request = (message: string) => ({
          method: 'elicitation/create',
          params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
        });
        const asked = (key: string, message: string) =>
          store.taskInputs.add({
            taskId: task.id,
            key,
            request: request(message),
            createdAt: new Date(now).toISOString(),
            expiresAt: new Date(now + 60_000).toISOString(),
          });
        await asked('place', 'Where to?');
        await asked('when', 'When?');
        assert.deepEqual(
          (await store.taskInputs.pending(task.id)).map((input) => [input.key, input.request]),
          [
            ['place', request('Where to?')],
            ['when', request('When?')],
          ],
        );
        assert.deepEqual(await store.taskInputs.pending('another'), []);
        const kyoto = { action: 'accept', content: { answer: 'Kyoto' } };
        const [first, second] = await Promise.all([
          store.taskInputs.answer(task.id, 'place', kyoto),
          store.taskInputs.answer(task.id, 'place', { action: 'decline' }),
        ]);
        assert.deepEqual([first, second], [true, false], 'the first response counts, the second is refused');
        const place = await store.taskInputs.get(task.id, 'place');
        assert.deepEqual([place?.status, place?.response], ['answered', kyoto]);
        assert.ok(place?.decidedAt);
        assert.equal(await store.taskInputs.end(task.id, 'place'), false, 'an answered request is not ended');
        assert.equal(await store.taskInputs.answer(task.id, 'nope', kyoto), false, 'a key not asked takes nothing');
        await asked('place', 'Where to, now?');
        const again = await store.taskInputs.get(task.id, 'place');
        assert.deepEqual(
          [again?.status, again?.response, again?.request],
          ['pending', undefined, request('Where to, now?')],
        );
        assert.equal(await store.taskInputs.end(task.id, 'place'), true);
        assert.equal((await store.taskInputs.get(task.id, 'place'))?.status, 'ended');
        assert.equal(
          await store.taskInputs.answer(task.id, 'place', kyoto),
          false,
          'an ended request takes no response',
        );
        await asked('third', 'Anything else?');
        assert.equal(await store.taskInputs.endTask(task.id), 2, "the interrupted task's pending requests end");
        assert.deepEqual(await store.taskInputs.pending(task.id), []);
        assert.equal(await store.taskInputs.get(task.id, 'missing'), undefined);
        await store.tasks.put({ ...task, status: 'completed', updatedAt: now + 1 }, 'host:1:1');
        await store.tasks.prune(now + 10, { ttlMs: 1, maxEnded: 1_000 });
        assert.equal(await store.taskInputs.get(task.id, 'when'), undefined, 'gone with their task');
      }),
    );

    it(
      'tasks: written whole, listed newest first, an ended one never changes, delivered once, pruned',
      withStore(async (store) => {
        const base: TaskRecord = {
          id: 'task-1',
          tool: 'slow_report',
          callId: 'c1',
          sessionId: 's1',
          origin: 'turn',
          status: 'working',
          arguments: { pages: 3 },
          createdAt: 1_000,
          updatedAt: 1_000,
        };
        await store.tasks.put(base, 'host:1:1');
        await store.tasks.put({ ...base, id: 'task-2', createdAt: 2_000, updatedAt: 2_000 }, 'host:1:1');
        // Its log lines and the remote task it waits on come back as written; its runner is named.
        const logs = [{ atMs: 1_500, level: 'info' as const, message: 'page 1 of 3' }];
        const remote = { server: 'remote', tool: 'job', taskId: 'remote-7' };
        await store.tasks.put({ ...base, id: 'task-3', logs, remote }, 'host:2:2');
        const kept = await store.tasks.get('task-3');
        assert.deepEqual([kept?.logs, kept?.remote], [logs, remote]);
        assert.equal(await store.tasks.runnerOf?.('task-3'), 'host:2:2');
        assert.equal(await store.tasks.runnerOf?.('nope'), undefined);
        await store.tasks.put({ ...base, id: 'task-3', status: 'cancelled', updatedAt: 1_600 });
        await store.tasks.prune(1_700, { ttlMs: 0, maxEnded: 10 });
        assert.deepEqual(
          (await store.tasks.list()).map((task) => task.id),
          ['task-2', 'task-1'],
        );
        await store.tasks.put({
          ...base,
          status: 'completed',
          updatedAt: 3_000,
          result: { success: true, data: 'done' },
        });
        await store.tasks.put({ ...base, status: 'working', updatedAt: 4_000, progress: { progress: 9 } });
        const ended = await store.tasks.get('task-1');
        assert.equal(ended?.status, 'completed', 'an ended task is not brought back');
        assert.equal(ended?.result?.data, 'done');
        assert.deepEqual(
          (await store.tasks.undelivered('s1')).map((task) => task.id),
          ['task-1'],
        );
        assert.equal(await store.tasks.markDelivered('task-1', 5_000), true);
        assert.equal(await store.tasks.markDelivered('task-1', 5_000), false);
        assert.deepEqual(await store.tasks.undelivered('s1'), []);
        assert.deepEqual(
          [...(await store.tasks.statuses(['task-1', 'task-2', 'nope']))],
          [
            ['task-1', 'completed'],
            ['task-2', 'working'],
          ],
        );
        const interrupted = await store.tasks.interruptRunning('stopped', 6_000, (runner) => runner === 'host:1:1');
        assert.deepEqual(
          interrupted.map((task) => [task.id, task.status]),
          [['task-2', 'interrupted']],
        );
        assert.equal(await store.tasks.prune(10_000_000_000, { ttlMs: 1, maxEnded: 10 }), 2);
        assert.deepEqual(await store.tasks.list(), []);
      }),
    );

    it(
      'tool switches: set on or off, changed, cleared',
      withStore(async (store) => {
        assert.deepEqual(await store.toolSwitches.all(), new Map());
        await store.toolSwitches.set('weather', false);
        await store.toolSwitches.set('echo', true);
        await store.toolSwitches.set('weather', true);
        assert.deepEqual(
          await store.toolSwitches.all(),
          new Map([
            ['echo', true],
            ['weather', true],
          ]),
        );
        await store.toolSwitches.set('echo', undefined);
        assert.deepEqual(await store.toolSwitches.all(), new Map([['weather', true]]));
      }),
    );

    it(
      'OAuth sign-ins: a client per issuer, tokens per issuer and resource, the latest for a resource',
      withStore(async (store) => {
        const resource = 'https://mcp.example/mcp';
        assert.equal(await store.oauth.client('https://a.example'), undefined);
        await store.oauth.saveClient('https://a.example', { client_id: 'riverse-a' });
        assert.equal((await store.oauth.client('https://a.example'))?.client_id, 'riverse-a');
        const kept = (token: string, savedAt: number): KeptTokens => ({
          tokens: { access_token: token, token_type: 'Bearer', expires_in: 60 },
          savedAt,
          expiresAt: savedAt + 60_000,
        });
        await store.oauth.saveTokens('https://a.example', resource, kept('a1', 1_000));
        await store.oauth.saveTokens('https://b.example', resource, kept('b1', 2_000));
        assert.equal((await store.oauth.tokens('https://a.example', resource))?.tokens.access_token, 'a1');
        assert.deepEqual(await store.oauth.latest(resource), { ...kept('b1', 2_000), issuer: 'https://b.example' });
        await store.oauth.saveTokens('https://a.example', resource, kept('a2', 3_000));
        assert.equal((await store.oauth.latest(resource))?.issuer, 'https://a.example');
        await store.oauth.saveTokens('https://a.example', resource, undefined);
        assert.equal((await store.oauth.latest(resource))?.tokens.access_token, 'b1');
        await store.oauth.saveClient('https://a.example', undefined);
        assert.equal(await store.oauth.client('https://a.example'), undefined);
        assert.equal(await store.oauth.latest('https://other.example/mcp'), undefined);
      }),
    );
  });
}
