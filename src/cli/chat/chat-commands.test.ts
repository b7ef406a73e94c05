// `riverse chat`'s own commands, its recap of a resumed session and what it says when tools are
// saved, run as a user runs them: a separate process, input piped in, against a real local
// OpenAI-protocol server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliSetup, runRiverse, weatherModel } from '../assistant-cli-test-support.ts';
import { CLI, show } from '../cli-test-support.ts';

describe('riverse chat: commands, resuming, saves', { concurrency: true }, () => {
  it('/help, /tools, /session and an unknown /word are answered locally; a line that only starts with "/" is a message', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['chat', '--session', 'cmd'], {
      cwd: setup.project,
      env: setup.env,
      input: '/help\n/tools\n/xyz\n/session\n/etc/hosts is a file?\n/exit\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /you> Commands \(anything else is sent to the assistant\):\n {2}\/help +this list\n {2}\/tools +the tools: available, or why not\n {2}\/session +this session; \/session NAME switches/,
    );
    assert.match(result.stdout, /\nyou> {3}weather +available\n/);
    assert.match(result.stdout, /\nyou> There is no command \/xyz; nothing was sent\.\nCommands/);
    assert.match(result.stdout, /\nyou> This is session "cmd" \(the current one\): new, no messages yet\.\n/);
    assert.match(result.stdout, /\nyou> You said: \/etc\/hosts is a file\?\n/);
    assert.deepEqual(
      setup.model.requests.map((request) => request.body.messages.at(-1)!.content),
      ['/etc/hosts is a file?'],
      'only the message reached the model',
    );
  });

  it('a resumed session says so, with its last exchange; /session NAME switches to another', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const first = await runRiverse(['chat', '--session', 'trip'], {
      cwd: setup.project,
      env: setup.env,
      input: 'Weather in Tokyo?\n',
    });
    assert.equal(first.code, 0, show(first));
    assert.doesNotMatch(first.stdout, /Resuming/, 'a new session has nothing to resume');
    const again = await runRiverse(['chat', '--session', 'trip'], {
      cwd: setup.project,
      env: setup.env,
      input: '/session\n/session other\nHello\n/session trip\n',
    });
    assert.equal(again.code, 0, show(again));
    const lines = again.stdout.split('\n');
    assert.match(lines[2]!, /^Resuming session "trip": 2 messages, the last on \d{4}-\d\d-\d\d \d\d:\d\d\.$/);
    assert.equal(lines[3], '  you: Weather in Tokyo?');
    assert.match(lines[4]!, /^ {2}riverse: Here is what I found\. Tokyo: Partly cloudy/);
    // Asked about the session it is in, the chat does not claim to resume it.
    assert.match(again.stdout, /you> This is session "trip" \(the current one\): 2 messages, the last on /);
    assert.match(
      again.stdout,
      /you> Session "other": new, no messages yet\.\nyou> You said: Hello\nyou> Resuming session "trip": 2 messages/,
    );
    assert.deepEqual(
      setup.model.requests.at(-1)!.body.messages.map((message) => message.role),
      ['system', 'user'],
      "the message after /session other went to the new session, without trip's history",
    );
  });

  it("speaks the chat's language (--lang ja)", async (t) => {
    const setup = await cliSetup(t, weatherModel);
    const result = await runRiverse(['chat', '--lang', 'ja'], {
      cwd: setup.project,
      env: setup.env,
      input: '/tools\n/nope\n',
    });
    assert.match(result.stdout, /あなた> {3}weather +使用可能\n/);
    assert.match(
      result.stdout,
      /あなた> \/nope というコマンドはありません。何も送信していません。\nコマンド（それ以外はアシスタントに送られます）：\n/,
    );
    assert.equal(setup.model.requests.length, 0);
  });

  it('a save is told once, for the file saved: not for the files a helper change reloaded, not once per write', async (t) => {
    const setup = await cliSetup(t, weatherModel);
    await writeFile(join(setup.project, 'agent/tools/_shared.ts'), "export const GREETING = 'Hi';\n");
    await writeFile(join(setup.project, 'agent/tools/hello.ts'), helloTool('Says hi'));
    const child = spawn(process.execPath, [CLI, 'chat'], {
      cwd: setup.project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...setup.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    t.after(() => child.kill('SIGKILL'));
    await until(() => stdout.includes('you> '));
    // A helper changes: both tool files are reloaded, neither changed.
    await writeFile(join(setup.project, 'agent/tools/_shared.ts'), "export const GREETING = 'Hello';\n");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The tool file is saved, written twice as editors do.
    await writeFile(join(setup.project, 'agent/tools/hello.ts'), helloTool('Says hello'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await writeFile(join(setup.project, 'agent/tools/hello.ts'), helloTool('Says hello'));
    await until(() => stderr.includes('hello.ts'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.stdin.end('/exit\n');
    assert.equal(await closed, 0, stderr);
    assert.equal(stderr, `↻ agent/tools/hello.ts changed (hello) — run \`npx riverse tools check\` for details\n`);
  });

  it("a save that breaks a tool file is told with its error, in one line, in the chat's language", async (t) => {
    const setup = await cliSetup(t, weatherModel);
    await writeFile(join(setup.project, 'agent/tools/_shared.ts'), "export const GREETING = 'Hi';\n");
    await writeFile(join(setup.project, 'agent/tools/hello.ts'), helloTool('Says hi'));
    const child = spawn(process.execPath, [CLI, 'chat', '--lang', 'ja'], {
      cwd: setup.project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...setup.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    t.after(() => child.kill('SIGKILL'));
    await until(() => stdout.includes('あなた> '));
    await writeFile(
      join(setup.project, 'agent/tools/hello.ts'),
      helloTool('Says hi').replace('execute() {', 'execute( {'),
    );
    await until(() => stderr.includes('hello.ts'));
    child.stdin.end('/exit\n');
    assert.equal(await closed, 0, stderr);
    assert.match(
      stderr,
      /^↻ agent\/tools\/hello\.ts:\d+:\d+ にエラーがあります。最後に動いた版を使い続けます（hello）：\[syntax-error\] 構文エラー：.+\n$/,
    );
    assert.doesNotMatch(stderr, /tools check/);
  });
});

function helloTool(description: string): string {
  return `import { BaseTool, ToolResult } from 'riverse';
import { GREETING } from './_shared.ts';

export class HelloTool extends BaseTool {
  manifest() {
    return { name: 'hello', description: '${description}', examples: ['Say hi', 'Greet me'] };
  }

  execute() {
    return ToolResult.ok(GREETING);
  }
}
`;
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
