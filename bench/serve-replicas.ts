// Benchmark: the same tool turns as bench/serve-load.ts (/v1/chat/completions, the scripted model
// asking for the drop-in `echo` tool, then answering) through HAProxy (round-robin) to 1, 2 and 3
// `riverse serve` replicas on PostgreSQL, beside one replica on SQLite: requests/s, p50, p99 and
// errors, side by side in one run. PostgreSQL is a throwaway cluster (src/store/postgres/testing/,
// Debian's package), a fresh database per row, or the one BENCH_DATABASE_URL names;
// BENCH_SHARED_SQLITE=1 adds rows of 2 and 3 replicas on one SQLite file (what one machine can do
// without a database server).
// On one machine the replicas share its cores, so the figures say what the shared store costs per
// turn and that nothing fails, not how far replicas on several machines go (decision 039).
// Not a test. Run with `npm run bench:replicas`.
// Knobs: BENCH_DURATION_S (20 per run), BENCH_CONNECTIONS (16), BENCH_REPLICAS ("1,2,3"),
// BENCH_MODEL_DELAY_MS (50), BENCH_WARMUP_S (5), BENCH_DATABASE_URL, BENCH_SHARED_SQLITE.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoadBalancer } from '../src/server/testing/load-balancer.ts';
import { startReplicas } from '../src/server/testing/replicas.ts';
import { type PgCluster, startPgCluster } from '../src/store/postgres/testing/pg-cluster.ts';
import { checkAnswer, ECHO_TOOL, type Figures, service, startChild } from './serve-load-parts.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2,3').split(',').map(Number);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const MODEL_DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 50);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const SHARED_SQLITE = process.env.BENCH_SHARED_SQLITE === '1';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Row {
  store: string;
  replicas: number;
  figures: Figures;
}

/** N replicas on `store` behind HAProxy: warmed up, then driven for DURATION_S at CONNECTIONS. */
async function measure(
  project: string,
  modelUrl: string,
  store: { dataDir: string } | { databaseUrl: string },
  count: number,
): Promise<Figures> {
  const set = await startReplicas(count, {
    cwd: project,
    store,
    env: { RIVERSE_MODEL: 'openai:bench-model', OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'bench' },
  });
  const balancer = await startLoadBalancer(set.replicas.map((replica) => replica.port)).catch(async (error) => {
    await set.stop();
    throw error;
  });
  try {
    for (const replica of set.replicas) await checkAnswer(replica.url);
    await service(balancer.url, CONNECTIONS, WARMUP_S);
    return await service(balancer.url, CONNECTIONS, DURATION_S);
  } finally {
    await balancer.stop();
    await set.stop();
  }
}

const ms = (value: number) => value.toFixed(1).padStart(7);
const print = (row: Row) =>
  console.log(
    `${row.store.padEnd(10)} × ${row.replicas} | ${row.figures.rps.toFixed(0).padStart(5)} req/s | p50 ${ms(row.figures.p50)} ms | p99 ${ms(row.figures.p99)} ms | errors ${row.figures.errors}`,
  );

const dir = mkdtempSync(join(tmpdir(), 'riverse-serve-replicas-'));
const children: ChildProcess[] = [];
let cluster: PgCluster | undefined;
try {
  const model = await startChild(
    [join(ROOT, 'bench/serve-load-model.ts')],
    { env: { BENCH_MODEL_DELAY_MS: String(MODEL_DELAY_MS) } },
    /(http:\/\/127\.0\.0\.1:\d+\/v1)/,
  );
  children.push(model.child);
  const modelUrl = model.match[1]!;
  const project = join(dir, 'project');
  mkdirSync(join(project, 'agent', 'tools'), { recursive: true });
  writeFileSync(join(project, 'agent', 'tools', 'echo.ts'), ECHO_TOOL);
  console.log(
    `${CONNECTIONS} connections through HAProxy (round-robin), ${DURATION_S} s per run after ${WARMUP_S} s of warm-up, the model ${MODEL_DELAY_MS} ms per request; ` +
      `${cpus().length} cores shared by every replica, HAProxy, the model server and the load; Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)}`,
  );
  const rows: Row[] = [];
  const run = async (label: string, store: { dataDir: string } | { databaseUrl: string }, count: number) => {
    rows.push({ store: label, replicas: count, figures: await measure(project, modelUrl, store, count) });
    print(rows.at(-1)!);
  };
  // One replica on its own SQLite file: the embedded default, the figure the others are set against.
  await run('sqlite', { dataDir: join(dir, 'sqlite-1') }, 1);
  if (DATABASE_URL === undefined) cluster = await startPgCluster();
  for (const count of REPLICAS) {
    const databaseUrl = DATABASE_URL ?? (await cluster!.createDatabase(`bench${count}`));
    await run('postgresql', { databaseUrl }, count);
  }
  if (SHARED_SQLITE)
    for (const count of REPLICAS.filter((n) => n > 1))
      await run('sqlite', { dataDir: join(dir, `sqlite-${count}`) }, count);
  const base = rows[0]!.figures;
  console.log(
    rows
      .slice(1)
      .map(
        (row) =>
          `${row.store} × ${row.replicas}: ${((row.figures.rps / base.rps) * 100).toFixed(0)}% of one SQLite replica's requests/s, p50 ${row.figures.p50 - base.p50 >= 0 ? '+' : ''}${(row.figures.p50 - base.p50).toFixed(1)} ms`,
      )
      .join('\n'),
  );
  const failed = rows.filter((row) => row.figures.errors > 0);
  console.log(
    failed.length === 0
      ? 'met    no errors'
      : `MISSED no errors (${failed.map((row) => `${row.store} × ${row.replicas}`).join(', ')})`,
  );
} finally {
  await cluster?.stop();
  for (const child of children.reverse()) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  rmSync(dir, { recursive: true, force: true });
}
