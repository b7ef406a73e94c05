import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import { loadSqlite } from './load-sqlite.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { DATABASE_FILE, SqliteStore } from './sqlite-store.ts';
import { MAX_TRACES, SessionNameTakenError } from './store-records.ts';
import { storeContract } from './store-contract.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';

let root: string;
let counter = 0;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'riverse-store-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** A fresh data folder (not yet created) per test. */
const freshDir = () => join(root, `data-${++counter}`, 'nested');

storeContract('SQLite', async () => SqliteStore.open(freshDir()));

const EVERY_VARIANT: ChatMessage[] = [
  { role: 'user', content: 'What is the weather in Tokyo?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_1', name: 'weather', arguments: '{"city":"Tokyo"}' },
      { id: 'call_2', name: 'time', arguments: '{}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', name: 'weather', content: '{"temp":21}' },
  { role: 'tool', toolCallId: 'call_2', name: 'time', content: 'timed out', isError: true },
  { role: 'tool', toolCallId: 'call_3', name: 'time', content: 'ok', isError: false },
  { role: 'assistant', content: 'It is 21 °C.' },
  { role: 'assistant', content: 'none', toolCalls: [] },
  { role: 'user', content: '' },
];

function trace(sessionId: string, turnId: string, callId: string, extra: Partial<ToolCallTrace> = {}): ToolCallTrace {
  return {
    sessionId,
    turnId,
    callId,
    tool: 'weather',
    params: { city: 'Tokyo', days: 3 },
    success: true,
    data: 'sunny',
    durationMs: 12.5,
    startedAt: '2025-01-02T03:04:05.678Z',
    ...extra,
  };
}

/** Runs a script in another Node process that imports the store; resolves with its output. */
function runChild(
  script: string,
  onStdout?: (text: string) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const storeUrl = new URL('./sqlite-store.ts', import.meta.url).href;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { SqliteStore } from ${JSON.stringify(storeUrl)};\n${script}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    onStdout?.(stdout);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('SqliteStore', () => {
  it('creates the folder and the database, in WAL mode at the current schema version', async () => {
    const dir = freshDir();
    const store = SqliteStore.open(dir);
    await store.close();
    assert.ok(existsSync(join(dir, DATABASE_FILE)));

    const db = new (loadSqlite().DatabaseSync)(join(dir, DATABASE_FILE), { readOnly: true });
    assert.equal(db.prepare('PRAGMA user_version').get()?.user_version, SCHEMA_VERSION);
    assert.equal(db.prepare('PRAGMA journal_mode').get()?.journal_mode, 'wal');
    db.close();
    assert.ok(SCHEMA_VERSION >= 1);
  });

  it("watching the tool switches: another connection's set is seen at the next look, its own is not", async () => {
    const dir = freshDir();
    using a = SqliteStore.open(dir);
    using b = SqliteStore.open(dir);
    let looks = 0;
    const stop = await b.toolSwitches.watch(() => looks++, 5);
    await b.toolSwitches.set('echo', true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(looks, 0, "a process's own writes do not call it");
    await a.toolSwitches.set('weather', false);
    while (looks === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(
      [...(await b.toolSwitches.all())],
      [
        ['echo', true],
        ['weather', false],
      ],
    );
    stop();
  });

  it('migrates an existing empty database and refuses one from a newer riverse', async () => {
    const dir = freshDir();
    SqliteStore.open(dir).close();
    const db = new (loadSqlite().DatabaseSync)(join(dir, DATABASE_FILE));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    assert.throws(() => SqliteStore.open(dir), /schema version \d+, newer than this riverse/);

    // A database at version 0 (as left by an earlier riverse, or another program) is brought up to date.
    const older = freshDir();
    mkdirSync(older, { recursive: true });
    const empty = new (loadSqlite().DatabaseSync)(join(older, DATABASE_FILE));
    assert.equal(empty.prepare('PRAGMA user_version').get()?.user_version, 0);
    empty.close();
    using store = SqliteStore.open(older);
    assert.equal((await store.session('main')).name, 'main');
    const check = new (loadSqlite().DatabaseSync)(join(older, DATABASE_FILE), { readOnly: true });
    assert.equal(check.prepare('PRAGMA user_version').get()?.user_version, SCHEMA_VERSION);
    check.close();
  });

  it('gets or creates sessions by name', async () => {
    using store = SqliteStore.open(freshDir());
    assert.equal(await store.findSession('main'), undefined);
    const created = await store.session('main');
    assert.equal(created.name, 'main');
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(created.createdAt)));
    assert.equal(created.updatedAt, created.createdAt);
    assert.equal(created.language, undefined);
    assert.deepEqual(await store.session('main'), created);
    assert.deepEqual(await store.findSession('main'), created);
    assert.notEqual((await store.session('other')).id, created.id);
    await assert.rejects(async () => await store.session('  '), TypeError);
  });

  it('round-trips every message variant exactly, in order', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('main');
    await store.appendMessages(id, EVERY_VARIANT, 'turn-1');
    assert.deepStrictEqual(await store.messages(id), EVERY_VARIANT);
    // Optional fields that were absent stay absent (not undefined, not false).
    const [, , plainTool] = await store.messages(id);
    assert.ok(plainTool && !('isError' in plainTool));
    assert.ok(!('toolCalls' in (await store.messages(id))[5]!));
  });

  it('keeps order across appends, turns and sessions', async () => {
    using store = SqliteStore.open(freshDir());
    const a = (await store.session('a')).id;
    const b = (await store.session('b')).id;
    const expected: ChatMessage[] = [];
    for (let i = 0; i < 10; i++) {
      const batch: ChatMessage[] = [
        { role: 'user', content: `q${i}` },
        { role: 'assistant', content: `a${i}` },
      ];
      await store.appendMessages(a, batch, i % 2 ? `turn-${i}` : undefined);
      await store.appendMessages(b, [{ role: 'user', content: `other ${i}` }]);
      expected.push(...batch);
    }
    await store.appendMessages(a, []);
    assert.deepStrictEqual(await store.messages(a), expected);
    assert.equal((await store.messages(b)).length, 10);
    assert.deepStrictEqual(await store.messages('no-such-session'), []);
  });

  it('appends a batch all or nothing', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('main');
    await store.appendMessages(id, [{ role: 'user', content: 'kept' }]);
    const bad = [
      { role: 'user', content: 'lost 1' },
      { role: 'system', content: 'not a ChatMessage' },
      { role: 'user', content: 'lost 2' },
    ] as unknown as ChatMessage[];
    await assert.rejects(async () => await store.appendMessages(id, bad), /Message 1 \("system"\): role must be/);
    await assert.rejects(
      async () => await store.appendMessages(id, [{ role: 'tool', content: 'x' } as unknown as ChatMessage]),
      /toolCallId and name/,
    );
    await assert.rejects(
      async () => await store.appendMessages('no-such-session', [{ role: 'user', content: 'x' }]),
      /No session with id "no-such-session"/,
    );
    assert.deepStrictEqual(await store.messages(id), [{ role: 'user', content: 'kept' }]);
    // The store is still usable after a failed transaction.
    await store.appendMessages(id, [{ role: 'assistant', content: 'after' }]);
    assert.equal((await store.messages(id)).length, 2);
  });

  it('records tool-call traces and filters them by turn and limit', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('main');
    const other = (await store.session('other')).id;
    const traces = [
      trace(id, 't1', 'c1'),
      trace(id, 't1', 'c2', {
        tool: 'time',
        params: undefined,
        success: false,
        data: '',
        error: 'took too long',
        code: 'timeout',
        durationMs: 30000,
      }),
      trace(id, 't2', 'c3', { params: ['a', null, { deep: [1, 2] }], data: '東京は晴れ' }),
      trace(id, 't2', 'c4', { params: 'raw' }),
    ];
    for (const t of traces) await store.recordToolCall(t);
    await store.recordToolCall(trace(other, 't1', 'x'));

    assert.deepStrictEqual(await store.toolCalls(id), traces);
    assert.deepStrictEqual(await store.toolCalls(id, { turnId: 't1' }), traces.slice(0, 2));
    assert.deepStrictEqual(await store.toolCalls(id, { limit: 3 }), traces.slice(1));
    assert.deepStrictEqual(await store.toolCalls(id, { turnId: 't2', limit: 1 }), traces.slice(3));
    assert.deepStrictEqual(await store.toolCalls(id, { limit: 0 }), []);
    assert.deepStrictEqual(await store.toolCalls(id, { turnId: 'none' }), []);
    assert.equal((await store.toolCalls(other)).length, 1);
    assert.ok(!('error' in (await store.toolCalls(id))[0]!));
    await assert.rejects(async () => await store.toolCalls(id, { limit: -1 }), RangeError);
    await assert.rejects(
      async () => await store.recordToolCall(trace('no-such-session', 't', 'c')),
      /No session with id/,
    );
  });

  it("queues tool calls with the traces' batch: one write, read in order, a gone session's left out", async () => {
    const reported: unknown[] = [];
    using store = SqliteStore.open(freshDir(), { traceBatchMs: 3_600_000, onTraceError: (e) => reported.push(e) });
    const { id } = await store.session('queued');
    const gone = (await store.session('gone')).id;
    const queued = Array.from({ length: 5 }, (_, i) => trace(id, 't1', `q${i}`, { params: { i } }));
    for (const t of queued) store.queueToolCall(t);
    store.queueToolCall(trace(gone, 't1', 'lost'));
    await store.deleteSession('gone');
    // Another connection to the file sees nothing yet: the rows wait for the batch.
    const { DatabaseSync } = loadSqlite();
    const other = new DatabaseSync(store.file);
    const count = () => Number(other.prepare('SELECT count(*) AS n FROM tool_calls').get()?.n);
    assert.equal(count(), 0);
    // A call recorded at once writes the queue first, so the rows stay in the order the calls ran.
    const now = trace(id, 't2', 'now');
    await store.recordToolCall(now);
    assert.equal(count(), 6);
    store.queueToolCall(trace(id, 't3', 'last'));
    assert.deepStrictEqual(
      await store.toolCalls(id),
      [...queued, now, trace(id, 't3', 'last')],
      'a read writes the queue first',
    );
    assert.deepEqual(
      (await store.traces({ limit: 2 })).map((t) => t.callId),
      ['last', 'now'],
    );
    assert.equal(count(), 7, "the gone session's call was left out");
    other.close();
    assert.deepEqual(reported, []);
  });

  it('a full batch of traces is written once the event loop is free, not inside the call that filled it', async () => {
    using store = SqliteStore.open(freshDir(), { traceBatchMs: 3_600_000 });
    const { id } = await store.session('full');
    const turn = (i: number) => ({
      id: `turn-${i}`,
      traceId: '1'.repeat(32),
      sessionId: id,
      startedAt: new Date().toISOString(),
      durationMs: 1,
      outcome: 'success' as const,
      stopReason: 'answer',
      tools: [],
      spans: [],
    });
    for (let i = 0; i < 64; i++) store.turnTraces.queue(turn(i));
    assert.equal(store.turnTraces.writes, 0, 'the 64th does not write at once');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(store.turnTraces.writes, 1, 'written in the next turn of the event loop, the timer not waited for');
    assert.equal((await store.turnTraces.list({ limit: 100 })).length, 64);
  });

  it('a queued tool call that cannot be written is reported, never thrown, and the next batch is written', async () => {
    const reported: unknown[] = [];
    using store = SqliteStore.open(freshDir(), { traceBatchMs: 3_600_000, onTraceError: (e) => reported.push(e) });
    const { id } = await store.session('broken');
    const { DatabaseSync } = loadSqlite();
    const other = new DatabaseSync(store.file);
    other.exec('ALTER TABLE tool_calls RENAME TO tool_calls_away');
    store.queueToolCall(trace(id, 't1', 'c1'));
    await store.turnTraces.flush();
    assert.equal(reported.length, 1);
    assert.match(String(reported[0]), /tool_calls/);
    other.exec('ALTER TABLE tool_calls_away RENAME TO tool_calls');
    other.close();
    store.queueToolCall(trace(id, 't2', 'c2'));
    assert.deepEqual(
      (await store.toolCalls(id)).map((t) => t.callId),
      ['c2'],
      'the failed batch is dropped, the next one written',
    );
  });

  it("remembers a session's id; forgets it when the session is renamed or deleted, here or by another process", async () => {
    using store = SqliteStore.open(freshDir(), { traceBatchMs: 3_600_000 });
    const id = await store.sessionId('openai');
    assert.equal(id, (await store.session('openai')).id);
    assert.equal(await store.sessionId('openai'), id);
    await store.deleteSession('openai');
    const second = await store.sessionId('openai');
    assert.notEqual(second, id, 'deleted here: a new session');
    await store.renameSession('openai', 'kept');
    assert.notEqual(await store.sessionId('openai'), second, 'renamed here: a new session under the old name');
    // Deleted by another process: the next batch leaves the rows out, and the ids are forgotten.
    const third = await store.sessionId('openai');
    const { DatabaseSync } = loadSqlite();
    const other = new DatabaseSync(store.file);
    other.exec(`DELETE FROM sessions WHERE name = 'openai'`);
    other.close();
    assert.equal(await store.sessionId('openai'), third, 'not seen before a batch is written');
    store.queueToolCall(trace(third, 't', 'c'));
    await store.turnTraces.flush();
    const fourth = await store.sessionId('openai');
    assert.notEqual(fourth, third);
    assert.equal((await store.session('openai')).id, fourth);
  });

  it('lists sessions with message counts, and deletes them with their messages and traces', async () => {
    using store = SqliteStore.open(freshDir());
    const a = await store.session('a');
    const b = await store.session('b');
    await store.session('empty');
    await store.appendMessages(a.id, EVERY_VARIANT);
    await store.appendMessages(b.id, [{ role: 'user', content: 'hi' }]);
    await store.recordToolCall(trace(a.id, 't', 'c'));

    const listed = await store.listSessions();
    assert.deepEqual(
      listed.map(({ name, messageCount }) => ({ name, messageCount })).sort((x, y) => x.name.localeCompare(y.name)),
      [
        { name: 'a', messageCount: 4 }, // what a person reads: no tool calls, no tool results
        { name: 'b', messageCount: 1 },
        { name: 'empty', messageCount: 0 },
      ],
    );
    const listedA = listed.find((s) => s.name === 'a')!;
    assert.equal(listedA.id, a.id);
    assert.equal(listedA.createdAt, a.createdAt);
    assert.ok(listedA.updatedAt >= a.updatedAt);
    // Most recently updated first.
    assert.deepEqual(
      listed.map((s) => s.updatedAt),
      listed
        .map((s) => s.updatedAt)
        .toSorted()
        .reverse(),
    );

    assert.equal(await store.deleteSession('a'), true);
    assert.equal(await store.deleteSession('a'), false);
    assert.deepEqual((await store.listSessions()).map((s) => s.name).sort(), ['b', 'empty']);
    assert.deepStrictEqual(await store.messages(a.id), []);
    assert.deepStrictEqual(await store.toolCalls(a.id), []);
    // The name is free again, for a new session.
    assert.notEqual((await store.session('a')).id, a.id);
  });

  it('renames a session, its messages and traces going with it; a taken name is refused', async () => {
    using store = SqliteStore.open(freshDir());
    const a = await store.session('a');
    await store.session('b');
    await store.appendMessages(a.id, [{ role: 'user', content: 'hi' }]);
    await store.recordToolCall(trace(a.id, 't', 'c'));
    const renamed = await store.renameSession('a', 'Trip to Tokyo');
    assert.equal(renamed?.id, a.id);
    assert.equal(renamed?.name, 'Trip to Tokyo');
    assert.equal(await store.findSession('a'), undefined);
    assert.deepStrictEqual(await store.messages(a.id), [{ role: 'user', content: 'hi' }]);
    assert.equal((await store.traces({ session: 'Trip to Tokyo' })).length, 1);
    await assert.rejects(
      async () => await store.renameSession('Trip to Tokyo', 'b'),
      (error: unknown) =>
        error instanceof SessionNameTakenError &&
        error.code === 'session-exists' &&
        /already a session called "b"/.test(error.message),
    );
    assert.equal((await store.findSession('Trip to Tokyo'))?.id, a.id);
    assert.equal(await store.renameSession('nobody', 'x'), undefined);
    assert.equal((await store.renameSession('b', 'b'))?.name, 'b');
    await assert.rejects(async () => await store.renameSession('b', ' '), TypeError);
  });

  it('lists traces across sessions, newest first, filtered by tool, outcome, session and time, limited', async () => {
    using store = SqliteStore.open(freshDir());
    const a = (await store.session('a')).id;
    const b = (await store.session('b')).id;
    await store.recordToolCall(trace(a, 't1', 'c1', { startedAt: '2026-01-01T10:00:00.000Z' }));
    await store.recordToolCall(
      trace(a, 't1', 'c2', {
        tool: 'time',
        success: false,
        data: '',
        error: 'boom\u0000tail',
        code: 'threw',
        startedAt: '2026-01-01T11:00:00.000Z',
      }),
    );
    await store.recordToolCall(trace(b, 't2', 'c3', { startedAt: '2026-01-02T10:00:00.000Z' }));
    const calls = async (query: Parameters<typeof store.traces>[0]) =>
      (await store.traces(query)).map((found) => found.callId);
    assert.deepEqual(await calls({}), ['c3', 'c2', 'c1']);
    const [newest] = await store.traces();
    assert.equal(newest?.session, 'b');
    assert.equal(newest?.sessionId, b);
    assert.equal(typeof newest?.id, 'number');
    assert.deepEqual(await calls({ tool: 'weather' }), ['c3', 'c1']);
    assert.deepEqual(await calls({ outcome: 'failure' }), ['c2']);
    assert.equal((await store.traces({ outcome: 'failure' }))[0]?.error, 'boom\u0000tail');
    assert.deepEqual(await calls({ outcome: 'success', session: 'a' }), ['c1']);
    assert.deepEqual(await calls({ since: '2026-01-01T10:30:00Z' }), ['c3', 'c2']);
    assert.deepEqual(await calls({ until: '2026-01-01T11:00:00Z' }), ['c1']);
    // Another offset is the same instant.
    assert.deepEqual(await calls({ since: '2026-01-01T19:30:00+09:00', until: '2026-01-02' }), ['c2']);
    assert.deepEqual(await calls({ limit: 1 }), ['c3']);
    assert.deepEqual(await calls({ session: 'nobody' }), []);
    // Values are bound, not spliced into the SQL.
    assert.deepEqual(await calls({ tool: "weather' OR 1=1 --" }), []);
    await assert.rejects(
      async () => await store.traces({ limit: MAX_TRACES + 1 }),
      /limit must be a whole number from 0 to 1000/,
    );
    await assert.rejects(async () => await store.traces({ since: 'yesterday' }), /since must be an ISO 8601 time/);
  });

  it('sets and clears a session language', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('main');
    await store.setLanguage(id, 'ja');
    assert.equal((await store.session('main')).language, 'ja');
    assert.equal((await store.listSessions())[0]?.language, 'ja');
    await store.setLanguage(id, undefined);
    assert.equal((await store.session('main')).language, undefined);
    assert.ok(!('language' in (await store.session('main'))));
    await assert.rejects(async () => await store.setLanguage(id, 'fr' as 'en'), /Unknown language "fr"/);
    await assert.rejects(async () => await store.setLanguage('no-such-session', 'en'), /No session with id/);
  });

  it('keeps Chinese, Japanese, emoji and NUL characters intact', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('会話-日本語');
    const text: ChatMessage[] = [
      { role: 'user', content: '今天北京的天气怎么样？' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: '呼び出し1', name: 'weather', arguments: '{"city":"北京"}' }],
      },
      {
        role: 'tool',
        toolCallId: '呼び出し1',
        name: 'weather',
        content: '晴れ、気温は２１度です。🌤️ 𠮷野家 \u0000 nul',
      },
      { role: 'assistant', content: '北京今天晴，21°C。' },
    ];
    await store.appendMessages(id, text);
    await store.recordToolCall(
      trace(id, 't', '呼び出し1', { params: { city: '北京' }, data: '晴れ\u0000です', error: '\u0000エラー' }),
    );
    await store.close();

    using reopened = SqliteStore.open(join(store.file, '..'));
    const session = await reopened.session('会話-日本語');
    assert.equal(session.id, id);
    assert.deepStrictEqual(await reopened.messages(id), text);
    const [recorded] = await reopened.toolCalls(id);
    assert.deepEqual(recorded?.params, { city: '北京' });
    assert.equal(recorded?.data, '晴れ\u0000です');
    assert.equal(recorded?.error, '\u0000エラー');
  });

  it('keeps everything across close and reopen', async () => {
    const dir = freshDir();
    const first = SqliteStore.open(dir);
    const { id } = await first.session('main');
    await first.setLanguage(id, 'zh');
    await first.appendMessages(id, EVERY_VARIANT, 'turn-1');
    await first.recordToolCall(trace(id, 'turn-1', 'call_1'));
    const before = await first.session('main');
    await first.close();
    await first.close(); // closing twice is harmless

    using second = SqliteStore.open(dir);
    assert.deepEqual(await second.session('main'), before);
    assert.equal(before.language, 'zh');
    assert.deepStrictEqual(await second.messages(id), EVERY_VARIANT);
    assert.deepStrictEqual(await second.toolCalls(id), [trace(id, 'turn-1', 'call_1')]);
    await second.appendMessages(id, [{ role: 'user', content: 'again' }]);
    assert.equal((await second.messages(id)).length, EVERY_VARIANT.length + 1);
  });

  it('shares a session with a second process writing at the same time, and prints no warning', async () => {
    const dir = freshDir();
    using store = SqliteStore.open(dir);
    const { id } = await store.session('shared');
    const rounds = 100;

    let ready!: () => void;
    const childReady = new Promise<void>((resolve) => (ready = resolve));
    const child = runChild(
      `
      const store = SqliteStore.open(${JSON.stringify(dir)});
      const { id } = await store.session('shared');
      console.log('ready ' + id);
      for (let i = 0; i < ${rounds}; i++) {
        await store.appendMessages(id, [{ role: 'user', content: 'child ' + i }, { role: 'assistant', content: 'child reply ' + i }], 'child-turn-' + i);
        await store.recordToolCall({ sessionId: id, turnId: 'child-turn-' + i, callId: 'c' + i, tool: 'echo', params: { i }, success: true, data: '', durationMs: 1, startedAt: new Date().toISOString() });
      }
      await store.close();
      `,
      (stdout) => stdout.includes('\n') && ready(),
    );
    await Promise.race([childReady, child]);
    for (let i = 0; i < rounds; i++) {
      await store.appendMessages(id, [
        { role: 'user', content: `parent ${i}` },
        { role: 'assistant', content: `parent reply ${i}` },
      ]);
    }
    const { code, stdout, stderr } = await child;
    assert.equal(stderr, '', 'the child printed nothing on stderr (no ExperimentalWarning)');
    assert.equal(code, 0);
    assert.equal(stdout.trim(), `ready ${id}`, 'both processes found the same session');

    // The first process sees the second's messages, each batch whole and each side in order.
    const messages = await store.messages(id);
    assert.equal(messages.length, rounds * 4);
    for (const who of ['parent', 'child']) {
      const mine = messages.filter((m) => m.content.startsWith(who));
      assert.deepEqual(
        mine.map((m) => m.content),
        Array.from({ length: rounds }, (_, i) => [`${who} ${i}`, `${who} reply ${i}`]).flat(),
      );
    }
    for (let i = 0; i < messages.length; i += 2) {
      assert.equal(
        messages[i + 1]!.content,
        messages[i]!.content.replace(/^(\w+) /, '$1 reply '),
        'batches are not interleaved',
      );
    }
    assert.equal((await store.toolCalls(id)).length, rounds);
    assert.equal((await store.listSessions())[0]?.messageCount, rounds * 4);
  });

  it('drops only the SQLite ExperimentalWarning', async () => {
    const { code, stderr } = await runChild(`
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
      SqliteStore.open(${JSON.stringify(freshDir())}).close();
      process.emitWarning('something else', 'ExperimentalWarning');
    `);
    assert.equal(code, 0);
    // Our own early emission is not swallowed (the filter is active only while node:sqlite loads).
    assert.equal(stderr.match(/SQLite is an experimental feature/g)?.length, 1);
    assert.match(stderr, /ExperimentalWarning: something else/);
  });

  it('loads a 1,000-message session', async () => {
    using store = SqliteStore.open(freshDir());
    const { id } = await store.session('long');
    const messages: ChatMessage[] = Array.from({ length: 1000 }, (_, i) =>
      i % 2 ? { role: 'assistant', content: `answer ${i} `.repeat(20) } : { role: 'user', content: `question ${i}` },
    );
    for (let i = 0; i < messages.length; i += 10) await store.appendMessages(id, messages.slice(i, i + 10));
    assert.deepStrictEqual(await store.messages(id), messages);
    assert.equal((await store.listSessions())[0]?.messageCount, 1000);
  });
});
