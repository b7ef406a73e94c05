// The recipe of docs/replicas.md, run as it is given: deploy/ copied into a project folder where
// riverse is installed (node_modules/riverse, its bin), `deploy/start-replicas.sh` started there
// with RIVERSE_DATABASE_URL (a throwaway PostgreSQL cluster) and RIVERSE_TOKEN, on free ports
// (RIVERSE_LISTEN, RIVERSE_REPLICA_1, RIVERSE_REPLICA_2). The balancer answers with both replicas'
// ids; a SIGTERM or a Ctrl+C's SIGINT to the script, or a replica that cannot start, stops every
// process it started, HAProxy too.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startPgCluster, type PgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { freePort, HAPROXY, HaproxyMissingError, haproxyInstalled } from './testing/load-balancer.ts';
import { deploymentEnv } from './testing/replicas.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'recipe-token-0123456789abcdef';

/**
 * The processes running (zombies left out) in process group `group`, with their command names:
 * the script's group holds everything it started, even a child whose parent has gone.
 */
function groupMembers(group: number): Map<number, string> {
  const members = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read from the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') members.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
  }
  return members;
}

/** Waits (a bounded while) until nothing of group `group` runs; answers what still does. */
async function leftOf(group: number): Promise<Map<number, string>> {
  // The replicas' tool hosts end when their replica has (a host never outlives it, 018): a moment later.
  let left = groupMembers(group);
  for (let attempt = 0; left.size > 0 && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = groupMembers(group);
  }
  return left;
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

  /** The script started as the docs give it, on free ports; its own process group (`script.pid`), for the checks and the clean-up. */
  async function startRecipe(ports: { listen: number; first: number; second: number }) {
    const env = deploymentEnv({
      // This Node (24) first, as a project's shell has it; the script finds riverse in node_modules/.bin.
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      RIVERSE_DATABASE_URL: databaseUrl,
      RIVERSE_TOKEN: TOKEN,
      RIVERSE_DATA_DIR: join(folder, 'data'),
      RIVERSE_LISTEN: `127.0.0.1:${ports.listen}`,
      RIVERSE_REPLICA_1: `127.0.0.1:${ports.first}`,
      RIVERSE_REPLICA_2: `127.0.0.1:${ports.second}`,
    });
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
    return {
      script,
      exited,
      output: () => output,
      /** Kills whatever a failed test left of it. */
      cleanUp() {
        try {
          process.kill(-script.pid!, 'SIGKILL');
        } catch {
          // the group is gone: nothing was left
        }
      },
    };
  }

  const freePorts = async () => ({ listen: await freePort(), first: await freePort(), second: await freePort() });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`brings up two replicas behind HAProxy; ${signal} stops all of them`, async () => {
      const ports = await freePorts();
      const recipe = await startRecipe(ports);
      const { script } = recipe;
      try {
        // Up when the balancer answers /api/status with a replica's id (its health check passed), bounded by the test's time.
        const ids = new Set<string>();
        const status = () =>
          fetch(`http://127.0.0.1:${ports.listen}/api/status`, { headers: { authorization: `Bearer ${TOKEN}` } })
            .then(async (response) =>
              response.status === 200 ? ((await response.json()) as { replica: { id: string } }).replica.id : undefined,
            )
            .catch(() => undefined);
        // Every round waits: while one replica is up, the balancer answers at once with the same id.
        for (let attempt = 0; ids.size < 2; attempt++) {
          assert.equal(script.exitCode, null, `the script stopped:\n${recipe.output()}`);
          const id = await status();
          if (id !== undefined) ids.add(id);
          if (ids.size < 2) await new Promise((resolve) => setTimeout(resolve, 200));
          assert.ok(attempt < 600, `the balancer did not reach two replicas:\n${recipe.output()}`);
        }
        assert.equal(ids.size, 2, 'two different replicas answer through the balancer');
        const running = [...groupMembers(script.pid!).values()];
        assert.ok(running.includes('haproxy'), `HAProxy runs: ${JSON.stringify(running)}`);
        script.kill(signal);
        assert.equal(await recipe.exited, signal === 'SIGTERM' ? 143 : 130, recipe.output());
        assert.deepEqual([...(await leftOf(script.pid!))], [], `nothing left behind:\n${recipe.output()}`);
      } finally {
        recipe.cleanUp();
      }
    });

  it('a replica that cannot start (its port taken) stops the script and what it started', async () => {
    const ports = await freePorts();
    // Held by another program, which HAProxy's checks may reach meanwhile: each connection closed at once.
    const taken = createServer((socket) => socket.on('error', () => {}).destroy());
    await new Promise<void>((resolve) => taken.listen(ports.second, '127.0.0.1', resolve));
    const recipe = await startRecipe(ports);
    try {
      assert.notEqual(await recipe.exited, 0, recipe.output());
      assert.match(recipe.output(), new RegExp(`${ports.second}`));
      assert.deepEqual([...(await leftOf(recipe.script.pid!))], [], `nothing left behind:\n${recipe.output()}`);
    } finally {
      recipe.cleanUp();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
