// `riverse tools check --watch` as a user runs it: a separate process in a project folder, its
// output read line by line while the test adds, edits, breaks, fixes, renames and deletes tool files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { CLI, createProject, type TempProject } from '../cli-test-support.ts';

/**
 * How long to wait for a change to be printed before giving up: a safety bound, far past the target
 * (under 1 s on an idle machine), which is a benchmark's to measure, not these tests'.
 */
const EVENT_DEADLINE_MS = 30_000;
/** Starting the command (Node, the config, loading the folder in a worker) on a loaded machine. */
const START_DEADLINE_MS = 20_000;

interface Watcher {
  lines: string[];
  /** Waits for the first line after the `from`-th that matches, failing after `ms`; returns its index. */
  waitFor(match: (line: string) => boolean, from: number, ms: number): Promise<number>;
  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `riverse ...args` in the project, collecting stdout lines as they come. */
function watch(project: TempProject, args: string[]): Watcher {
  // As a user's shell would: without the test runner's variables and outside Riverse settings.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env))
    if (name.startsWith('RIVERSE_') || ['NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'FORCE_COLOR'].includes(name))
      delete env[name];
  const child = spawn(process.execPath, [CLI, ...args], { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let wake = () => {};
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const show = () => `--- stdout\n${lines.join('\n')}\n${partial}--- stderr\n${stderr}`;
  return {
    lines,
    async waitFor(match, from, ms) {
      const deadline = performance.now() + ms;
      for (;;) {
        const index = lines.findIndex((line, at) => at >= from && match(line));
        if (index !== -1) return index;
        const left = deadline - performance.now();
        if (left <= 0 || child.exitCode !== null) throw new Error(`no matching line within ${ms} ms\n${show()}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 100));
          wake = () => (clearTimeout(timer), resolve());
        });
      }
    },
    async stop(signal) {
      child.kill(signal);
      const result = await exited;
      clearTimeout(killer);
      return { ...result, stderr };
    },
  };
}

interface WatchEvent {
  event: string;
  file: string;
  tools: string[];
  diagnostics: Array<{ code: string; line?: number; severity: string }>;
}

const version = (name: string, answer: string) =>
  toolSource(name, { execute: `return ToolResult.ok(${JSON.stringify(answer)});` });
const BROKEN = version('fresh', 'never').replace('  manifest() {', '  manifest() {\n    return {{;');

test('--watch --json: one JSON object per event, for add, edit, break, fix, rename and delete; SIGINT ends it with exit 0', async (t) => {
  const project = await createProject({ 'agent/tools/keep.ts': version('keep', 'kept') });
  t.after(() => project.remove());
  const tools = join(await realpath(project.dir), 'agent', 'tools');
  const watcher = watch(project, ['tools', 'check', '--watch', '--json']);
  const parse = (line: string): WatchEvent => JSON.parse(line);
  const isEvent = (event: string, file: string) => (line: string) => {
    try {
      const parsed = parse(line);
      return parsed.event === event && parsed.file === join(tools, file);
    } catch {
      return false;
    }
  };

  await watcher.waitFor(isEvent('added', 'keep.ts'), 0, START_DEADLINE_MS);
  /** Does `act()`, then waits for the events. */
  const step = async (act: () => Promise<unknown>, ...expected: Array<[string, string]>) => {
    const from = watcher.lines.length;
    const started = performance.now();
    await act();
    for (const [event, file] of expected)
      await watcher.waitFor(isEvent(event, file), from, EVENT_DEADLINE_MS - (performance.now() - started));
  };

  await step(() => project.write('agent/tools/fresh.ts', version('fresh', 'v1')), ['added', 'fresh.ts']);
  await step(() => project.write('agent/tools/fresh.ts', version('fresh', 'v2, longer')), ['changed', 'fresh.ts']);
  await step(() => project.write('agent/tools/fresh.ts', BROKEN), ['broken', 'fresh.ts']);
  await step(() => project.write('agent/tools/fresh.ts', version('fresh', 'v3')), ['fixed', 'fresh.ts']);
  await step(
    () => rename(project.path('agent/tools/fresh.ts'), project.path('agent/tools/renamed.ts')),
    ['added', 'renamed.ts'],
    ['removed', 'fresh.ts'],
  );
  await step(() => rm(project.path('agent/tools/renamed.ts')), ['removed', 'renamed.ts']);

  const exit = await watcher.stop('SIGINT');
  assert.equal(exit.code, 0, exit.stderr);
  const events = watcher.lines.filter((line) => line !== '').map(parse);
  const summary = events.map(({ event, file, tools: names }) => [event, basename(file), names]);
  for (const event of events) assert.equal(dirname(event.file), tools, 'file is the absolute path');
  assert.deepEqual(summary.slice(0, 5), [
    ['added', 'keep.ts', ['keep']],
    ['added', 'fresh.ts', ['fresh']],
    ['changed', 'fresh.ts', ['fresh']],
    ['broken', 'fresh.ts', ['fresh']],
    ['fixed', 'fresh.ts', ['fresh']],
  ]);
  assert.deepEqual(
    summary.slice(5, 7).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      ['added', 'renamed.ts', ['fresh']],
      ['removed', 'fresh.ts', ['fresh']],
    ],
  );
  assert.deepEqual(summary.slice(7), [['removed', 'renamed.ts', ['fresh']]]);
  for (const event of events) assert.deepEqual(Object.keys(event).sort(), ['diagnostics', 'event', 'file', 'tools']);
  const broken = events.find((event) => event.event === 'broken')!;
  assert.equal(broken.diagnostics.length, 1, JSON.stringify(broken.diagnostics));
  assert.equal(broken.diagnostics[0]!.code, 'syntax-error');
  assert.equal(broken.diagnostics[0]!.severity, 'error');
  assert.equal(typeof broken.diagnostics[0]!.line, 'number');
  assert.ok(
    events.filter((event) => event.event !== 'broken').every((event) => event.diagnostics.length === 0),
    'only the broken file has diagnostics',
  );
});

test('--watch in text: a line per change ("changed", "broken" with the diagnostic); SIGINT ends it with exit 0', async (t) => {
  const project = await createProject({ 'agent/tools/keep.ts': version('keep', 'kept') });
  t.after(() => project.remove());
  const watcher = watch(project, ['tools', 'check', '--watch']);
  const ready = await watcher.waitFor((line) => line.startsWith('Watching agent/tools'), 0, START_DEADLINE_MS);
  assert.match(watcher.lines[0] ?? '', /^\d\d:\d\d:\d\d added agent\/tools\/keep\.ts: keep$/);

  let from = watcher.lines.length;
  await project.write('agent/tools/keep.ts', version('keep', 'kept, edited'));
  const changed = await watcher.waitFor((line) => /changed/.test(line), from, EVENT_DEADLINE_MS);
  assert.match(watcher.lines[changed]!, /^\d\d:\d\d:\d\d changed agent\/tools\/keep\.ts: keep$/);

  from = watcher.lines.length;
  await project.write('agent/tools/keep.ts', BROKEN.replaceAll('fresh', 'keep'));
  const broken = await watcher.waitFor((line) => /broken/.test(line), from, EVENT_DEADLINE_MS);
  assert.match(
    watcher.lines[broken]!,
    /^\d\d:\d\d:\d\d broken agent\/tools\/keep\.ts: keep \(its last good version stays in use\)$/,
  );
  await watcher.waitFor((line) => /syntax-error/.test(line), broken, EVENT_DEADLINE_MS);
  assert.match(watcher.lines[broken + 1]!, /^ {2}agent\/tools\/keep\.ts:\d+(:\d+)?: error \[syntax-error\] /);

  const exit = await watcher.stop('SIGINT');
  assert.equal(exit.code, 0, exit.stderr);
  assert.equal(ready, 1, 'the initial check comes before the "Watching" line');
});

test('--watch --lang zh: the events and their diagnostics in Chinese', async (t) => {
  const project = await createProject({ 'agent/tools/keep.ts': version('keep', 'kept') });
  t.after(() => project.remove());
  const watcher = watch(project, ['tools', 'check', '--watch', '--lang', 'zh']);
  await watcher.waitFor((line) => line === '正在监视 agent/tools — 按 Ctrl+C 停止。', 0, START_DEADLINE_MS);
  assert.match(watcher.lines[0] ?? '', /^\d\d:\d\d:\d\d 已添加 agent\/tools\/keep\.ts: keep$/);
  const from = watcher.lines.length;
  await project.write('agent/tools/keep.ts', BROKEN.replaceAll('fresh', 'keep'));
  const broken = await watcher.waitFor((line) => /有错误/.test(line), from, EVENT_DEADLINE_MS);
  assert.match(
    watcher.lines[broken]!,
    /^\d\d:\d\d:\d\d 有错误 agent\/tools\/keep\.ts: keep（继续使用上一个可用版本）$/,
  );
  await watcher.waitFor((line) => /syntax-error/.test(line), broken, EVENT_DEADLINE_MS);
  assert.match(watcher.lines[broken + 1]!, /^ {2}agent\/tools\/keep\.ts:\d+(:\d+)?: 错误 \[syntax-error\] 语法错误：/);
  // The line it points at, under the diagnostic, as `tools check` shows it.
  const line = /keep\.ts:(\d+)/.exec(watcher.lines[broken + 1]!)![1];
  await watcher.waitFor((shown) => shown.startsWith(`    ${line} | `), broken, EVENT_DEADLINE_MS);
  const exit = await watcher.stop('SIGINT');
  assert.equal(exit.code, 0, exit.stderr);
});
