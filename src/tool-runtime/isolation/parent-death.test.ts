import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { tempDir, toolSource, writeFiles } from '../test-support.ts';
import { parentDeathPrefix } from './parent-death.ts';

const REGISTRY = fileURLToPath(new URL('../tool-registry.ts', import.meta.url));
const PARENT_DEATH = fileURLToPath(new URL('./parent-death.ts', import.meta.url));

/** Alive and not a zombie (a zombie has ended; it only waits to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A Riverse process (a script using the registry) calls a tool that spins forever, so its process
 * never hears its channel close; then Riverse is killed with SIGKILL, so nothing of Riverse can stop
 * it. The tool's process must end by itself: this waits until it has (the test's timeout bounds the
 * wait; a process still spinning then is killed by the test's cleanup).
 */
async function spinningToolEnds(t: Parameters<typeof tempDir>[0], watch: 'kernel' | 'thread'): Promise<void> {
  const dir = await tempDir(t);
  await writeFiles(join(dir, 'tools'), {
    'spin.ts': toolSource('spin', { execute: 'process.stdout.write(`tool pid ${process.pid}\\n`); for (;;) {}' }),
  });
  const script = join(dir, 'riverse.ts');
  await writeFile(
    script,
    `import { ToolRegistry } from ${JSON.stringify(REGISTRY)};
import { useParentWatchThread } from ${JSON.stringify(PARENT_DEATH)};
if (${JSON.stringify(watch)} === 'thread') useParentWatchThread();
const registry = await ToolRegistry.load({ folders: [${JSON.stringify(join(dir, 'tools'))}], config: { tools: { isolation: 'process', timeout_ms: 600000 } } });
void registry.execute('spin', {});
`,
  );
  const riverse = spawn(process.execPath, ['--conditions=riverse-source', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => riverse.kill('SIGKILL'));
  let out = '';
  const toolPid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the tool never started: ${out}`)), 30_000);
    riverse.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /tool pid (\d+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  t.after(() => {
    if (alive(toolPid)) process.kill(toolPid, 'SIGKILL');
  });
  assert.ok(alive(toolPid), 'the tool is spinning in its process');
  riverse.kill('SIGKILL');
  while (alive(toolPid)) await sleep(20);
}

test('a spinning tool process ends when Riverse is killed: the kernel ends it (setpriv --pdeathsig)', {
  timeout: 60_000,
  skip: parentDeathPrefix().length === 0 ? 'no setpriv with --pdeathsig here' : false,
}, async (t) => {
  await spinningToolEnds(t, 'kernel');
});

test('a spinning tool process ends when Riverse is killed: where there is no setpriv, its own thread ends it', {
  timeout: 60_000,
  skip: existsSync('/proc') ? false : 'needs /proc',
}, async (t) => {
  await spinningToolEnds(t, 'thread');
});

// setpriv is chosen by what its binary names, without running it: that reading must agree with running it.
test('setpriv is used exactly when `setpriv --pdeathsig KILL -- true` runs here', {
  skip: process.platform === 'linux' ? false : 'Linux only',
}, () => {
  const runs = spawnSync('/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  assert.equal(parentDeathPrefix().length > 0, runs);
});
