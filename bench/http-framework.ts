// Benchmark: the HTTP frameworks `riverse serve` could be built on (decision 010), side by side on
// this machine — bare node:http (the floor), Hono on @hono/node-server, the same with the service's
// rules (Host, token, Origin, body limit), and Fastify. Each server runs in its own process and
// autocannon drives it from this one, in rounds that take turns (A B C D, A B C D, …), so that a
// noisy neighbour hurts every contender alike; medians of the rounds are printed. Not a test.
// Run with `node bench/http-framework.ts`. Knobs: BENCH_SECONDS per run (5), BENCH_ROUNDS (3),
// BENCH_CONNECTIONS (10).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SERVER = fileURLToPath(new URL('./http-framework-server.ts', import.meta.url));
const KINDS = ['node', 'hono', 'hono-rules', 'fastify'] as const;
const ECHO = JSON.stringify({ message: 'What is the weather in Tokyo?', session: 'default', lang: 'en' });

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function start(kind: string): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, [SERVER, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code}`)));
  });
  return { port, stop: () => child.kill() };
}

async function drive(port: number, route: 'json' | 'echo'): Promise<Run> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/${route}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' },
    ...(route === 'echo' ? { method: 'POST', body: ECHO } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const runs = new Map<string, Run[]>();
for (let round = 1; round <= ROUNDS; round++) {
  // Each round starts with another contender: the first of a round meets whatever load was there.
  for (const kind of [...KINDS.slice(round % KINDS.length), ...KINDS.slice(0, round % KINDS.length)]) {
    const server = await start(kind);
    try {
      for (const route of ['json', 'echo'] as const) {
        await drive(server.port, route); // warm-up, not counted: JIT and keep-alive sockets
        const key = `${kind} ${route}`;
        runs.set(key, [...(runs.get(key) ?? []), await drive(server.port, route)]);
      }
    } finally {
      server.stop();
    }
  }
  process.stderr.write(`round ${round}/${ROUNDS} done\n`);
}

console.log(
  `\n${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds (node ${process.version})\n`,
);
console.log('server       route   req/s     vs node   p50 ms  p99 ms  errors');
for (const route of ['json', 'echo'] as const) {
  const floor = median(runs.get(`node ${route}`)!.map((run) => run.rps));
  for (const kind of KINDS) {
    const list = runs.get(`${kind} ${route}`)!;
    const rps = median(list.map((run) => run.rps));
    console.log(
      `${kind.padEnd(12)} ${route.padEnd(6)} ${rps.toFixed(0).padStart(7)}   ${((rps / floor) * 100).toFixed(0).padStart(5)} %   ${String(median(list.map((run) => run.p50))).padStart(5)}   ${String(median(list.map((run) => run.p99))).padStart(5)}   ${list.reduce((sum, run) => sum + run.errors, 0)}`,
    );
  }
}
