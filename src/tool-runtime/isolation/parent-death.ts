// A tool process must not outlive Riverse, even one that spins and so never hears its channel
// close. On Linux the kernel does it: the process is started through util-linux's `setpriv
// --pdeathsig KILL`, which asks for SIGKILL when its parent dies and then becomes the process
// (exec, same pid), at no cost while it runs. Elsewhere the host starts a thread that looks at its
// parent once a second (host-port.ts), which costs every host about 35 ms of CPU at its start.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';
/** Set in a host's environment when the kernel ends it with its parent, so that it needs no thread to watch. */
export const PARENT_DEATH_ENV = 'RIVERSE_PARENT_DEATH_SIGNAL';

let prefix: readonly string[] | undefined;

/** The command a tool process is started through so that it dies with Riverse, or [] where there is none. */
export function parentDeathPrefix(): readonly string[] {
  if (prefix !== undefined) return prefix;
  // Tried once: an older setpriv without --pdeathsig (util-linux < 2.33) fails, and the thread does the work.
  const usable =
    process.platform === 'linux' &&
    existsSync(SETPRIV) &&
    spawnSync(SETPRIV, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  prefix = usable ? [SETPRIV, '--pdeathsig', 'KILL', '--'] : [];
  return prefix;
}

/** @internal For tests: hosts started from now on watch their parent with a thread, as where setpriv is missing. */
export function useParentWatchThread(): void {
  prefix = [];
}
