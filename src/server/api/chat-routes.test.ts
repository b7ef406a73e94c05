// POST /api/chat and GET /api/status over real HTTP: a real store, real tool files, and the model
// played by the local OpenAI-protocol server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelServer, testModel } from '../../assistant/turn-test-support.ts';
import { createProbe, probeRef, toolSource } from '../../tool-runtime/test-support.ts';
import { chat, raw, sseMessages, startTestService } from '../server-test-support.ts';

const ECHO = toolSource('echo', {
  manifest: "parameters: { text: { type: 'string', required: true, description: 'what to say back' } },",
  execute: 'return ToolResult.ok(`echo: ${params.text}`);',
});

describe('GET /api/status', () => {
  it('without a model: says how to connect one, in the language asked for', async (t) => {
    const { port } = await startTestService(t, { files: { 'echo.ts': ECHO } });
    const en = await raw(port, '/api/status');
    assert.equal(en.status, 200);
    assert.equal(en.json.model, null);
    assert.equal(en.json.version, '0.0.0-test');
    assert.equal(en.json.download.state, 'idle');
    assert.deepEqual(en.json.tools, { total: 1, available: 1 });
    assert.match(en.json.connectHint, /^No model is connected\. .*RIVERSE_MODEL/);
    // Read on the chat page, beside its Download button: it does not send the reader to the chat page.
    assert.match(en.json.connectHint, /with the button below/);
    assert.doesNotMatch(en.json.connectHint, /chat page/);
    const zh = await raw(port, '/api/status', { headers: { 'accept-language': 'fr-FR, zh-CN;q=0.9, en;q=0.8' } });
    assert.match(zh.json.connectHint, /^尚未连接模型。可以用下方的按钮/);
    const ja = await raw(port, '/api/status?lang=ja', { headers: { 'accept-language': 'zh' } });
    assert.match(ja.json.connectHint, /^モデルが接続されていません。下のボタンで/);
  });

  it('with a model: names it, and has no hint', async (t) => {
    const server = await modelServer(t, { text: 'hi' });
    const { port } = await startTestService(t, { model: testModel(server) });
    const status = await raw(port, '/api/status');
    assert.deepEqual(status.json.model, { id: 'openai:test-model' });
    assert.equal(status.json.connectHint, null);
  });
});

describe('POST /api/chat', () => {
  it('streams a tool turn: session first, the call and its result, the text, done last; no messages events', async (t) => {
    const server = await modelServer(t, (_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'echo', arguments: { text: 'hello' } }] }
        : { text: 'The tool said: echo: hello' },
    );
    const { url, context } = await startTestService(t, { files: { 'echo.ts': ECHO }, model: testModel(server) });
    const reply = await chat(url, { message: 'Please echo hello for me' });
    assert.equal(reply.status, 200);
    const types = reply.events.map((message) => message.event);
    assert.equal(types[0], 'session');
    assert.equal(types.at(-1), 'done');
    assert.ok(!types.includes('messages'));
    assert.deepEqual(
      [...new Set(types)],
      ['session', 'tool-call-delta', 'tool-call', 'tool-result', 'text-delta', 'done'],
    );
    const session = reply.events[0]!.data;
    assert.equal(session.name, 'Please echo hello for me');
    assert.equal(typeof session.id, 'string');
    const call = reply.events.find((message) => message.event === 'tool-call')!.data;
    assert.deepEqual({ tool: call.tool, params: call.params }, { tool: 'echo', params: { text: 'hello' } });
    const result = reply.events.find((message) => message.event === 'tool-result')!.data;
    assert.equal(result.callId, call.callId);
    assert.equal(result.success, true);
    assert.equal(result.data, 'echo: hello');
    assert.equal(typeof result.durationMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(result.startedAt)));
    const text = reply.events
      .filter((message) => message.event === 'text-delta')
      .map((message) => message.data.text)
      .join('');
    assert.equal(text, 'The tool said: echo: hello');
    const done = reply.events.at(-1)!.data;
    assert.equal(done.text, 'The tool said: echo: hello');
    assert.equal(done.stopReason, 'answer');
    assert.equal(done.requests, 2);
    assert.equal(typeof done.usage, 'object');
    // Stored: the conversation and the trace.
    const stored = await context.store.messages(session.id);
    assert.deepEqual(
      stored.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal((await context.store.traces({ session: session.name }))[0]?.tool, 'echo');
  });

  it('continues a named session, and names new chats apart', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const { url, context } = await startTestService(t, { model: testModel(server) });
    const first = await chat(url, { message: 'hello', session: 'work' });
    const second = await chat(url, { message: 'again', session: 'work' });
    assert.equal(first.events[0]!.data.id, second.events[0]!.data.id);
    assert.equal((await context.store.messages(first.events[0]!.data.id)).length, 4);
    const long = 'a '.repeat(100);
    const titled = await chat(url, { message: long });
    assert.equal(titled.events[0]!.data.name, `${'a '.repeat(19)}a…`);
    assert.equal((await chat(url, { message: 'hello' })).events[0]!.data.name, 'hello');
    assert.equal((await chat(url, { message: 'hello' })).events[0]!.data.name, 'hello (2)');
  });

  it('without a model: 409 no-model, in the language asked for', async (t) => {
    const { url } = await startTestService(t);
    const reply = await chat(url, { message: 'hi', lang: 'zh' });
    assert.equal(reply.status, 409);
    assert.equal(reply.json.error.code, 'no-model');
    assert.match(reply.json.error.message, /^尚未连接模型/);
  });

  it('names the field at fault', async (t) => {
    const server = await modelServer(t, { text: 'ok' });
    const { url, port } = await startTestService(t, { model: testModel(server) });
    const cases: Array<[object, string, RegExp]> = [
      [{}, 'message', /"message" must be a non-empty string/],
      [{ message: '   ' }, 'message', /"message" must be a non-empty string/],
      [{ message: 'hi', session: '' }, 'session', /"session" must be a non-empty string/],
      [{ message: 'hi', session: 'x'.repeat(201) }, 'session', /at most 200 characters/],
      [{ message: 'hi', lang: 'fr' }, 'lang', /"lang" must be one of en, zh, ja/],
    ];
    for (const [body, param, message] of cases) {
      const reply = await chat(url, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.json.error.code, 'invalid-request');
      assert.equal(reply.json.error.param, param);
      assert.match(reply.json.error.message, message);
    }
    const broken = await raw(port, '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message": ',
    });
    assert.equal(broken.status, 400);
    assert.equal(broken.json.error.code, 'invalid-json');
    const list = await raw(port, '/api/chat', { method: 'POST', body: '[1]' });
    assert.equal(list.json.error.message, 'The request body must be a JSON object.');
  });

  it('cancels the turn when the client goes away, and frees the session', async (t) => {
    const probe = createProbe('chat-disconnect');
    const slow = toolSource('slow', {
      execute: `${probeRef('chat-disconnect')}.started = true;
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
      ${probeRef('chat-disconnect')}.reason = context.signal.reason?.name;
      return ToolResult.fail('stopped');`,
    });
    const server = await modelServer(t, (_request, index) =>
      index === 0 ? { toolCalls: [{ name: 'slow', arguments: {} }] } : { text: 'done' },
    );
    const { url } = await startTestService(t, { files: { 'slow.ts': slow }, model: testModel(server) });
    const controller = new AbortController();
    const response = await fetch(`${url}api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'go slow', session: 's' }),
      signal: controller.signal,
    });
    const messages = sseMessages(response);
    for (;;) {
      const { value } = await messages.next();
      if (value?.event === 'tool-call') break;
    }
    // While it runs, the session takes no second message.
    const busy = await chat(url, { message: 'me too', session: 's' });
    assert.equal(busy.status, 409);
    assert.equal(busy.json.error.code, 'session-busy');
    controller.abort();
    await messages.return(undefined).catch(() => {});
    // The tool's signal fires (the turn's cancellation reaches it), and the session is free again.
    for (let tries = 0; probe.reason === undefined && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(probe.started, true);
    assert.equal(probe.reason, 'AbortError');
    let again: Awaited<ReturnType<typeof chat>> | undefined;
    for (let tries = 0; tries < 200; tries++) {
      again = await chat(url, { message: 'after', session: 's' });
      if (again.status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(again?.status, 200);
  });
});

describe('POST /api/chat with routing', () => {
  it('a catalog past routing.max_tools offers the relevant tools and find_tools, as chat does', async (t) => {
    const seen: string[][] = [];
    const server = await modelServer(t, (request) => {
      seen.push((request.body.tools ?? []).map((tool) => tool.function.name));
      return { text: 'done' };
    });
    const files: Record<string, string> = { 'echo.ts': ECHO };
    for (const topic of ['stock', 'recipe', 'flight']) {
      files[`${topic}.ts`] = toolSource(`${topic}_lookup`, {
        manifest: `description: 'Looks up a ${topic}',`,
        execute: "return ToolResult.ok('');",
      });
    }
    const yaml = 'tools:\n  isolation: none\nrouting:\n  max_tools: 2\n';
    const { url } = await startTestService(t, { files, yaml, model: testModel(server) });
    const reply = await chat(url, { message: 'Please echo hello for me' });
    assert.equal(reply.status, 200);
    assert.equal(seen.length, 1);
    assert.ok(seen[0]!.includes('echo'), `echo offered: ${seen[0]}`);
    assert.ok(seen[0]!.includes('find_tools'), `find_tools offered: ${seen[0]}`);
    assert.ok(seen[0]!.length <= 3, `at most 2 tools and find_tools: ${seen[0]}`);
  });
});
