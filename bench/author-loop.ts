// Benchmark: what a tool author and a user feel (issue 10). Prints medians; it is not a test.
// Run with `npm run bench:author-loop`.
// - `riverse tools list` with one tool (warm);
// - what 1,000 tool files add to `riverse tools list`, cold (no cache) and warm;
// - what the first call of an isolated tool adds over the calls after it;
// - `riverse ask` with an instant local model and one tool call: wall time and peak RSS;
// - both in the checkout itself, with its built-ins (issue 25): what a person who clones it has,
//   bundled as the checkout runs (042) and from its sources (RIVERSE_FROM_SOURCES=1), interleaved.
// Knobs: BENCH_RUNS (5), BENCH_TOOLS (1000), BENCH_ONLY (tools-list, first-call, ask or checkout),
// BENCH_CHECKOUT (the checkout whose `riverse` runs, this one by default: another's, to compare).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAITestServer } from '../src/models/testing/openai-wire.ts';
import { registrySetup, ToolRegistry } from '../src/tool-runtime/tool-registry.ts';
import { writeTools } from './generated-tools.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TOOLS = Number(process.env.BENCH_TOOLS ?? 1000);
/** The checkout whose `riverse` runs, and what `npx riverse` runs there. */
const CHECKOUT = process.env.BENCH_CHECKOUT ?? fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(CHECKOUT, 'bin', 'riverse.js');
const WEATHER = fileURLToPath(new URL('../agent/tools/weather.ts', import.meta.url));
const TIME = '/usr/bin/time';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Runs the CLI in `cwd` (with its own cache folder); wall time in ms, and peak RSS in MB where /usr/bin/time can tell. */
async function riverse(
  cwd: string,
  cacheDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ ms: number; rssMb?: number; stdout: string }> {
  const timed = existsSync(TIME);
  const argv = ['--conditions=riverse-source', MAIN, ...args];
  const started = performance.now();
  // Not spawnSync: the instant model answers from this process, whose event loop must keep turning.
  const child = spawn(timed ? TIME : process.execPath, timed ? ['-f', '%M', process.execPath, ...argv] : argv, {
    cwd,
    env: { ...process.env, RIVERSE_CACHE_DIR: cacheDir, RIVERSE_DATA_DIR: join(cacheDir, 'data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  const elapsed = performance.now() - started;
  if (status !== 0) throw new Error(`riverse ${args.join(' ')} exited ${status}: ${stderr}`);
  const rssKb = timed ? Number(stderr.trim().split('\n').at(-1)) : NaN;
  return { ms: elapsed, ...(Number.isFinite(rssKb) ? { rssMb: rssKb / 1024 } : {}), stdout };
}

async function repeat<T>(times: number, run: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < times; i++) results.push(await run());
  return results;
}

async function project(tools: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-bench-author-'));
  await mkdir(join(dir, 'agent', 'tools'), { recursive: true });
  await cp(WEATHER, join(dir, 'agent', 'tools', 'weather.ts'));
  if (tools > 1) await writeTools(join(dir, 'agent', 'tools'), tools - 1);
  return dir;
}

async function toolsList(): Promise<void> {
  const one = await project(1);
  const many = await project(TOOLS);
  const cache = join(one, '.cache');
  try {
    await riverse(one, cache, ['tools', 'list']);
    const warmOne = median((await repeat(RUNS, () => riverse(one, cache, ['tools', 'list']))).map((run) => run.ms));
    const cold: number[] = [];
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const fresh = join(many, `.cache-${run}`);
      cold.push((await riverse(many, fresh, ['tools', 'list'])).ms);
      warm.push((await riverse(many, fresh, ['tools', 'list'])).ms);
    }
    console.log(`riverse tools list, 1 tool (warm): ${ms(warmOne)}   (target < 150 ms)`);
    console.log(
      `riverse tools list, ${TOOLS} tools: cold ${ms(median(cold))} (+${ms(median(cold) - warmOne)}, target < +500 ms), warm ${ms(median(warm))} (+${ms(median(warm) - warmOne)}, target < +100 ms)`,
    );
  } finally {
    await rm(one, { recursive: true, force: true });
    await rm(many, { recursive: true, force: true });
  }
}

async function firstCall(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-bench-first-'));
  const source = `import { BaseTool, ToolResult } from 'riverse';
export class EchoTool extends BaseTool {
  manifest() { return { name: 'echo', description: 'Says the text back', parameters: { text: 'what to say' }, examples: ['say hi', 'echo this'] }; }
  execute(params) { return ToolResult.ok(params.text); }
}
`;
  await writeFile(join(dir, 'echo.ts'), source);
  const added: number[] = [];
  const firsts: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const { workers } = registrySetup({});
      const registry = await ToolRegistry.load({ folders: [dir], baseDir: dir, workers });
      // What the assistant does at the start of a turn, then the model request before the first call.
      registry.prewarm();
      await new Promise((resolve) => setTimeout(resolve, 100));
      let started = performance.now();
      await registry.execute('echo', { text: 'first' });
      const first = performance.now() - started;
      const after: number[] = [];
      for (let i = 0; i < 20; i++) {
        started = performance.now();
        await registry.execute('echo', { text: 'again' });
        after.push(performance.now() - started);
      }
      firsts.push(first);
      added.push(first - median(after));
      await workers.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `first call of an isolated tool (process): ${median(firsts).toFixed(1)} ms, adds ${median(added).toFixed(1)} ms over the next calls   (target < 30 ms)`,
  );
}

async function ask(): Promise<void> {
  const server = await startOpenAITestServer((request) =>
    request.body.messages.some((message) => message.role === 'tool')
      ? { text: 'It is sunny.' }
      : { toolCalls: [{ name: 'echo', arguments: { text: 'weather' } }] },
  );
  const dir = await mkdtemp(join(tmpdir(), 'riverse-bench-ask-'));
  await mkdir(join(dir, 'agent', 'tools'), { recursive: true });
  await writeFile(
    join(dir, 'agent', 'tools', 'echo.ts'),
    `import { BaseTool, ToolResult } from 'riverse';\nexport class EchoTool extends BaseTool {\n  manifest() { return { name: 'echo', description: 'Says the text back', parameters: { text: 'what to say' }, examples: ['say hi', 'echo this'] }; }\n  execute(params) { return ToolResult.ok(params.text); }\n}\n`,
  );
  const env = { RIVERSE_MODEL: 'openai:bench', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench' };
  const cache = join(dir, '.cache');
  try {
    await riverse(dir, cache, ['ask', 'Is it sunny?'], env);
    const runs = await repeat(RUNS, () => riverse(dir, cache, ['ask', 'Is it sunny?'], env));
    if (runs[0]!.stdout.trim() !== 'It is sunny.') throw new Error(`ask answered ${JSON.stringify(runs[0]!.stdout)}`);
    const rss = runs.map((run) => run.rssMb).filter((value): value is number => value !== undefined);
    console.log(
      `riverse ask, instant model, one tool call: ${ms(median(runs.map((run) => run.ms)))} wall   (target < 300 ms)${rss.length > 0 ? `; peak RSS ${median(rss).toFixed(0)} MB (the tool's process not counted)` : ''}`,
    );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * In the checkout, with its 12 built-ins: `tools list` and `ask` (a call of current_time), each warm;
 * as the checkout runs (bundled: scripts/checkout-bundle.mjs) and from its sources, interleaved.
 */
async function checkout(): Promise<void> {
  const server = await startOpenAITestServer((request) =>
    request.body.messages.some((message) => message.role === 'tool')
      ? { text: 'It is noon.' }
      : { toolCalls: [{ name: 'current_time', arguments: {} }] },
  );
  const cache = await mkdtemp(join(tmpdir(), 'riverse-bench-checkout-'));
  const model = { RIVERSE_MODEL: 'openai:bench', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench' };
  const ways = { bundled: {}, 'from sources': { RIVERSE_FROM_SOURCES: '1' } } as Record<string, Record<string, string>>;
  type Run = Awaited<ReturnType<typeof riverse>>;
  const runs = new Map(Object.keys(ways).map((way) => [way, { list: [] as Run[], ask: [] as Run[] }]));
  try {
    for (const env of Object.values(ways)) {
      await riverse(CHECKOUT, cache, ['tools', 'list'], env);
      await riverse(CHECKOUT, cache, ['ask', 'What time is it?'], { ...model, ...env });
    }
    for (let i = 0; i < RUNS; i++)
      for (const [way, env] of Object.entries(ways))
        runs.get(way)!.list.push(await riverse(CHECKOUT, cache, ['tools', 'list'], env));
    for (let i = 0; i < RUNS; i++)
      for (const [way, env] of Object.entries(ways)) {
        const run = await riverse(CHECKOUT, cache, ['ask', 'What time is it?'], { ...model, ...env });
        if (run.stdout.trim() !== 'It is noon.') throw new Error(`ask answered ${JSON.stringify(run.stdout)}`);
        runs.get(way)!.ask.push(run);
      }
    const rss = (of: Run[]) => {
      const values = of.map((run) => run.rssMb).filter((value): value is number => value !== undefined);
      return values.length === 0 ? '' : `; peak RSS ${median(values).toFixed(0)} MB`;
    };
    const wall = (of: Run[]) => ms(median(of.map((run) => run.ms)));
    console.log(`in the checkout (${CHECKOUT}), its built-ins:`);
    for (const [way, of] of runs) {
      console.log(`  ${way}:`);
      console.log(`    riverse tools list (warm): ${wall(of.list)}   (target < 150 ms)${rss(of.list)}`);
      console.log(
        `    riverse ask, instant model, one call of current_time: ${wall(of.ask)}   (target < 300 ms)${rss(of.ask)}`,
      );
    }
  } finally {
    await server.close();
    await rm(cache, { recursive: true, force: true });
  }
}

console.log(`author loop — Node ${process.version}, ${process.platform}/${process.arch}, medians of ${RUNS}\n`);
// BENCH_ONLY=ask: just the last figure (bench/peers.sh prints it beside the peers' memory).
const only = process.env.BENCH_ONLY;
if (only === undefined || only === 'tools-list') await toolsList();
if (only === undefined || only === 'first-call') await firstCall();
if (only === undefined || only === 'ask') await ask();
if (only === undefined || only === 'checkout') await checkout();
