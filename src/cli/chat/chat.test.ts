// `riverse chat`, run as a user runs it with input piped in: a separate process, against a real
// local OpenAI-protocol server, with the weather tool talking to a local wttr.in-like server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagesOf } from '../../assistant/turn-test-support.ts';
import { cliSetup, runRiverse, weatherModel } from '../assistant-cli-test-support.ts';
import { show } from '../cli-test-support.ts';

const TOKYO_SAYS = 'Tokyo: Partly cloudy, 16°C (feels like 14°C), humidity 63%, wind 11 km/h';

describe('riverse chat', { concurrency: true }, () => {
  it('prints the welcome, one line per tool call with its outcome, the streamed reply; /exit quits; a new process resumes the session and answers every piped line', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['chat', '--session', 's'], {
      cwd: setup.project,
      env: setup.env,
      input: "What's the weather in Tokyo and Atlantis?\n/exit\n",
    });
    assert.equal(result.code, 0, show(result));
    assert.equal(result.stderr, '');
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], 'Riverse · openai:test-model · 1 tool · session "s"');
    assert.equal(lines[1], 'Type a message; /help lists the commands, /exit quits, Ctrl+C cancels a reply.');
    assert.match(lines[2]!, /^you> ⚙ weather \{"city":"Tokyo"\} ✓ \d+\.\d\d s$/);
    // Whole when the output is no terminal (a terminal clips it to its width): the error and the duration.
    assert.match(
      lines[3]!,
      /^⚙ weather \{"city":"Atlantis"\} ✗ failed: The weather service does not know the place "Atlantis"; check the spelling .* \(\d+\.\d\d s\)$/,
    );
    assert.match(
      lines[4]!,
      /^Here is what I found\. Tokyo: Partly cloudy, 16°C .* \| Error: The weather service does not know the place "Atlantis"/,
    );
    assert.deepEqual(lines.slice(5), ['you> Bye.', '']);
    assert.equal(setup.model.requests.length, 2);
    for (const request of setup.model.requests) assert.equal(request.body.stream, true, 'chat streams the reply');

    // A new process on the same session sends the earlier conversation. Every piped line is
    // answered in turn (none is lost while a reply is written), and the end of the input ends the chat.
    const resumed = await runRiverse(['chat', '--session', 's'], {
      cwd: setup.project,
      env: setup.env,
      input: 'Thanks!\n\nSee you\nBye now\n',
    });
    assert.equal(resumed.code, 0, show(resumed));
    assert.match(
      resumed.stdout,
      /\nyou> You said: Thanks!\nyou> you> You said: See you\nyou> You said: Bye now\nyou> Bye\.\n$/,
    );
    assert.deepEqual(
      setup.model.requests.slice(2).map((request) => request.body.messages.at(-1)!.content),
      ['Thanks!', 'See you', 'Bye now'],
    );
    assert.equal(messagesOf(setup.model.requests[4]!).length, 10, 'each line is a turn of the session');
    const sent = messagesOf(setup.model.requests[2]!);
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
    );
    assert.equal(sent[0]!.content, "What's the weather in Tokyo and Atlantis?");
    assert.equal(sent[2]!.content, TOKYO_SAYS);
    assert.equal(sent[4]!.content, lines[4]);
    assert.equal(sent[5]!.content, 'Thanks!');
  });

  it('a rate-limited model request says that it waits, then the reply comes', async (t) => {
    const setup = await cliSetup(t, (request, index) =>
      index === 0
        ? { status: 429, error: 'Rate limit reached', headers: { 'retry-after': '0.2' } }
        : { text: `Answered: ${request.body.messages.at(-1)!.content}` },
    );
    const result = await runRiverse(['chat'], { cwd: setup.project, env: setup.env, input: 'Hello?\n/exit\n' });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /\nyou> \[the model is rate limited; retrying in 0\.2 s\]\nAnswered: Hello\?\nyou> Bye\.\n$/,
    );
    assert.equal(setup.model.requests.length, 2);
  });

  it('a model that keeps silent: a line after a few seconds (in the chat’s language), then the reply', async (t) => {
    const setup = await cliSetup(t, { text: '来了。', delayMs: 6_000 });
    const result = await runRiverse(['chat', '--lang', 'zh'], {
      cwd: setup.project,
      env: setup.env,
      input: '你好\n/exit\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /\n你> \[正在等待模型：5 秒；Ctrl\+C 取消\]\n来了。\n你> 再见。\n$/);
  });

  it('a tool call that runs long: a line after a few seconds naming it (in the chat’s language), then its result', async (t) => {
    const setup = await cliSetup(
      t,
      (request) =>
        request.body.messages.some((message) => message.role === 'tool')
          ? { text: '晴れです。' }
          : { toolCalls: [{ name: 'weather', arguments: { city: 'Slowtown' } }] },
      { slowMs: 4_500 },
    );
    const result = await runRiverse(['chat', '--lang', 'ja'], {
      cwd: setup.project,
      env: setup.env,
      input: '東京の天気は？\n/exit\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /\nあなた> \[weather を実行中です：3 秒。Ctrl\+C で取り消し\]\n⚙ weather \{"city":"Slowtown"\} ✓ [\d.]+ s\n晴れです。\n/u,
    );
  });

  it('a model failure and a reply cancelled with Ctrl+C are reported on stderr, and the chat goes on', async (t) => {
    let hanging = false;
    const setup = await cliSetup(
      t,
      (request, index) => {
        if (index === 0) return { status: 500, error: 'overloaded' };
        if (index === 1) {
          hanging = true;
          return { hang: true };
        }
        return { text: `Here again: ${request.body.messages.at(-1)!.content}` };
      },
      { config: 'model_options:\n  max_retries: 0\n' },
    );
    const result = await runRiverse(['chat', '--session', 'flaky'], {
      cwd: setup.project,
      env: setup.env,
      input: 'Hello?\nTell me a long story\nAre you there?\n/exit\n',
      signalWhen: { condition: () => hanging, signal: 'SIGINT' },
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stderr,
      /^error: The model could not answer: openai server error \(HTTP 500 .*overloaded\)\nCancelled\.\n$/,
    );
    assert.match(result.stdout, /you> Here again: Are you there\?\nyou> Bye\.\n$/);
    assert.equal(setup.model.requests.length, 3);
    assert.deepEqual(
      messagesOf(setup.model.requests[2]!).map((message) => message.content),
      ['Hello?', 'Tell me a long story', 'Are you there?'],
      'the questions of the failed and the cancelled turns are kept',
    );
  });
});
