// Approvals over real HTTP: the approval-request event of POST /api/chat, GET /api/approvals and
// POST /api/approvals/:id, a restart of the service between the request and the answer, and /v1's
// server-side tools judged by the official openai client. A tool that appends to a file says
// whether it ran.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig } from '../../config/load-config.ts';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer, type ReplyHandler } from '../../models/testing/openai-wire.ts';
import { SqliteStore } from '../../store/sqlite-store.ts';
import { LiveToolRegistry } from '../../tool-runtime/live-registry.ts';
import { tempDir, toolSource, writeFiles, type Cleanup } from '../../tool-runtime/test-support.ts';
import { logLines } from '../../assistant/turn-test-support.ts';
import { openaiService } from '../openai/openai-test-support.ts';
import { startServer } from '../serve.ts';
import { serverOptions } from '../server-config.ts';
import { createServerContext } from '../server-context.ts';
import { raw, sseMessages, startTestService, type SseMessage } from '../server-test-support.ts';

const NOTE = toolSource('write_note', {
  header: "import { appendFileSync } from 'node:fs';",
  manifest: "parameters: { text: { type: 'string', required: true, description: 'the note' } }, approval: 'always',",
  execute:
    "appendFileSync(context.config.log_file, params.text + '\\n'); return ToolResult.ok('written: ' + params.text);",
});

const yamlFor = (log: string, extra = '') =>
  `tools:\n  isolation: none\n  write_note:\n    log_file: ${JSON.stringify(log)}\n${extra}`;

/** The model: a call to write_note with `text`, then an answer once a result is in the conversation. */
const noteModel =
  (text: string): ReplyHandler =>
  (request) =>
    request.body.messages.some((message) => message.role === 'tool')
      ? { text: `Result: ${String(request.body.messages.at(-1)?.content)}` }
      : { toolCalls: [{ name: 'write_note', arguments: { text }, id: 'call_note' }] };

/** POST /api/chat, its events read as they come; `until` waits for one. */
async function openChat(t: Cleanup, url: string, body: object, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  t.after(() => controller.abort());
  const response = await fetch(`${url}api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const messages = sseMessages(response);
  const seen: SseMessage[] = [];
  return {
    seen,
    close: () => controller.abort(),
    async until(event: string): Promise<SseMessage> {
      for (;;) {
        const { value, done } = await messages.next();
        if (done === true)
          throw new Error(`the chat ended before "${event}": ${seen.map((message) => message.event).join(' ')}`);
        seen.push(value);
        if (value.event === event) return value;
      }
    },
  };
}

async function streamedText(
  chunks: AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>,
): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

const post = (port: number, path: string, body: object, headers: Record<string, string> = {}) =>
  raw(port, path, { method: 'POST', body, headers });

describe('approvals over the API', () => {
  it('approval-request in the chat stream, listed by GET /api/approvals, approved by POST: then the call runs', async (t) => {
    const model = await startOpenAITestServer(noteModel('buy milk'));
    t.after(() => model.close());
    const dir = await tempDir(t);
    const log = join(dir, 'notes.log');
    const { url, port } = await startTestService(t, {
      files: { 'note.ts': NOTE },
      yaml: yamlFor(log),
      model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
    });
    assert.equal(
      (await raw(port, '/api/tools/write_note')).json.approval,
      'always',
      'the tool view says it asks first',
    );
    const chat = await openChat(t, url, { message: 'note: buy milk', session: 'notes' });
    const request = (await chat.until('approval-request')).data;
    assert.deepEqual(
      { callId: request.callId, tool: request.tool, params: request.params },
      { callId: 'call_note', tool: 'write_note', params: { text: 'buy milk' } },
    );
    const listed = await raw(port, '/api/approvals');
    assert.deepEqual(
      listed.json.approvals.map((entry: any) => [entry.kind, entry.id, entry.tool]),
      [['approval', request.approvalId, 'write_note']],
    );
    assert.deepEqual(logLines(log), []);

    // Refused, deciding nothing: a bad decision, an unknown id, changed parameters, another call's id.
    assert.equal(
      (await post(port, `/api/approvals/${request.approvalId}`, { decision: 'yes' })).json.error.code,
      'invalid-request',
    );
    assert.equal((await post(port, '/api/approvals/nope', { decision: 'approve' })).status, 404);
    const changed = await post(port, `/api/approvals/${request.approvalId}`, {
      decision: 'approve',
      params: { text: 'buy beer' },
    });
    assert.deepEqual([changed.status, changed.json.error.code], [409, 'approval-mismatch']);
    assert.equal(
      (await post(port, `/api/approvals/${request.approvalId}`, { decision: 'approve', callId: 'call_other' })).json
        .error.code,
      'approval-mismatch',
    );
    // State-changing: a page of another origin may not answer.
    assert.equal(
      (
        await post(
          port,
          `/api/approvals/${request.approvalId}`,
          { decision: 'approve' },
          { origin: 'https://evil.example' },
        )
      ).status,
      403,
    );
    assert.deepEqual(logLines(log), []);

    const approved = await post(port, `/api/approvals/${request.approvalId}`, {
      decision: 'approve',
      callId: 'call_note',
      tool: 'write_note',
      params: { text: 'buy milk' },
    });
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.json.approval, {
      id: request.approvalId,
      callId: 'call_note',
      tool: 'write_note',
      status: 'approved',
      always: false,
    });
    const answered = await chat.until('approval-answered');
    assert.equal(answered.data.decision, 'approved');
    const result = (await chat.until('tool-result')).data;
    assert.equal(result.data, 'written: buy milk');
    await chat.until('done');
    assert.deepEqual(logLines(log), ['buy milk']);
    assert.equal(
      (await post(port, `/api/approvals/${request.approvalId}`, { decision: 'deny' })).json.error.code,
      'not-pending',
      'answered once',
    );
    assert.deepEqual((await raw(port, '/api/approvals')).json.approvals, []);
  });

  it('denied with a reason: the tool-result says denied with the reason, and nothing is written', async (t) => {
    const model = await startOpenAITestServer(noteModel('rm -rf'));
    t.after(() => model.close());
    const dir = await tempDir(t);
    const log = join(dir, 'notes.log');
    const { url, port } = await startTestService(t, {
      files: { 'note.ts': NOTE },
      yaml: yamlFor(log),
      model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
    });
    const chat = await openChat(t, url, { message: 'note it' });
    const request = (await chat.until('approval-request')).data;
    assert.equal(
      (await post(port, `/api/approvals/${request.approvalId}`, { decision: 'deny', reason: 'looks dangerous' }))
        .status,
      200,
    );
    const result = (await chat.until('tool-result')).data;
    assert.equal(result.code, 'denied');
    assert.match(result.error, /Their reason: "looks dangerous"/);
    await chat.until('done');
    assert.deepEqual(logLines(log), []);
  });

  it('a restart of the service between the request and the answer: still pending after it, approved then, the call runs once', async (t) => {
    const model = await startOpenAITestServer(noteModel('survive'));
    t.after(() => model.close());
    const dir = await tempDir(t);
    const log = join(dir, 'notes.log');
    await writeFiles(join(dir, 'agent', 'tools'), { 'note.ts': NOTE });
    const yaml = yamlFor(log);
    await writeFiles(dir, { 'riverse.yaml': yaml });
    const start = async () => {
      const config = parseConfig(yaml, join(dir, 'riverse.yaml'));
      const tools = await LiveToolRegistry.open({ config, baseDir: dir, watch: false });
      const store = SqliteStore.open(join(dir, 'data'));
      const context = createServerContext({
        tools,
        store,
        config: { config, baseDir: dir, file: join(dir, 'riverse.yaml') },
        model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
        dataDir: join(dir, 'data'),
        version: '0',
      });
      const server = await startServer(context, serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}));
      const stop = async () => {
        await server.close();
        await store.close();
        await tools.close();
      };
      return { server, stop };
    };
    const first = await start();
    const chat = await openChat(t, first.server.url, { message: 'note it', session: 'restart' });
    const request = (await chat.until('approval-request')).data;
    await first.stop();

    const second = await start();
    t.after(() => second.stop());
    const pending = (await raw(second.server.port, '/api/approvals')).json.approvals;
    assert.deepEqual(
      pending.map((entry: any) => [entry.id, entry.callId, entry.params]),
      [[request.approvalId, 'call_note', { text: 'survive' }]],
    );
    assert.deepEqual(logLines(log), []);
    const approved = await post(second.server.port, `/api/approvals/${request.approvalId}`, { decision: 'approve' });
    assert.equal(approved.json.result.data, 'written: survive');
    assert.deepEqual(logLines(log), ['survive']);
    // The conversation goes on from the call's real result.
    const next = await openChat(t, second.server.url, { message: 'and?', session: 'restart' });
    await next.until('done');
    const resent = model.requests.at(-1)!.body.messages.find((message) => message.role === 'tool');
    assert.equal(resent?.content, 'written: survive');
  });
});

describe('questions over the API', () => {
  it("a tool's question (context.ask) is a question event, listed, and answered by POST /api/approvals/:id { answer }", async (t) => {
    const ASK = toolSource('pick', {
      execute:
        "const answer = await context.ask('Which one?', { choices: ['red', 'blue'] }); return ToolResult.ok(answer.answered ? 'picked ' + answer.text : 'no answer');",
    });
    const model = await startOpenAITestServer((request) =>
      request.body.messages.some((message) => message.role === 'tool')
        ? { text: 'ok' }
        : { toolCalls: [{ name: 'pick', arguments: {} }] },
    );
    t.after(() => model.close());
    const { url, port } = await startTestService(t, {
      files: { 'pick.ts': ASK },
      model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
    });
    const chat = await openChat(t, url, { message: 'pick one' });
    const question = (await chat.until('question')).data;
    assert.deepEqual(
      { tool: question.tool, question: question.question, choices: question.choices },
      { tool: 'pick', question: 'Which one?', choices: ['red', 'blue'] },
    );
    assert.deepEqual(
      (await raw(port, '/api/approvals')).json.approvals.map((entry: any) => [entry.kind, entry.id]),
      [['question', question.questionId]],
    );
    assert.equal(
      (await post(port, `/api/approvals/${question.questionId}`, { decision: 'approve' })).json.error.code,
      'invalid-request',
      'a question takes an answer',
    );
    assert.equal((await post(port, `/api/approvals/${question.questionId}`, { answer: 'blue' })).status, 200);
    assert.equal((await chat.until('tool-result')).data.data, 'picked blue');
    await chat.until('done');
  });

  for (const isolation of ['process', 'worker'])
    it(`a form (context.ask with fields, the tool in a ${isolation} host): the event carries the fields, the answer is { values } checked against them`, async (t) => {
      const FORM = toolSource('book', {
        execute: [
          "const answer = await context.ask('Book a table', {",
          "  fields: { name: { type: 'string', title: 'Name' }, guests: { type: 'integer', minimum: 1, maximum: 8, default: 2 },",
          "    room: { type: 'string', enum: ['inside', 'terrace'] }, dog: { type: 'boolean', default: false } },",
          "  required: ['name', 'room'],",
          '});',
          "return ToolResult.ok(answer.answered ? JSON.stringify(answer.values) + ' | ' + answer.text : 'no answer: ' + answer.reason);",
        ].join('\n'),
      });
      const model = await startOpenAITestServer((request) =>
        request.body.messages.some((message) => message.role === 'tool')
          ? { text: 'ok' }
          : { toolCalls: [{ name: 'book', arguments: {} }] },
      );
      t.after(() => model.close());
      const { url, port } = await startTestService(t, {
        files: { 'book.ts': FORM },
        yaml: `tools:\n  isolation: ${isolation}\n`,
        model: createOpenAICompatibleModel({ model: 'm', baseUrl: model.url, apiKey: 'k', maxRetries: 0 }),
      });
      const chat = await openChat(t, url, { message: 'book a table' });
      const question = (await chat.until('question')).data;
      assert.deepEqual(Object.keys(question.fields), ['name', 'guests', 'room', 'dog']);
      assert.deepEqual(question.fields.guests, { type: 'integer', minimum: 1, maximum: 8, default: 2 });
      assert.deepEqual(question.required, ['name', 'room']);
      const listed = (await raw(port, '/api/approvals')).json.approvals[0];
      assert.deepEqual(listed.fields.room, { type: 'string', enum: ['inside', 'terrace'] });
      const answer = (body: object) => post(port, `/api/approvals/${question.questionId}`, body);
      const text = await answer({ answer: 'Ada' });
      assert.equal(text.status, 400);
      assert.match(
        text.json.error.message,
        /is a form: answer with "values", an object of its fields \(name, guests, room, dog\)/,
      );
      const wrong = await answer({ values: { name: 'Ada', room: 'roof' } });
      assert.equal(wrong.status, 400);
      assert.match(wrong.json.error.message, /does not fit: "room" must be one of inside, terrace/);
      assert.equal(wrong.json.error.param, 'values');
      const right = await answer({ values: { name: 'Ada', room: 'terrace' } });
      assert.equal(right.status, 200);
      assert.deepEqual(right.json.question.values, { name: 'Ada', guests: 2, room: 'terrace', dog: false });
      assert.equal(
        (await chat.until('tool-result')).data.data,
        '{"name":"Ada","guests":2,"room":"terrace","dog":false} | name: Ada; guests: 2; room: terrace; dog: false',
      );
      await chat.until('done');
    });
});

describe('approvals over /v1', () => {
  const v1 = async (t: Cleanup, extra: string) => {
    const dir = await tempDir(t);
    const log = join(dir, 'notes.log');
    const { client, model, service } = await openaiService(t, noteModel('from v1'), {
      files: { 'note.ts': NOTE },
      yaml: yamlFor(log, extra),
    });
    return { log, client, model, service };
  };

  for (const stream of [false, true]) {
    it(`our tool that needs approval is refused by default (${stream ? 'streaming' : 'not streaming'}): the model reads approval-unavailable, nothing runs`, async (t) => {
      const { log, client, model } = await v1(t, '');
      const text = stream
        ? await streamedText(
            await client.chat.completions.create({
              model: 'riverse',
              stream: true,
              messages: [{ role: 'user', content: 'note' }],
            }),
          )
        : (await client.chat.completions.create({ model: 'riverse', messages: [{ role: 'user', content: 'note' }] }))
            .choices[0]!.message.content;
      assert.match(String(text), /needs a person's approval, and no one can be asked here/);
      assert.deepEqual(logLines(log), []);
      assert.equal(model.requests.length, 2);
    });
  }

  it('server.v1_approvals: allow runs it; ask waits for an answer through /api/approvals', async (t) => {
    const allow = await v1(t, 'server:\n  v1_approvals: allow\n');
    await allow.client.chat.completions.create({ model: 'riverse', messages: [{ role: 'user', content: 'note' }] });
    assert.deepEqual(logLines(allow.log), ['from v1']);

    const ask = await v1(t, 'server:\n  v1_approvals: ask\n');
    const completion = ask.client.chat.completions.create({
      model: 'riverse',
      messages: [{ role: 'user', content: 'note' }],
    });
    let pending: any[] = [];
    for (let tries = 0; pending.length === 0 && tries < 500; tries++) {
      pending = (await raw(ask.service.port, '/api/approvals')).json.approvals;
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(pending.length, 1, 'the /v1 call waits, listed');
    await post(ask.service.port, `/api/approvals/${pending[0].id}`, { decision: 'approve' });
    const answer = await completion;
    assert.match(String(answer.choices[0]!.message.content), /written: from v1/);
    assert.deepEqual(logLines(ask.log), ['from v1']);
  });
});
