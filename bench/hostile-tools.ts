// Benchmark: what hostile tools cost Riverse, with the default settings (issue 9). Prints figures;
// it is not a test. Run with `npm run bench:hostile-tools`.
// - the host's peak RSS while a tool returns 500 MB (process isolation, the default; and worker
//   threads, which share the host's memory, beside it);
// - the time from start to the first answer of `riverse tools run` with 7 tool files that hang at load;
// - the overhead per call of process isolation, worker isolation and in-process (median).
// Knobs: BENCH_CALLS (2000 timed calls per mode), BENCH_RUNS (3 runs of the hanging-files start).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../src/tools/app-config.ts';
import type { Isolation } from '../src/tools/app-config.ts';
import { registrySetup, ToolRegistry } from '../src/tool-runtime/tool-registry.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const MB = 1024 * 1024;

const tool = (name: string, execute: string, header = '') => `import { BaseTool, ToolResult } from 'riverse';
${header}
export class Tool extends BaseTool {
  manifest() { return { name: '${name}', description: 'A tool for the hostile-tools benchmark', parameters: { text: { type: 'string', description: 'anything' } }, examples: ['run ${name}', 'please run ${name}'] }; }
  async execute(params) { ${execute} }
}
`;

async function folder(files: Record<string, string>, under = '.'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-bench-hostile-'));
  await mkdir(join(dir, under), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, under, name), text);
  return dir;
}

async function load(dir: string, config: AppConfig) {
  const setup = registrySetup({ config });
  const registry = await ToolRegistry.load({ folders: [dir], config, baseDir: dir, workers: setup.workers });
  return { registry, close: () => setup.workers.close() };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Peak RSS of this process while `work` runs, sampled every 5 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number; startMb: number }> {
  const startMb = process.memoryUsage.rss() / MB;
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    return { value, peakMb: Math.max(peak, process.memoryUsage.rss()) / MB, startMb };
  } finally {
    clearInterval(sampler);
  }
}

async function hugeResult(isolation: Isolation, memoryMb?: number): Promise<string> {
  const dir = await folder({ 'huge.ts': tool('huge', `return ToolResult.ok('x'.repeat(500 * 1024 * 1024));`) });
  const { registry, close } = await load(dir, {
    tools: { isolation, timeout_ms: 60_000, ...(memoryMb === undefined ? {} : { memory_mb: memoryMb }) },
  });
  try {
    const { value, peakMb, startMb } = await peakRss(() => registry.execute('huge', {}));
    const outcome = value.success
      ? `ok, ${value.data.length.toLocaleString('en')} characters kept`
      : `${value.code}: ${value.error}`;
    return `${isolation.padEnd(7)} memory_mb ${String(memoryMb ?? 'default').padEnd(7)} host RSS ${startMb.toFixed(0)} → peak ${peakMb.toFixed(0)} MB   (${outcome})`;
  } finally {
    await close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function hangingStart(): Promise<string> {
  const files: Record<string, string> = { 'echo.ts': tool('echo', `return ToolResult.ok('echo ' + params.text);`) };
  for (let i = 1; i <= 7; i++)
    files[`hang-${i}.ts`] =
      `await new Promise(() => setInterval(() => {}, 1000));\n${tool(`hang_${i}`, 'return ToolResult.ok("");')}`;
  const dir = await folder(files, 'agent/tools');
  const times: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const child = spawnSync(process.execPath, [MAIN, 'tools', 'run', 'echo', 'text=hi'], {
        cwd: dir,
        encoding: 'utf8',
      });
      times.push(performance.now() - started);
      if (child.stdout.trim() !== 'echo hi')
        throw new Error(`tools run answered ${JSON.stringify(child.stdout)} ${child.stderr}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return `7 files hanging at load, default load limit 10 s: first answer after ${(median(times) / 1000).toFixed(2)} s (median of ${RUNS}; bound 10 s + 1 s)`;
}

async function perCall(isolation: Isolation): Promise<number> {
  const dir = await folder({ 'echo.ts': tool('echo', `return ToolResult.ok('echo ' + params.text);`) });
  const { registry, close } = await load(dir, { tools: { isolation } });
  try {
    for (let i = 0; i < 200; i++) await registry.execute('echo', { text: 'warm' });
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await registry.execute('echo', { text: 'hi' });
      times.push(performance.now() - started);
    }
    return median(times) * 1000;
  } finally {
    await close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`hostile tools — Node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log('a tool returning 500 MB:');
console.log(`  ${await hugeResult('process')}`);
console.log(`  ${await hugeResult('process', 2048)}`);
console.log(`  ${await hugeResult('worker', 2048)}`);
console.log(`\n${await hangingStart()}`);
const inProcess = await perCall('none');
const worker = await perCall('worker');
const child = await perCall('process');
console.log(
  `\nper call, median of ${CALLS}: in-process ${inProcess.toFixed(1)} µs · worker ${worker.toFixed(1)} µs (+${(worker - inProcess).toFixed(1)}) · process ${child.toFixed(1)} µs (+${(child - inProcess).toFixed(1)}; ${(child / worker).toFixed(2)}× worker)`,
);
