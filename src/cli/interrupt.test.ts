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
    const interrupts = listenForInterrupts({ source, exit: (code) => exits.push(code), ...(onIdle === undefined ? {} : { onIdle }) });
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
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the first SIGINT to the exit. */
  afterSignalMs: number;
}

/** `riverse ...args`, sent SIGINT once `ready()` holds, and again after each of `againAfterMs`. */
function interrupted(args: string[], options: { cwd: string; env: Record<string, string>; ready: () => boolean; againAfterMs?: number[] }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalledAt = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const watcher = setInterval(() => {
      if (!options.ready()) return;
      clearInterval(watcher);
      signalledAt = performance.now();
      child.kill('SIGINT');
      for (const ms of options.againAfterMs ?? []) setTimeout(() => child.exitCode === null && child.kill('SIGINT'), ms).unref();
    }, 10);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      clearInterval(watcher);
      resolve({ code, stdout, stderr, afterSignalMs: signalledAt === 0 ? Number.NaN : performance.now() - signalledAt });
    });
  });
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

const HANGS_AT_LOAD = `await new Promise(() => setInterval(() => {}, 1000));
export {};
`;

describe('Ctrl-C in the commands', () => {
  it('riverse ask: the first Ctrl-C cancels a reply the model never sends, at once', async (t) => {
    const model = await modelServer(t, { hang: true });
    const project = await tempDir(t, 'riverse-interrupt-');
    await writeFiles(project, { 'agent/tools/echo.ts': ECHO });
    const run = await interrupted(['ask', 'Hello?'], {
      cwd: project,
      env: { RIVERSE_MODEL: 'openai:test-model', OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', RIVERSE_DATA_DIR: await tempDir(t) },
      ready: () => model.requests.length > 0,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, 'Cancelled.\n');
    assert.ok(run.afterSignalMs < 1_000, `ended ${Math.round(run.afterSignalMs)} ms after Ctrl-C`);
  });

  it('riverse ask: Ctrl-C while a tool file hangs at load ends the command at once, not after the load limit', async (t) => {
    const model = await modelServer(t, { text: 'never asked' });
    const project = await tempDir(t, 'riverse-interrupt-');
    await writeFiles(project, { 'agent/tools/echo.ts': ECHO, 'agent/tools/hangs.ts': HANGS_AT_LOAD });
    const started = performance.now();
    const run = await interrupted(['ask', 'Hello?'], {
      cwd: project,
      env: { RIVERSE_MODEL: 'openai:test-model', OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', RIVERSE_DATA_DIR: await tempDir(t) },
      ready: () => performance.now() - started > 1_000,
    });
    assert.equal(run.code, INTERRUPTED_EXIT, run.stderr);
    assert.ok(run.afterSignalMs < 1_000, `ended ${Math.round(run.afterSignalMs)} ms after Ctrl-C`);
    assert.equal(model.requests.length, 0);
  });

  it('riverse tools run: a call whose worker never starts ends at the first Ctrl-C, or at the second at the latest', async (t) => {
    const project = await tempDir(t, 'riverse-interrupt-');
    const marker = join(project, 'loaded.marker');
    await writeFiles(project, { 'agent/tools/stuck.ts': HANGS_IN_WORKER });
    let seen = 0;
    const run = await interrupted(['tools', 'run', 'stuck'], {
      cwd: project,
      env: { HANG_MARKER: marker },
      // Loaded once (the loader), then give the worker time to be stuck in its own import.
      ready: () => (existsSync(marker) && (seen ||= performance.now()) > 0 && performance.now() - seen > 700),
      againAfterMs: [300],
    });
    assert.ok(run.code === 1 || run.code === INTERRUPTED_EXIT, `exit ${run.code}: ${run.stderr}`);
    assert.ok(run.afterSignalMs < 1_500, `ended ${Math.round(run.afterSignalMs)} ms after the first Ctrl-C`);
  });
});
