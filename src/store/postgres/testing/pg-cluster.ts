// A throwaway PostgreSQL for tests: initdb in a temp folder, started on a free port of 127.0.0.1 with
// trust auth and fsync off, stopped and removed at the end. One per test file (a start takes ~1 s).
// PostgreSQL refuses to run as root, and CI runs as root: then the binaries run as `postgres` (or
// `nobody`) through runuser, with the folder handed to that user.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgCluster {
  /** `postgres://riverse@127.0.0.1:<port>/postgres`: the superuser, trusted, no password. */
  readonly url: string;
  readonly port: number;
  /** A new empty database on this cluster, and its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast: connections are cut), keeping its data: the database "goes away". */
  down(): Promise<void>;
  /** Starts it again on the same port, with the same data. */
  up(): Promise<void>;
  /** down() then up(). */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const NOT_INSTALLED =
  'PostgreSQL is not installed: no initdb was found through `pg_config --bindir`, /usr/lib/postgresql/*/bin or PATH. ' +
  '`.ci/run` installs it (apt-get install -y --no-install-recommends postgresql haproxy); on a workstation install ' +
  "your system's postgresql package.";

/** Where initdb, pg_ctl and postgres are; throws the message above when nowhere. `places`: for its test. */
export function findPgBinaries(places: { path?: string; debian?: string } = {}): string {
  const path = (places.path ?? process.env.PATH ?? '').split(':').filter(Boolean);
  const candidates: string[] = [];
  // pg_config by its full path: knip would take a bare name for a binary the package must list.
  const pgConfig = path.map((dir) => join(dir, 'pg_config')).find((file) => existsSync(file));
  try {
    if (pgConfig !== undefined) {
      candidates.push(
        execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
      );
    }
  } catch {
    // a broken pg_config: try the next places
  }
  const debian = places.debian ?? '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  candidates.push(...path);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (found === undefined) throw new Error(NOT_INSTALLED);
  return found;
}

/** The user the server runs as when we are root: postgres if the system has it, else nobody. */
function unprivilegedUser(): { name: string; uid: number; gid: number } {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { name, uid, gid };
    } catch {
      // no such user
    }
  }
  throw new Error(
    'PostgreSQL refuses to run as root, and this machine has neither a postgres nor a nobody user to run it as.',
  );
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'riverse-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? unprivilegedUser() : undefined;
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const pg = async (tool: string, args: string[]) => {
    const [file, argv] =
      user === undefined ? [join(bin, tool), args] : ['runuser', ['-u', user.name, '--', join(bin, tool), ...args]];
    try {
      await run(file, argv, { cwd: dir, env: { ...process.env, LC_ALL: 'C' } });
    } catch (error) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${tool} ${args.join(' ')} failed: ${(error as Error).message}\n${serverLog}`, { cause: error });
    }
  };

  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'riverse', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const up = () => pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
  const down = () => pg('pg_ctl', ['-D', data, '-w', '-t', '60', '-m', 'fast', 'stop']);
  await up();
  const running = { value: true };
  const url = `postgres://riverse@127.0.0.1:${port}/postgres`;

  const cluster: PgCluster = {
    url,
    port,
    async createDatabase(name) {
      const { default: pgDriver } = await import('pg');
      const client = new pgDriver.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
      return `postgres://riverse@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    async down() {
      await down();
      running.value = false;
    },
    async up() {
      await up();
      running.value = true;
    },
    async restart() {
      await cluster.down();
      await cluster.up();
    },
    async stop() {
      try {
        if (running.value) await down();
      } finally {
        running.value = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return cluster;
}
