// A tool process must not outlive Riverse, even one that spins and so never hears its channel
// close. On Linux the kernel does it: the process is started through util-linux's `setpriv
// --pdeathsig KILL`, which asks for SIGKILL when its parent dies and then becomes the process
// (exec, same pid), at no cost while it runs. Elsewhere the host starts a thread that looks at its
// parent once a second (host-port.ts), which costs every host about 35 ms of CPU at its start.
import { readFileSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';
/** Set in a host's environment when the kernel ends it with its parent, so that it needs no thread to watch. */
export const PARENT_DEATH_ENV = 'RIVERSE_PARENT_DEATH_SIGNAL';

let prefix: readonly string[] | undefined;

/** The command a tool process is started through so that it dies with Riverse, or [] where there is none. */
export function parentDeathPrefix(): readonly string[] {
  if (prefix !== undefined) return prefix;
  // An older setpriv without --pdeathsig (util-linux < 2.33) leaves the work to the thread. Told by
  // the binary's option table, which names each long option, not by running it: that probe's
  // spawnSync held up every start that starts a host, on its way to the first call (8–80 ms here).
  const usable = process.platform === 'linux' && namesPdeathsig(SETPRIV);
  prefix = usable ? [SETPRIV, '--pdeathsig', 'KILL', '--'] : [];
  return prefix;
}

function namesPdeathsig(path: string): boolean {
  try {
    return readFileSync(path).includes('pdeathsig');
  } catch {
    return false; // no setpriv
  }
}

/** @internal For tests: hosts started from now on watch their parent with a thread, as where setpriv is missing. */
export function useParentWatchThread(): void {
  prefix = [];
}
