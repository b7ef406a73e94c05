// The recipe of docs/replicas.md, run as it is given: deploy/ copied into a project folder where
// riverse is installed (node_modules/riverse, its bin), `deploy/start-replicas.sh` started there
// with RIVERSE_DATABASE_URL (a throwaway PostgreSQL cluster) and RIVERSE_TOKEN, on free ports
// (RIVERSE_LISTEN, RIVERSE_REPLICA_1, RIVERSE_REPLICA_2). The balancer answers with both replicas'
// ids; a SIGTERM or a Ctrl+C's SIGINT to the script stops every process it started, HAProxy too.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startPgCluster, type PgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { freePort, HAPROXY, HaproxyMissingError, haproxyInstalled } from './testing/load-balancer.ts';
import { deploymentEnv } from './testing/replicas.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'recipe-token-0123456789abcdef';

/** Every process descending from `pid` now, with its command name (read from /proc). */
function descendants(pid: number): Map<number, string> {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read from the last ')'.
    const close = stat.lastIndexOf(')');
    const parent = Number(stat.slice(close + 2).split(' ')[1]);
    names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found = new Map<number, string>();
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.set(child, names.get(child)!);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Whether `pid` runs (a zombie, exited but not yet reaped by its new parent, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('deploy/start-replicas.sh, run as docs/replicas.md gives it', () => {
  let cluster: PgCluster;
  let databaseUrl: string;
  let folder: string;
  let project: string;
  before(async () => {
    if (!haproxyInstalled()) throw new HaproxyMissingError(HAPROXY);
    cluster = await startPgCluster();
    databaseUrl = await cluster.createDatabase('recipe');
    folder = mkdtempSync(join(tmpdir(), 'riverse-recipe-'));
    // A project folder as the README sets one up, with riverse installed (a link to this checkout) and deploy/ copied in.
    project = join(folder, 'project');
    mkdirSync(join(project, 'agent', 'tools'), { recursive: true });
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', 'riverse'), 'dir');
    symlinkSync('../riverse/bin/riverse.js', join(project, 'node_modules', '.bin', 'riverse'));
    writeFileSync(join(project, 'package.json'), '{ "private": true, "dependencies": { "riverse": "*" } }\n');
    writeFileSync(join(project, 'riverse.yaml'), '# the model and its tools, as the README says\n');
    cpSync(join(ROOT, 'deploy'), join(project, 'deploy'), { recursive: true });
  });
  after(async () => {
    await cluster?.stop();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`brings up two replicas behind HAProxy; ${signal} stops all of them`, async () => {
      const [listen, first, second] = [await freePort(), await freePort(), await freePort()];
      const env = deploymentEnv({
        // This Node (24) first, as a project's shell has it; the script finds riverse in node_modules/.bin.
        PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
        RIVERSE_DATABASE_URL: databaseUrl,
        RIVERSE_TOKEN: TOKEN,
        RIVERSE_DATA_DIR: join(folder, 'data'),
        RIVERSE_LISTEN: `127.0.0.1:${listen}`,
        RIVERSE_REPLICA_1: `127.0.0.1:${first}`,
        RIVERSE_REPLICA_2: `127.0.0.1:${second}`,
      });
      // Its own process group, so that whatever it leaves can be cleaned up after a failure; the test signals the script alone.
      // deploy/start-replicas.sh, in the project folder (its own copy, executable as the repository's is).
      const script: ChildProcess = spawn(join(project, 'deploy', 'start-replicas.sh'), [], {
        cwd: project,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      script.stdout!.on('data', (chunk) => (output += chunk));
      script.stderr!.on('data', (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => script.once('exit', (code) => resolve(code)));
      try {
        // Up when the balancer answers /api/status with a replica's id (its health check passed), bounded by the test's time.
        const ids = new Set<string>();
        const status = () =>
          fetch(`http://127.0.0.1:${listen}/api/status`, { headers: { authorization: `Bearer ${TOKEN}` } })
            .then(async (response) =>
              response.status === 200 ? ((await response.json()) as { replica: { id: string } }).replica.id : undefined,
            )
            .catch(() => undefined);
        for (let attempt = 0; ids.size < 2; attempt++) {
          assert.equal(script.exitCode, null, `the script stopped:\n${output}`);
          const id = await status();
          if (id !== undefined) ids.add(id);
          else await new Promise((resolve) => setTimeout(resolve, 200));
          assert.ok(attempt < 600, `the balancer did not reach two replicas:\n${output}`);
        }
        assert.equal(ids.size, 2, 'two different replicas answer through the balancer');
        const started = descendants(script.pid!);
        assert.ok([...started.values()].includes('haproxy'), `HAProxy runs: ${JSON.stringify([...started])}`);
        script.kill(signal);
        assert.equal(await exited, signal === 'SIGTERM' ? 143 : 130, output);
        // The replicas' tool hosts end when their replica has (a host never outlives it, 018): a moment later.
        let left = [...started].filter(([pid]) => alive(pid));
        for (let attempt = 0; left.length > 0 && attempt < 100; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          left = left.filter(([pid]) => alive(pid));
        }
        assert.deepEqual(left, [], `nothing left behind:\n${output}`);
      } finally {
        if (script.exitCode === null) script.kill('SIGKILL');
        try {
          process.kill(-script.pid!, 'SIGKILL');
        } catch {
          // the group is gone: nothing was left
        }
      }
    });
});
