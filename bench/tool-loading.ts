// Benchmark: discovery + loading of many drop-in tool files, and the cost of one registry.execute().
// Prints figures; it is not a test. Run with `npm run bench`.
// Knobs: BENCH_TOOLS (1000 tool files), BENCH_RUNS (5 cold and 5 warm loads), BENCH_CALLS (20000 timed calls).
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createToolLogger,
  NO_ONE_TO_ASK,
  NO_MODEL_TO_SAMPLE,
  NO_ROOTS,
  type ToolContext,
} from '../src/tools/tool-context.ts';
import { LiveToolRegistry } from '../src/tool-runtime/live-registry.ts';
import { ToolRegistry } from '../src/tool-runtime/tool-registry.ts';
import { writeTools } from './generated-tools.ts';

const TOOLS = Number(process.env.BENCH_TOOLS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const RELOADS = Number(process.env.BENCH_RELOADS ?? 10);
const CHILD_FLAG = '--child';

/** What the child process reports after one cold load. */
interface ColdRun {
  bootMs: number;
  loadMs: number;
  wallMs: number;
  tools: number;
  errors: number;
  rssMb: number;
  heapMb: number;
}

// ---------------------------------------------------------------- generated tool files

/** The two tools timed by the execute benchmark. */
const EXECUTE_TOOLS: Record<string, string> = {
  'noop.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class NoopTool extends BaseTool {
  manifest(): ToolManifest {
    return { name: 'noop', description: 'Does nothing', examples: ['do nothing', 'rest'] };
  }
  execute(): ToolResult {
    return ToolResult.ok('x');
  }
}
`,
  'noop-params.ts': `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class NoopParamsTool extends BaseTool {
  manifest(): ToolManifest {
    return {
      name: 'noop_params',
      description: 'Does nothing, with parameters',
      parameters: {
        count: { type: 'integer', required: true, description: 'How many' },
        mode: { type: 'string', enum: ['fast', 'slow'], description: 'How' },
        verbose: { type: 'boolean', default: false, description: 'Say more' },
      },
      examples: ['do nothing 3 times', 'rest fast'],
    };
  }
  execute(): ToolResult {
    return ToolResult.ok('x');
  }
}
`,
};

// ---------------------------------------------------------------- measurements

/** In the child process: one load, reported as JSON on stdout. */
async function childLoad(folder: string): Promise<void> {
  const bootMs = performance.now(); // since the process started: Node start-up plus imports
  const registry = await ToolRegistry.load({ folders: [folder] });
  const loadMs = performance.now() - bootMs;
  const { rss, heapUsed } = process.memoryUsage();
  const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  console.log(
    JSON.stringify({
      bootMs,
      loadMs,
      tools: registry.tools().length,
      errors,
      rssMb: rss / 2 ** 20,
      heapMb: heapUsed / 2 ** 20,
    }),
  );
}

/** A fresh Node process per load: nothing cached but what the OS caches. */
function coldLoad(folder: string): ColdRun {
  const start = performance.now();
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), CHILD_FLAG, folder], { encoding: 'utf8' });
  const wallMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`child process failed (${child.status}):\n${child.stderr}`);
  return { ...(JSON.parse(child.stdout) as Omit<ColdRun, 'wallMs'>), wallMs };
}

/** Loads the folder again in this process (fresh `?v=N` imports: files re-transformed and re-evaluated). */
async function warmLoad(folder: string): Promise<{ ms: number; tools: number }> {
  const start = performance.now();
  const registry = await ToolRegistry.load({ folders: [folder] });
  return { ms: performance.now() - start, tools: registry.tools().length };
}

/** Microseconds per awaited call, one sample per call, after a warm-up. */
async function timeCalls(call: () => unknown, count: number): Promise<number[]> {
  for (let i = 0; i < Math.max(1000, count / 10); i++) await call();
  const micros: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call();
    micros.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return micros;
}

// ---------------------------------------------------------------- statistics and printing

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const median = (values: number[]) => percentile(values, 0.5);
const fixed = (value: number, digits = 1) => value.toFixed(digits);

function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  console.log(`  ${line(headers)}`);
  for (const row of rows) console.log(`  ${line(row)}`);
}

/** label, median, min, max and (optionally) per-file cost of a list of times. */
function loadRow(label: string, ms: number[], perFile = true): string[] {
  return [
    label,
    fixed(median(ms)),
    fixed(Math.min(...ms)),
    fixed(Math.max(...ms)),
    perFile ? fixed(median(ms) / TOOLS, 3) : '',
  ];
}

// ---------------------------------------------------------------- the two benchmarks

async function benchLoading(folder: string): Promise<void> {
  const cold: ColdRun[] = [];
  for (let run = 0; run < RUNS; run++) cold.push(coldLoad(folder));
  const wrong = cold.find((run) => run.tools !== TOOLS || run.errors > 0);
  if (wrong !== undefined)
    throw new Error(`a cold load found ${wrong.tools} tools and ${wrong.errors} errors, expected ${TOOLS} and 0`);

  const first = await warmLoad(folder); // Node started, but the transformer and the code are not warm yet
  const warm: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { ms, tools } = await warmLoad(folder);
    if (tools !== TOOLS) throw new Error(`a warm load found ${tools} tools, expected ${TOOLS}`);
    warm.push(ms);
  }

  console.log(`Discovery + loading of ${TOOLS} tool files (ms)`);
  printTable(
    ['', 'median', 'min', 'max', 'ms/file'],
    [
      loadRow(
        'cold: ToolRegistry.load()',
        cold.map((run) => run.loadMs),
      ),
      loadRow(
        'cold: whole process (wall)',
        cold.map((run) => run.wallMs),
      ),
      loadRow(
        'cold: start-up before load',
        cold.map((run) => run.bootMs),
        false,
      ),
      loadRow('first load in this process', [first.ms]),
      loadRow('warm: ToolRegistry.load()', warm),
    ],
  );
  const rss = cold.map((run) => run.rssMb);
  const heap = cold.map((run) => run.heapMb);
  const own = process.memoryUsage();
  console.log(
    `  memory after a cold load: RSS ${fixed(median(rss))} MiB (${fixed(Math.min(...rss))}–${fixed(Math.max(...rss))}), heap used ${fixed(median(heap))} MiB`,
  );
  console.log(
    `  memory of this process after ${RUNS + 1} in-process loads: RSS ${fixed(own.rss / 2 ** 20)} MiB, heap used ${fixed(own.heapUsed / 2 ** 20)} MiB\n`,
  );
}

async function benchExecute(folder: string): Promise<void> {
  // The same tools three ways: isolated in a worker thread (the default), in-process (trusted, or
  // isolation "none"), and the instance's execute() called directly (the floor).
  const isolated = await ToolRegistry.load({ folders: [folder] });
  const inProcess = await ToolRegistry.load({ folders: [folder], isolation: 'none' });
  const context: ToolContext = {
    signal: new AbortController().signal,
    sessionId: 'bench',
    language: 'en',
    logger: createToolLogger('bench'),
    config: {},
    ask: NO_ONE_TO_ASK,
    sample: NO_MODEL_TO_SAMPLE,
    roots: NO_ROOTS,
    progress: () => {},
    log: () => {},
    resultPart: async () => undefined,
  };
  const cases = [
    { label: 'no params', name: 'noop', file: 'noop.ts', sent: {}, checked: {} },
    {
      label: '3 params (coerced)',
      name: 'noop_params',
      file: 'noop-params.ts',
      sent: { count: '3', mode: 'fast', verbose: 'true' },
      checked: { count: 3, mode: 'fast', verbose: true },
    },
  ];
  const rows: string[][] = [];
  for (const { label, name, file, sent, checked } of cases) {
    for (const registry of [isolated, inProcess]) {
      const probe = await registry.execute(name, sent);
      if (!probe.success) throw new Error(`${name} failed: ${probe.error}`);
    }
    const module = (await import(pathToFileURL(join(folder, file)).href)) as Record<
      string,
      new (
        config: object,
      ) => { execute(params: object, context: ToolContext): unknown }
    >;
    const tool = new (Object.values(module)[0]!)({});
    const viaWorker = await timeCalls(() => isolated.execute(name, sent), CALLS);
    const viaProcess = await timeCalls(() => inProcess.execute(name, sent), CALLS);
    const direct = await timeCalls(() => tool.execute(checked, context), CALLS);
    const vs = (times: number[]) => `×${fixed(median(times) / median(direct), 0)}`;
    rows.push([
      `${label}: isolated (worker thread)`,
      fixed(median(viaWorker), 2),
      fixed(percentile(viaWorker, 0.99), 2),
      vs(viaWorker),
    ]);
    rows.push([
      `${label}: in-process (trusted)`,
      fixed(median(viaProcess), 2),
      fixed(percentile(viaProcess, 0.99), 2),
      vs(viaProcess),
    ]);
    rows.push([`${label}: tool.execute() direct`, fixed(median(direct), 2), fixed(percentile(direct, 0.99), 2), '']);
    rows.push([`${label}: isolation adds`, fixed(median(viaWorker) - median(viaProcess), 2), '', '']);
  }
  console.log(`One call through registry.execute(), awaited (µs per call, ${CALLS} calls after warm-up)`);
  printTable(['', 'median', 'p99', 'vs direct'], rows);
}

async function benchReload(folder: string): Promise<void> {
  // Save → the new version answering: watcher event, settle delay, isolated reload, new worker, call.
  const source = (answer: string) => `import { BaseTool, ToolResult } from 'riverse';
export class EchoTool extends BaseTool {
  manifest() { return { name: 'echo', description: 'Answers with its version', examples: ['a', 'b'] }; }
  execute() { return ToolResult.ok(${JSON.stringify(answer)}); }
}
`;
  await mkdir(folder);
  await writeFile(join(folder, 'echo.ts'), source('v0'));
  const keepAlive = setInterval(() => {}, 1_000);
  const rows: string[][] = [];
  for (const isolation of ['worker', 'none'] as const) {
    const live = await LiveToolRegistry.open({ folders: [folder], isolation });
    const times: number[] = [];
    for (let run = 1; run <= RELOADS; run++) {
      const changed = new Promise<void>((resolve) => {
        const stop = live.onChange(() => (stop(), resolve()));
      });
      const saved = performance.now();
      await writeFile(join(folder, 'echo.ts'), source(`${isolation}-${run}`));
      await changed;
      const result = await live.current.execute('echo', {});
      if (result.data !== `${isolation}-${run}`) throw new Error(`reload ${run} answered ${JSON.stringify(result)}`);
      times.push(performance.now() - saved);
    }
    await live.close();
    rows.push([
      `save → new version answers (${isolation === 'worker' ? 'isolated' : 'in-process'})`,
      fixed(median(times)),
      fixed(Math.min(...times)),
      fixed(Math.max(...times)),
    ]);
  }
  clearInterval(keepAlive);
  console.log(`\nHot reload (ms, ${RELOADS} saves each)`);
  printTable(['', 'median', 'min', 'max'], rows);
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'riverse-bench-'));
  try {
    const bytes = await writeTools(join(root, 'tools'), TOOLS);
    await mkdir(join(root, 'execute'));
    for (const [file, source] of Object.entries(EXECUTE_TOOLS)) await writeFile(join(root, 'execute', file), source);

    console.log(
      `Riverse tool benchmark: Node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? '?'})`,
    );
    console.log(
      `${TOOLS} generated tool files (${fixed(bytes / 1024)} KiB), ${RUNS} cold and ${RUNS} warm loads, ${CALLS} timed calls\n`,
    );
    await benchLoading(join(root, 'tools'));
    await benchExecute(join(root, 'execute'));
    await benchReload(join(root, 'reload'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === CHILD_FLAG) await childLoad(process.argv[3]!);
else await main();
