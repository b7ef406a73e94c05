// A task row's runner name for a process of this host that has ended: the next runner on the store
// sees it is gone and interrupts its tasks (one of another host it cannot see, and leaves running).
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';

/** `host:pid:start` of a Node process that ran and exited on this host. */
export function stoppedRunner(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  return `${hostname()}:${pid}:1`;
}
