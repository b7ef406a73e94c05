// `riverse ask`, run as a user runs it: a separate process, against a real local OpenAI-protocol
// server, with the weather tool of the project folder talking to a local wttr.in-like server.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { messagesOf } from '../../assistant/turn-test-support.ts';
import { cliSetup, runRiverse, weatherModel } from '../assistant-cli-test-support.ts';
import { parseJson, show } from '../cli-test-support.ts';

const TOKYO_SAYS = 'Tokyo: Partly cloudy, 16°C (feels like 14°C), humidity 63%, wind 11 km/h';

describe('riverse ask', { concurrency: true }, () => {
  it('prints the reply on stdout and exits 0', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['ask', "What's the weather in Tokyo?"], { cwd: setup.project, env: setup.env });
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stdout, `Here is what I found. ${TOKYO_SAYS}\n`);
    assert.equal(result.stderr, '');
    assert.equal(setup.model.requests.length, 2);
    assert.deepEqual(setup.wttr.requests, [{ city: 'Tokyo', lang: 'en' }]);
    assert.equal(setup.model.requests[0]!.headers.authorization, 'Bearer k');
    assert.equal(setup.model.requests[0]!.body.model, 'test-model');
    assert.equal(existsSync(join(setup.dataDir, 'riverse.db')), false, 'without --session nothing is kept');
  });

  it('--json prints the whole trace: model, text, tool calls, messages, requests (--lang ja, the question unquoted)', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['ask', '--json', '--lang', 'ja', 'Weather', 'in', 'Tokyo', 'and', 'Atlantis?'], {
      cwd: setup.project,
      env: setup.env,
    });
    assert.equal(result.code, 0, show(result));
    const first = setup.model.requests[0]!.body.messages;
    assert.deepEqual(first[1], { role: 'user', content: 'Weather in Tokyo and Atlantis?' }, 'the words are joined');
    assert.ok(String(first[0]!.content).startsWith('あなたは Riverse'), '--lang ja: the assistant speaks Japanese');
    const trace = parseJson(result);
    assert.equal(trace.model, 'openai:test-model');
    assert.equal(trace.stopReason, 'answer');
    assert.equal(trace.requests, 2);
    assert.match(trace.text, /^Here is what I found\./);
    assert.deepEqual(
      trace.toolCalls.map((call: any) => [call.tool, call.params, call.result.success]),
      [
        ['weather', { city: 'Tokyo' }, true],
        ['weather', { city: 'Atlantis' }, false],
      ],
    );
    assert.equal(trace.toolCalls[0].result.data, 'Tokyo：所により曇り、16°C（体感 14°C）、湿度 63%、風速 11 km/h');
    assert.match(
      trace.toolCalls[1].result.error,
      /「Atlantis」という場所を知りません/,
      'the tool speaks the turn’s language',
    );
    for (const call of trace.toolCalls)
      assert.match(String(call.durationMs), /^\d+(\.\d)?$/, 'durations to a tenth of a millisecond');
    assert.deepEqual(
      trace.messages.map((message: any) => message.role),
      ['user', 'assistant', 'tool', 'tool', 'assistant'],
    );
    assert.ok(trace.usage.inputTokens > 0);
  });

  it('with no model configured, exits 2 and says exactly what to set', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['ask', 'Hello?'], {
      cwd: setup.project,
      env: { RIVERSE_DATA_DIR: setup.dataDir },
    });
    assert.equal(result.code, 2, show(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: No model is configured\. Set RIVERSE_MODEL/);
    assert.match(result.stderr, /RIVERSE_MODEL=openai:gpt-4\.1-mini +with OPENAI_API_KEY=/);
    assert.match(result.stderr, /OPENAI_BASE_URL/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(setup.model.requests.length, 0);
    // In Japanese, every line of it: the heading, the hints, the tail.
    const ja = await runRiverse(['ask', 'Hello?', '--lang', 'ja'], {
      cwd: setup.project,
      env: { RIVERSE_DATA_DIR: setup.dataDir },
    });
    assert.equal(ja.code, 2, show(ja));
    assert.match(ja.stderr, /^エラー：モデルが設定されていません。RIVERSE_MODEL を設定してください。例：\n/);
    assert.match(ja.stderr, /RIVERSE_MODEL=openai:gpt-4\.1-mini +OPENAI_API_KEY=sk-… を設定して/);
    assert.match(ja.stderr, /^ {2}その他のプロバイダー：openai, /m);
    assert.doesNotMatch(ja.stderr, /No model|with OPENAI_API_KEY|other providers/);
  });

  it('a server error exits 1 with the error on stderr', async (t) => {
    const setup = await cliSetup(
      t,
      { status: 500, error: 'the GPUs are on fire' },
      { config: 'model_options:\n  max_retries: 0\n' },
    );
    const result = await runRiverse(['ask', 'Hello?'], { cwd: setup.project, env: setup.env });
    assert.equal(result.code, 1, show(result));
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^error: The model could not answer: openai server error \(HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1: the GPUs are on fire\)\n$/,
    );
    assert.equal(setup.model.requests.length, 1, 'model_options.max_retries: 0 is obeyed');
  });

  it('a session survives a process restart: the second process sends the first exchange', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const first = await runRiverse(['ask', '--session', 'trip', 'Weather in Tokyo?'], {
      cwd: setup.project,
      env: setup.env,
    });
    assert.equal(first.code, 0, show(first));
    assert.ok(existsSync(join(setup.dataDir, 'riverse.db')), 'the session is kept in RIVERSE_DATA_DIR');
    const second = await runRiverse(['ask', '--session', 'trip', 'Thanks! Should I take an umbrella?'], {
      cwd: setup.project,
      env: setup.env,
    });
    assert.equal(second.code, 0, show(second));
    assert.equal(second.stdout, 'You said: Thanks! Should I take an umbrella?\n');

    assert.equal(setup.model.requests.length, 3);
    const sent = messagesOf(setup.model.requests[2]!);
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.equal(sent[0]!.content, 'Weather in Tokyo?');
    assert.equal(sent[1]!.tool_calls?.[0]?.function?.name, 'weather');
    assert.equal(sent[2]!.tool_call_id, sent[1]!.tool_calls?.[0]?.id);
    assert.equal(sent[2]!.content, TOKYO_SAYS);
    assert.equal(sent[3]!.content, first.stdout.trimEnd());
    assert.equal(sent[4]!.content, 'Thanks! Should I take an umbrella?');
  });

  it('a process killed during a tool call leaves a session the next process can still use', async (t) => {
    const setup = await cliSetup(t, weatherModel, { slowMs: 60_000 });
    const killed = await runRiverse(['ask', '--session', 'crash', 'Weather in Slowtown?'], {
      cwd: setup.project,
      env: setup.env,
      signalWhen: { condition: () => setup.wttr.requests.length > 0, signal: 'SIGTERM' },
    });
    assert.equal(killed.signal, 'SIGTERM', show(killed));

    const next = await runRiverse(['ask', '--session', 'crash', 'Hello again'], { cwd: setup.project, env: setup.env });
    assert.equal(next.code, 0, show(next));
    const sent = setup.model.requests.at(-1)!.body.messages;
    // An OpenAI server rejects a history with a tool call left without its result (HTTP 400).
    for (const [index, message] of sent.entries()) {
      for (const [offset, call] of (message.tool_calls ?? []).entries()) {
        const answer = sent[index + 1 + offset];
        assert.ok(
          answer?.role === 'tool' && answer.tool_call_id === call.id,
          `tool call ${call.id} has no result in ${JSON.stringify(sent, null, 1)}`,
        );
      }
    }
    assert.deepEqual(sent.at(-1), { role: 'user', content: 'Hello again' });
  });
});
