// Benchmark: `riverse serve` under load on /v1/chat/completions, each request one tool turn (the
// scripted model server asks for the drop-in `echo` tool, then answers), driven by autocannon at 1
// and 32 connections — beside a bare node:http client that sends the same two model requests (the
// very bytes the service sent) straight to the same model server. Prints requests/s, p50 and p99
// latency of each, the latency the service adds (service minus bare), errors, and the service's
// RSS (its own process: `riverse serve` is a child, read from /proc/PID/status) after warm-up and
// at the end; beside them the core alone (bench/serve-load-core.ts: the same turn through
// Assistant.complete in a process of its own, no HTTP in front), so that what the service layer
// costs per turn shows apart from what the turn costs. Past one connection, each side is also run paced, at half the rate the service kept
// up unpaced: at full load a closed loop's latency is mostly its queue (connections ÷ throughput),
// while paced it is the time each request takes, which is what the service adds to.
// It is not a test. Run with `npm run bench:serve`.
// The model answers each request after BENCH_MODEL_DELAY_MS (default 50: quicker than any hosted
// model's first token), on both sides, so that what the service adds to a turn is measured below
// saturation; BENCH_MODEL_DELAY_MS=0 makes it a test of throughput, where a closed loop's latency is
// mostly its queue.
// Knobs: BENCH_DURATION_S (60 per run), BENCH_CONNECTIONS ("1,32"), BENCH_WARMUP_S (10),
// BENCH_PACED=0 (no paced runs; the default when the model has a delay),
// BENCH_STREAM=1 (streamed /v1 answers), BENCH_ISOLATION (the tool's isolation; default: the default),
// BENCH_SERVICE_NODE_ARGS (Node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkAnswer,
  COMPLETION,
  cpuMs,
  echoProject,
  type Figures,
  figures,
  rssMb,
  service,
  serveArgs,
  serveEnv,
  startChild,
} from './serve-load-parts.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 60);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,32').split(',').map(Number);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 10);
const MODEL_DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 50);
const PACED = (process.env.BENCH_PACED ?? (MODEL_DELAY_MS > 0 ? '0' : '1')) !== '0';
const STREAM = process.env.BENCH_STREAM === '1';
const ISOLATION = process.env.BENCH_ISOLATION;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One POST read to its end; resolves with the status. */
function post(agent: Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer bench',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `connections` loops, each running `turn` (true when it succeeded) one after the other, for
 * `seconds`; with `rate`, turns start evenly spaced at that rate (per second, all loops together)
 * at most. The paced runs use this for both sides: autocannon paces each connection on its own
 * timer, so its connections fire together and queue behind each other.
 */
async function drive(
  connections: number,
  seconds: number,
  rate: number | undefined,
  turn: (agent: Agent) => Promise<boolean>,
): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  let slot = performance.now();
  const loop = async () => {
    while (performance.now() < end) {
      if (rate !== undefined) {
        const at = slot;
        slot += 1000 / rate;
        if (at >= end) break;
        if (at > performance.now())
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
      }
      const start = performance.now();
      try {
        if (await turn(agent)) latencies.push(performance.now() - start);
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const result = figures(latencies, (performance.now() - started) / 1000, errors);
  agent.destroy();
  return result;
}

/** The bare client: the two model requests of a turn, straight to the model server. */
function bare(
  modelUrl: string,
  bodies: { call: string; answer: string },
  connections: number,
  seconds: number,
  rate?: number,
): Promise<Figures> {
  const url = new URL(`${modelUrl}/chat/completions`);
  return drive(
    connections,
    seconds,
    rate,
    async (agent) => (await post(agent, url, bodies.call)) === 200 && (await post(agent, url, bodies.answer)) === 200,
  );
}

/** The service, paced, through the same client as the bare side. */
function pacedService(serviceUrl: string, connections: number, seconds: number, rate: number): Promise<Figures> {
  const url = new URL(`${serviceUrl}v1/chat/completions`);
  return drive(connections, seconds, rate, async (agent) => (await post(agent, url, COMPLETION)) === 200);
}

interface CoreFigures {
  turns: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMs: number;
}

/** The core alone in a child process; what it measured. */
async function runCore(modelUrl: string, tools: string, connections: number, seconds: number): Promise<CoreFigures> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/serve-load-core.ts')], {
    env: {
      ...process.env,
      BENCH_MODEL_URL: modelUrl,
      BENCH_TOOLS: tools,
      BENCH_CONNECTIONS: String(connections),
      BENCH_DURATION_S: String(seconds),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/serve-load-core.ts exited with ${code}: ${out}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as CoreFigures;
}

const ms = (value: number) => value.toFixed(2).padStart(8);

function print(row: { connections: number; paced?: number; bare: Figures; service: Figures }): void {
  const { bare: b, service: s } = row;
  console.log(
    `${String(row.connections).padStart(3)} conn${row.paced === undefined ? '' : `, paced at ${row.paced}/s`} | bare: ${b.rps.toFixed(0).padStart(6)} turns/s p50 ${ms(b.p50)} p99 ${ms(b.p99)} errors ${b.errors}` +
      ` | service: ${s.rps.toFixed(0).padStart(6)} req/s p50 ${ms(s.p50)} p99 ${ms(s.p99)} errors ${s.errors}` +
      ` | added p50 ${ms(s.p50 - b.p50)} p99 ${ms(s.p99 - b.p99)} (ms)`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'riverse-serve-load-'));
const children: ChildProcess[] = [];
try {
  const capture = join(dir, 'captured.json');
  const model = await startChild(
    [join(ROOT, 'bench/serve-load-model.ts')],
    { env: { BENCH_CAPTURE: capture, BENCH_MODEL_DELAY_MS: String(MODEL_DELAY_MS) } },
    /(http:\/\/127\.0\.0\.1:\d+\/v1)/,
  );
  children.push(model.child);
  const modelUrl = model.match[1]!;
  const modelPid = model.child.pid!;

  const project = echoProject(dir);
  if (ISOLATION !== undefined) writeFileSync(join(project, 'riverse.yaml'), `tools:\n  isolation: ${ISOLATION}\n`);
  const served = await startChild(
    serveArgs(ROOT),
    { cwd: project, env: serveEnv(dir, modelUrl) },
    /(http:\/\/127\.0\.0\.1:\d+\/)/,
  );
  children.push(served.child);
  const serviceUrl = served.match[1]!;
  const pid = served.child.pid!;
  await checkAnswer(serviceUrl);
  console.log(
    `riverse serve (pid ${pid}) at ${serviceUrl}, model server at ${modelUrl}; ${STREAM ? 'streamed' : 'plain'} answers, the model ${MODEL_DELAY_MS} ms per request, ${DURATION_S} s per run, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)}`,
  );

  // Warm-up at the highest concurrency: the tool host, the validators, the JIT and a heap grown to
  // what that load keeps, before the RSS of the start is read (growth after that would be a leak).
  await service(serviceUrl, Math.max(...CONNECTIONS), WARMUP_S);
  if (!existsSync(capture)) throw new Error('the model server did not capture a request of each kind');
  const bodies = JSON.parse(readFileSync(capture, 'utf8')) as { call: string; answer: string };
  await bare(modelUrl, bodies, 8, Math.min(WARMUP_S, 2));
  const rssStart = rssMb(pid);

  const rows: Array<{ connections: number; paced?: number; bare: Figures; service: Figures }> = [];
  const rssAfter: number[] = [];
  const cpuRows: string[] = [];
  for (const connections of CONNECTIONS) {
    const modelCpu = cpuMs(modelPid);
    const b = await bare(modelUrl, bodies, connections, DURATION_S);
    const modelPerTurn = (cpuMs(modelPid) - modelCpu) / b.requests;
    const serviceCpu = cpuMs(pid);
    const s = await service(serviceUrl, connections, DURATION_S);
    const servicePerTurn = (cpuMs(pid) - serviceCpu) / s.requests;
    rows.push({ connections, bare: b, service: s });
    rssAfter.push(rssMb(pid));
    print(rows.at(-1)!);
    const core = await runCore(modelUrl, join(project, 'agent', 'tools'), connections, DURATION_S);
    const corePerTurn = core.cpuMs / core.turns;
    console.log(
      `${String(connections).padStart(3)} conn | core alone: ${(core.turns / core.seconds).toFixed(0).padStart(6)} turns/s p50 ${ms(core.p50)} p99 ${ms(core.p99)} errors ${core.errors}` +
        ` | service minus core: p50 ${ms(s.p50 - core.p50)} p99 ${ms(s.p99 - core.p99)} (ms)`,
    );
    cpuRows.push(
      `${String(connections).padStart(3)} conn | CPU per turn: the service ${servicePerTurn.toFixed(3)} ms, the core alone ${corePerTurn.toFixed(3)} ms ` +
        `(the HTTP layer ${(servicePerTurn - corePerTurn).toFixed(3)} ms; tool hosts not counted), the model server ${modelPerTurn.toFixed(3)} ms`,
    );
    if (PACED && connections > 1) {
      const rate = Math.max(1, Math.round(s.rps / 2));
      const pb = await bare(modelUrl, bodies, connections, DURATION_S, rate);
      const ps = await pacedService(serviceUrl, connections, DURATION_S, rate);
      rows.push({ connections, paced: rate, bare: pb, service: ps });
      rssAfter.push(rssMb(pid));
      print(rows.at(-1)!);
    }
  }
  for (const row of cpuRows) console.log(row);
  console.log(
    `load average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(', ')} (other work on this machine shows here)`,
  );
  await checkAnswer(serviceUrl);
  const rssEnd = rssMb(pid);
  const growth = ((rssEnd - rssStart) / rssStart) * 100;
  console.log(
    `service RSS: ${rssStart.toFixed(1)} MB after warm-up, ${rssAfter.map((mb) => mb.toFixed(1)).join(', ')} MB after each run; ` +
      `${rssEnd.toFixed(1)} MB at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)`,
  );

  const verdicts = [
    ...rows
      .filter((row) => row.connections === 32)
      .flatMap((row) => {
        const how = row.paced === undefined ? 'unpaced' : `paced at ${row.paced}/s`;
        return [
          [`p50 added at 32 connections, ${how}, ≤ 2 ms`, row.service.p50 - row.bare.p50 <= 2],
          [`p99 added at 32 connections, ${how}, ≤ 10 ms`, row.service.p99 - row.bare.p99 <= 10],
        ];
      }),
    ['no errors', rows.every((row) => row.service.errors === 0 && row.bare.errors === 0)],
    ['RSS growth < 10%', growth < 10],
  ] as Array<[string, boolean]>;
  for (const [target, met] of verdicts) console.log(`${met ? 'met   ' : 'MISSED'} ${target}`);
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  rmSync(dir, { recursive: true, force: true });
}
