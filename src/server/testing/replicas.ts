// Several `riverse serve` processes as a deployment runs them: one project folder (its riverse.yaml
// and tool folder) and one store for all — a shared SQLite data folder (WAL lets several processes
// use one file) or a PostgreSQL URL — each on a free port of 127.0.0.1; each names itself (its
// replica id, read from /api/status: a new one at every start). A replica can be stopped (SIGTERM), killed (SIGKILL: "a replica killed mid-turn") and started again
// on its port. For tests and benchmarks only.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

export interface ReplicaOptions {
  /** The project folder the replicas run in (riverse.yaml, `agent/tools/`). */
  cwd: string;
  /** The store all of them share: `{ dataDir }` (SQLite) or `{ databaseUrl }` (PostgreSQL). */
  store: { dataDir: string } | { databaseUrl: string };
  /** More environment (the model: RIVERSE_MODEL, OPENAI_BASE_URL, …). */
  env?: Record<string, string>;
  /** Gives every replica this access token (`--token`). */
  token?: string;
}

export interface Replica {
  /** 1-based: the order they were started in. */
  index: number;
  /** The replica id of its current process (`/api/status`). */
  readonly id: string;
  port: number;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Whether its process is running. */
  alive(): boolean;
  /** SIGTERM, and waits for its exit. */
  stop(): Promise<void>;
  /** SIGKILL, at once, as a crash or a pulled plug: nothing of it gets to clean up. */
  kill(): Promise<void>;
  /** Starts it again on the same port (a new process: a new replica id). */
  restart(): Promise<void>;
}

export interface ReplicaSet {
  replicas: Replica[];
  stop(): Promise<void>;
}

/**
 * The environment of a deployment's process started by a test: nothing of the test runner's, no
 * Riverse setting from outside, no local model server to find; then `extra`.
 */
export function deploymentEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env))
    if (name.startsWith('RIVERSE_') || /^npm_/i.test(name) || ['NODE_TEST_CONTEXT', 'NODE_OPTIONS'].includes(name))
      delete env[name];
  return Object.assign(env, { OLLAMA_HOST: '127.0.0.1:9' }, extra);
}

/** The environment of every replica: the store, and nothing of the test runner's. */
function replicaEnv(options: ReplicaOptions): NodeJS.ProcessEnv {
  const env = deploymentEnv(options.env);
  if ('dataDir' in options.store) env.RIVERSE_DATA_DIR = options.store.dataDir;
  else env.RIVERSE_DATABASE_URL = options.store.databaseUrl;
  return env;
}

/** Starts one replica; resolves once it prints its address (its port is then open). */
async function startReplica(options: ReplicaOptions, index: number, port = 0): Promise<Replica> {
  let id = '';
  let child: ChildProcess;
  let output = '';
  let exited: Promise<void>;
  let url = '';
  let actualPort = port;
  const launch = async (onPort: number) => {
    output = '';
    // The service's young generation given up front: it then does not restart itself (019).
    child = spawn(
      process.execPath,
      [
        '--max-semi-space-size=16',
        CLI,
        'serve',
        '--port',
        String(onPort),
        ...(options.token === undefined ? [] : ['--token', options.token]),
      ],
      { cwd: options.cwd, env: replicaEnv(options), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = new Promise<string>((resolve, reject) => {
      const look = (chunk: Buffer) => {
        output += chunk;
        const found = /serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
        if (found !== undefined && output.includes('Ctrl+C')) resolve(found);
      };
      child.stdout!.on('data', look);
      child.stderr!.on('data', look);
      child.once('exit', (code, signal) =>
        reject(new Error(`Replica ${index} stopped before it served (exit ${code ?? signal}):\n${output}`)),
      );
    });
    url = await started;
    actualPort = Number(new URL(url).port);
    const status = await fetch(`${url}api/status`, {
      headers: options.token === undefined ? {} : { authorization: `Bearer ${options.token}` },
    });
    id = ((await status.json()) as { replica: { id: string } }).replica.id;
  };
  await launch(port);
  const replica: Replica = {
    index,
    get id() {
      return id;
    },
    get port() {
      return actualPort;
    },
    get url() {
      return url;
    },
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async restart() {
      await replica.stop();
      await launch(actualPort);
    },
  };
  return replica;
}

/** Starts `count` replicas at once (together: their stores' first opens race, as in a deployment). */
export async function startReplicas(count: number, options: ReplicaOptions): Promise<ReplicaSet> {
  const settled = await Promise.allSettled(
    Array.from({ length: count }, (_, index) => startReplica(options, index + 1)),
  );
  const replicas = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(replicas.map((replica) => replica.kill()));
    throw (failed as PromiseRejectedResult).reason;
  }
  return { replicas, stop: async () => void (await Promise.all(replicas.map((replica) => replica.stop()))) };
}
