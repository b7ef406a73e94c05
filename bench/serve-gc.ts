// Benchmark: what a `/v1` turn of `riverse serve` costs its heap, in figures that load moves little
// (bench/serve-load.ts's latencies are mostly the machine's): bytes allocated and bytes promoted to
// the old generation per turn, scavenges and mark-sweeps per 1,000 turns, the service's CPU per turn
// (user + system, /proc), and how long its event loop was held. The same service, model server and
// tool turn as bench:serve; a fixed number of turns (autocannon's `amount`) after a warm-up. V8's
// figures are read inside the service through the inspector (`--inspect` on a free port):
// `v8.GCProfiler` around the measured turns gives every GC with each space's size before and after,
// perf_hooks' event-loop delay the loop's worst waits (a GC, a synchronous write; the machine's
// other work shows there too). Promoted bytes are what the scavenges moved into the old generation;
// old-generation bytes per turn add what was made there directly (pretenured sites, large objects),
// i.e. what the next mark-sweep has to free. Scavenges a turn's objects outlive (two, to be promoted)
// come faster on a loaded machine, where turns take longer: compare runs at the same load. With
// BENCH_SAMPLE=1, two more rounds of the same turns under V8's sampling heap profiler print the
// allocation sites: all bytes allocated, and the bytes of objects that outlived their scavenges, per
// turn, by the allocating function and the nearest Riverse function under it.
// Not a test. Run with `node bench/serve-gc.ts`.
// Knobs: BENCH_TURNS (10000 per round), BENCH_WARMUP_TURNS (2000), BENCH_CONNECTIONS (32),
// BENCH_MODEL_DELAY_MS (50), BENCH_SAMPLE=1, BENCH_TOP (20 rows), BENCH_ROOT (the checkout whose
// `riverse serve` runs; default this one: point it at a copy of another commit to compare),
// BENCH_SERVICE_NODE_ARGS (more Node flags for the service), BENCH_SERVICE_LOG (a file for what the
// service prints, e.g. with --trace-pretenuring-statistics; V8 buffers its traces, so run with
// LD_PRELOAD=/usr/libexec/coreutils/libstdbuf.so _STDBUF_O=L or lose the last of them at exit).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { COMPLETION, checkAnswer, cpuMs, echoProject, serveArgs, serveEnv, startChild } from './serve-load-parts.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 10000);
const WARMUP_TURNS = Number(process.env.BENCH_WARMUP_TURNS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MODEL_DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 50);
const SAMPLE = process.env.BENCH_SAMPLE === '1';
const TOP = Number(process.env.BENCH_TOP ?? 20);
const HERE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = resolve(process.env.BENCH_ROOT ?? HERE);
const LOG = process.env.BENCH_SERVICE_LOG;

/** `amount` turns at `connections`, as fast as the service answers; the count of non-200 answers. */
async function turns(serviceUrl: string, amount: number): Promise<number> {
  const result = await new Promise<autocannon.Result>((done, fail) =>
    autocannon(
      {
        url: `${serviceUrl}v1/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: COMPLETION,
        connections: CONNECTIONS,
        amount,
        timeout: 30,
      },
      (error, result) => (error ? fail(error) : done(result)),
    ),
  );
  return result.errors + result.timeouts + result.non2xx;
}

/** The service's inspector: one method call at a time, answered by id. */
class Inspector {
  readonly #socket: WebSocket;
  #next = 1;
  readonly #waiting = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id !== undefined) this.#waiting.get(message.id)?.(message);
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise((opened, failed) => {
      socket.addEventListener('open', opened, { once: true });
      socket.addEventListener('error', failed, { once: true });
    });
    return new Inspector(socket);
  }

  call<T>(method: string, params: object = {}): Promise<T> {
    const id = this.#next++;
    this.#socket.send(JSON.stringify({ id, method, params }));
    return new Promise((done, fail) =>
      this.#waiting.set(id, (message) => {
        this.#waiting.delete(id);
        if (message.error !== undefined) fail(new Error(`${method}: ${message.error.message}`));
        else done(message.result as T);
      }),
    );
  }

  /** The value of `expression`, evaluated in the service (its builtins through process.getBuiltinModule). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.call<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails !== undefined)
      throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as T;
  }

  close(): void {
    this.#socket.close();
  }
}

interface SpaceSizes {
  young: number;
  old: number;
}

interface GcEvent {
  gcType: string;
  before: SpaceSizes;
  after: SpaceSizes;
}

/** Runs in the service: each space's used bytes, summed into the young and old generations. */
const SIZES = `(spaces) => {
  const young = new Set(['new_space', 'new_large_object_space']);
  const sizes = { young: 0, old: 0 };
  for (const space of spaces) {
    const name = space.spaceName ?? space.space_name;
    const used = space.spaceUsedSize ?? space.space_used_size;
    if (young.has(name)) sizes.young += used;
    else if (name !== 'read_only_space') sizes.old += used;
  }
  return sizes;
}`;

/** One round of measured turns: V8's GCs through GCProfiler, the CPU from /proc. */
async function measure(inspector: Inspector, serviceUrl: string, pid: number) {
  await inspector.evaluate(`globalThis.__benchGc = new (process.getBuiltinModule('node:v8').GCProfiler)();
    globalThis.__benchGc.start();
    globalThis.__benchDelay = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 1 });
    globalThis.__benchDelay.enable();
    globalThis.__benchSizes = ${SIZES};`);
  const start = await inspector.evaluate<SpaceSizes>(
    `globalThis.__benchSizes(process.getBuiltinModule('node:v8').getHeapSpaceStatistics())`,
  );
  const cpu = cpuMs(pid);
  const errors = await turns(serviceUrl, TURNS);
  const cpuPerTurn = (cpuMs(pid) - cpu) / TURNS;
  const { events, end, delay } = await inspector.evaluate<{
    events: GcEvent[];
    end: SpaceSizes;
    delay: { p99: number; max: number };
  }>(`(() => {
    const v8 = process.getBuiltinModule('node:v8');
    const histogram = globalThis.__benchDelay;
    histogram.disable();
    const delay = { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
    const end = globalThis.__benchSizes(v8.getHeapSpaceStatistics());
    const { statistics } = globalThis.__benchGc.stop();
    const events = statistics.map((gc) => ({ gcType: gc.gcType,
      before: globalThis.__benchSizes(gc.beforeGC.heapSpaceStatistics),
      after: globalThis.__benchSizes(gc.afterGC.heapSpaceStatistics) }));
    delete globalThis.__benchGc;
    delete globalThis.__benchDelay;
    return { events, end, delay };
  })()`);
  // Young bytes allocated: what each GC found in the young generation over what the previous one
  // left there. Old bytes: every rise of the old generation (promotions, direct allocations), with
  // what the mark-sweeps freed given back.
  let allocated = 0;
  let promoted = 0;
  let freedOld = 0;
  let young = start.young;
  const counts = new Map<string, number>();
  for (const gc of events) {
    allocated += Math.max(0, gc.before.young - young);
    young = gc.after.young;
    if (gc.gcType === 'Scavenge' || gc.gcType === 'MinorMarkSweep')
      promoted += Math.max(0, gc.after.old - gc.before.old);
    else freedOld += Math.max(0, gc.before.old - gc.after.old);
    counts.set(gc.gcType, (counts.get(gc.gcType) ?? 0) + 1);
  }
  allocated += Math.max(0, end.young - young);
  const oldGrowth = end.old - start.old + freedOld;
  return { errors, cpuPerTurn, allocated, promoted, oldGrowth, counts, endOld: end.old, delay };
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const frameName = (frame: ProfileNode['callFrame']) => {
  const url = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const where = url.startsWith(ROOT) ? url.slice(ROOT.length) : url.replace(/^.*node_modules\//, '');
  return `${frame.functionName || '(anonymous)'} ${where}${where === '' ? '' : `:${frame.lineNumber + 1}`}`;
};
const ownCode = (frame: ProfileNode['callFrame']) => frame.url.includes('/src/') && !frame.url.includes('node_modules');

/** One round of turns under the sampling heap profiler; bytes by allocating frame ← nearest Riverse frame. */
async function sample(inspector: Inspector, serviceUrl: string, promotedOnly: boolean): Promise<Map<string, number>> {
  await inspector.call('HeapProfiler.enable');
  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !promotedOnly,
  });
  await turns(serviceUrl, TURNS);
  // The turns' garbage still in the young generation would count as survivors: two scavenges first.
  await inspector.evaluate(`gc({ type: 'minor' }); gc({ type: 'minor' })`);
  const { profile } = await inspector.call<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
  const bytes = new Map<string, number>();
  const walk = (node: ProfileNode, own: ProfileNode['callFrame'] | undefined) => {
    const nearest = ownCode(node.callFrame) ? node.callFrame : own;
    if (node.selfSize > 0) {
      const site =
        nearest === undefined || nearest === node.callFrame
          ? frameName(node.callFrame)
          : `${frameName(node.callFrame)} ← ${frameName(nearest)}`;
      bytes.set(site, (bytes.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, nearest);
  };
  walk(profile.head, undefined);
  return bytes;
}

function printSites(title: string, bytes: Map<string, number>): void {
  const total = [...bytes.values()].reduce((sum, value) => sum + value, 0);
  console.log(`${title}: ${(total / TURNS / 1024).toFixed(1)} kB per turn (sampled)`);
  for (const [site, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${(size / TURNS / 1024).toFixed(2).padStart(7)} kB  ${site}`);
}

const dir = mkdtempSync(join(tmpdir(), 'riverse-serve-gc-'));
const children: ChildProcess[] = [];
try {
  const model = await startChild(
    [join(HERE, 'bench/serve-load-model.ts')],
    { env: { BENCH_MODEL_DELAY_MS: String(MODEL_DELAY_MS) } },
    /(http:\/\/127\.0\.0\.1:\d+\/v1)/,
  );
  children.push(model.child);
  // `riverse serve` restarts itself with the service's V8 flags (decision 019): its inspector is the
  // one it prints last, on a port of its own.
  const served = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', ...(SAMPLE ? ['--expose-gc'] : []), ...serveArgs(ROOT)],
    {
      cwd: echoProject(dir),
      env: { ...process.env, ...serveEnv(dir, model.match[1]!) },
      // A file, not a pipe, for LOG: V8's own traces are lost on a non-blocking pipe.
      stdio: ['ignore', LOG === undefined ? 'pipe' : openSync(LOG, 'w'), 'pipe'],
    },
  );
  children.push(served);
  let out = '';
  let err = '';
  served.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  served.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  /** The first group of `pattern` in what the service printed, once it has. */
  const printed = async (text: () => string, pattern: RegExp): Promise<string> => {
    for (let waited = 0; waited < 60_000; waited += 100) {
      const match = pattern.exec(text());
      if (match !== null) return match[1]!;
      if (served.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`riverse serve printed nothing like ${pattern}:\n${text()}\n${err}`);
  };
  const serviceUrl = await printed(
    () => (LOG === undefined ? out : readFileSync(LOG, 'utf8')),
    /(http:\/\/127\.0\.0\.1:\d+\/)/,
  );
  const inspectorUrl = await printed(() => err, /.*Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/s);
  await checkAnswer(serviceUrl);
  const inspector = await Inspector.connect(inspectorUrl);
  console.log(
    `riverse serve of ${ROOT} (pid ${served.pid}); ${CONNECTIONS} connections, the model ${MODEL_DELAY_MS} ms per request, ` +
      `${WARMUP_TURNS} turns of warm-up, ${TURNS} measured; Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)}`,
  );
  await turns(serviceUrl, WARMUP_TURNS);
  const round = await measure(inspector, serviceUrl, served.pid!);
  const perTurn = (bytes: number) => `${(bytes / TURNS / 1024).toFixed(1)} kB`;
  const per1000 = (count = 0) => ((count * 1000) / TURNS).toFixed(1);
  console.log(
    `per turn: allocated ${perTurn(round.allocated)} (young generation), promoted ${perTurn(round.promoted)}, ` +
      `old generation +${perTurn(round.oldGrowth)}; CPU ${round.cpuPerTurn.toFixed(3)} ms (service, user + system)`,
  );
  console.log(
    `the service's event loop held up: p99 ${round.delay.p99.toFixed(1)} ms, max ${round.delay.max.toFixed(1)} ms ` +
      `(what a turn in flight waits behind a GC or a synchronous write)`,
  );
  console.log(
    `per 1,000 turns: ${per1000(round.counts.get('Scavenge'))} scavenges, ${per1000(round.counts.get('MarkSweepCompact'))} mark-sweeps ` +
      `(${per1000(round.counts.get('IncrementalMarking'))} incremental markings started); old generation ${(round.endOld / 1048576).toFixed(1)} MB at the end; ` +
      `errors ${round.errors}; load average at the end ${loadavg()[0]!.toFixed(1)}`,
  );
  if (SAMPLE) {
    printSites('allocated, by site', await sample(inspector, serviceUrl, false));
    // The sampler's survivors run above the promoted bytes measured by the GCs: read it for the sites, not the total.
    printSites(
      'outlived their scavenges (promoted; the sites, not the total), by site',
      await sample(inspector, serviceUrl, true),
    );
  }
  inspector.close();
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  await sleep(300);
  rmSync(dir, { recursive: true, force: true });
}
