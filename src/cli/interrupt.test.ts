// Ctrl-C: the first press cancels at once, a second press while stopping ends the process, a press
// during start-up is never lost. The rules in-process, then `riverse ask` and `riverse tools run`
// run as a user runs them, sent real SIGINTs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { modelServer, tempDir, writeFiles } from '../assistant/turn-test-support.ts';
import { CLI } from './cli-test-support.ts';
import { INTERRUPTED_EXIT, listenForInterrupts } from './interrupt.ts';

describe('listenForInterrupts', () => {
  const setup = (onIdle?: () => void) => {
    const source = new EventEmitter();
    const exits: number[] = [];
    const interrupts = listenForInterrupts({
      source,
      exit: (code) => exits.push(code),
      ...(onIdle === undefined ? {} : { onIdle }),
    });
    return { source, exits, interrupts };
  };

  it('cancels the work under way at the first press, and exits at the second while it stops', () => {
    const { source, exits, interrupts } = setup();
    const signal = interrupts.begin();
    source.emit('SIGINT');
    assert.equal(signal.aborted, true);
    assert.deepEqual(exits, []);
    source.emit('SIGINT');
    assert.deepEqual(exits, [INTERRUPTED_EXIT]);
    interrupts.close();
  });

  it('gives every piece of work its own first press', () => {
    const { source, exits, interrupts } = setup(() => {});
    for (let turn = 0; turn < 3; turn++) {
      const signal = interrupts.begin();
      source.emit('SIGINT');
      assert.equal(signal.aborted, true, `turn ${turn}`);
      interrupts.end();
    }
    assert.deepEqual(exits, []);
    interrupts.close();
  });

  it('with nothing running: onIdle, else exit at once', () => {
    let idle = 0;
    const withIdle = setup(() => idle++);
    withIdle.source.emit('SIGINT');
    assert.equal(idle, 1);
    assert.deepEqual(withIdle.exits, []);
    const without = setup();
    without.source.emit('SIGINT');
    assert.deepEqual(without.exits, [INTERRUPTED_EXIT]);
    without.interrupts.close();
    without.source.emit('SIGINT');
    assert.deepEqual(without.exits, [INTERRUPTED_EXIT], 'closed: no longer listening');
  });
});

interface Run {
  /** Null when the 30 s safety kill ended it: nothing else did. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What to do once `when(stdout, stderr)` holds: send SIGINT, or type a line. Steps run in order. */
interface Step {
  when: (stdout: string, stderr: string) => boolean;
  send: 'SIGINT' | { line: string };
}

/** `riverse ...args`, its input left open, driven by `steps` (checked every 10 ms). */
function interrupted(
  args: string[],
  options: { cwd: string; env: Record<string, string>; steps: Step[] },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => {});
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const steps = [...options.steps];
    const driver = setInterval(() => {
      const step = steps[0];
      if (step === undefined || !step.when(stdout, stderr)) return;
      steps.shift();
      if (step.send === 'SIGINT') child.kill('SIGINT');
      else child.stdin.write(`${step.send.line}\n`);
    }, 10);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      clearInterval(driver);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A step that holds `ms` after the step before it ran. */
function after(ms: number): Step['when'] {
  let since = 0;
  return () => (since ||= performance.now()) > 0 && performance.now() - since >= ms;
}

const ECHO = `import { BaseTool, ToolResult } from 'riverse';
export class EchoTool extends BaseTool {
  manifest() { return { name: 'echo', description: 'Echoes', parameters: { text: { type: 'string', required: true, description: 'The text' } } }; }
  async execute({ text }) { return ToolResult.ok(text); }
}
`;

/** Loads fine in the loader, then hangs when its worker imports it again (the marker says it was loaded once). */
const HANGS_IN_WORKER = `import { existsSync, writeFileSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';
const marker = process.env.HANG_MARKER;
if (existsSync(marker)) await new Promise(() => setInterval(() => {}, 1000));
writeFileSync(marker, '');
export class StuckTool extends BaseTool {
  manifest() { return { name: 'stuck', description: 'Never starts' }; }
  async execute() { return ToolResult.ok('started'); }
}
`;

/** Leaves the marker, then hangs in its loader. */
const HANGS_AT_LOAD = `import { writeFileSync } from 'node:fs';
writeFileSync(process.env.HANG_MARKER, '');
await new Promise(() => setInterval(() => {}, 1000));
export {};
`;

// In these nothing but Ctrl-C can end the command before the test's safety kill at 30 s: the model
// never answers (its silence limit is 60 s), and the limits on loading and on calls are 10 minutes.

describe('Ctrl-C in the commands', () => {
  it('riverse ask: the first Ctrl-C cancels a reply the model never sends, at once', async (t) => {
    const model = await modelServer(t, { hang: true });
    const project = await tempDir(t, 'riverse-interrupt-');
    await writeFiles(project, { 'agent/tools/echo.ts': ECHO });
    const run = await interrupted(['ask', 'Hello?'], {
      cwd: project,
      env: {
        RIVERSE_MODEL: 'openai:test-model',
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'k',
        RIVERSE_DATA_DIR: await tempDir(t),
      },
      steps: [{ when: () => model.requests.length > 0, send: 'SIGINT' }],
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, 'Cancelled.\n');
    assert.equal(model.requests.length, 1, 'no request after Ctrl-C');
  });

  it('riverse chat: Ctrl-C cancels a silent reply and the chat goes on; Ctrl-C at the prompt quits', async (t) => {
    const model = await modelServer(t, { hang: true });
    const project = await tempDir(t, 'riverse-interrupt-');
    await writeFiles(project, { 'agent/tools/echo.ts': ECHO });
    const env = {
      RIVERSE_MODEL: 'openai:test-model',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'k',
      RIVERSE_DATA_DIR: await tempDir(t),
    };
    const run = await interrupted(['chat'], {
      cwd: project,
      env,
      steps: [
        { when: (stdout) => stdout.includes('you> '), send: { line: 'Tell me a long story' } },
        { when: () => model.requests.length === 1, send: 'SIGINT' },
        { when: (stdout, stderr) => stderr === 'Cancelled.\n' && stdout.endsWith('you> '), send: 'SIGINT' },
      ],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, 'Cancelled.\n');
    assert.match(run.stdout, /you> you> Bye\.\n$/, 'back at the prompt after the cancelled reply, then quit');
    assert.equal(model.requests.length, 1, 'no request after Ctrl-C');
  });

  it('riverse ask: Ctrl-C while a tool file hangs at load ends the command at once, not after the load limit', async (t) => {
    const model = await modelServer(t, { text: 'never asked' });
    const project = await tempDir(t, 'riverse-interrupt-');
    const marker = join(project, 'loading.marker');
    await writeFiles(project, {
      'agent/tools/echo.ts': ECHO,
      'agent/tools/hangs.ts': HANGS_AT_LOAD,
      'riverse.yaml': 'tools:\n  load_timeout_ms: 600000\n',
    });
    const run = await interrupted(['ask', 'Hello?'], {
      cwd: project,
      env: {
        RIVERSE_MODEL: 'openai:test-model',
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'k',
        RIVERSE_DATA_DIR: await tempDir(t),
        HANG_MARKER: marker,
      },
      steps: [{ when: () => existsSync(marker), send: 'SIGINT' }],
    });
    assert.equal(run.code, INTERRUPTED_EXIT, run.stderr);
    assert.equal(model.requests.length, 0);
  });

  it('riverse tools run: a call whose worker never starts ends at the first Ctrl-C, or at the second at the latest', async (t) => {
    const project = await tempDir(t, 'riverse-interrupt-');
    const marker = join(project, 'loaded.marker');
    await writeFiles(project, {
      'agent/tools/stuck.ts': HANGS_IN_WORKER,
      'riverse.yaml': 'tools:\n  timeout_ms: 600000\n',
    });
    const loaded = after(700);
    const run = await interrupted(['tools', 'run', 'stuck'], {
      cwd: project,
      env: { HANG_MARKER: marker },
      steps: [
        // Loaded once (the loader), then give the worker time to be stuck in its own import.
        { when: () => existsSync(marker) && loaded('', ''), send: 'SIGINT' },
        { when: after(300), send: 'SIGINT' },
      ],
    });
    assert.ok(run.code === 1 || run.code === INTERRUPTED_EXIT, `exit ${run.code}: ${run.stderr}`);
  });
});
