// `riverse serve` runs for days, under whatever load comes. V8 sizes its young generation from the
// machine's memory (on a 24 GB machine, 64 MB semi-spaces) and grows it to that maximum under any
// sustained load, after which the service holds ~128 MB for short-lived garbage; 16 MB semi-spaces
// keep it at a quarter of that for the same CPU per turn and latency (decision 019). V8's
// pretenuring, which decides once under the first load that a turn's objects are long-lived and
// never decides again in a service, is off: it made a turn's garbage die in the old generation
// (decision 019's addendum, issue 25). Both are fixed when the process starts, hence a restart in
// place before anything is loaded.
import { commandWords } from '../early-loaders.ts';

const SERVICE_SEMI_SPACE_MB = 16;
const FLAG = '--max-semi-space-size';
/** The V8 flags `riverse serve` runs with; Node flags given to it come after, so theirs win. */
export const SERVICE_V8_FLAGS = [`${FLAG}=${SERVICE_SEMI_SPACE_MB}`, '--no-allocation-site-pretenuring'];

/**
 * The arguments to restart this process with for `serve` (`argv` without node and the script),
 * or undefined: another command, or a young generation already chosen on the command line or in
 * NODE_OPTIONS (theirs is kept).
 */
export function serviceRestartArgs(
  argv: readonly string[],
  process: Pick<NodeJS.Process, 'execPath' | 'execArgv' | 'argv' | 'env'>,
): string[] | undefined {
  if (!serves(argv)) return undefined;
  const chosen = (arg: string) =>
    arg === FLAG || arg.startsWith(`${FLAG}=`) || arg === '--max-heap-size' || arg.startsWith('--max-heap-size=');
  if (process.execArgv.some(chosen) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(chosen)) return undefined;
  return [process.execPath, ...SERVICE_V8_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
}

/** Options of the bare command (`riverse`, `npm start`: the service) that take a value. */
const VALUED = new Set(['-c', '--config', '--host', '--port', '--token', '--lang']);

/** `serve`, or the bare command with only its own options (and not asking for help or the version). */
function serves(argv: readonly string[]): boolean {
  if (commandWords(argv)[0] === 'serve') return true;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (['-h', '--help', '-V', '--version'].includes(arg) || !arg.startsWith('-')) return false;
    if (VALUED.has(arg)) index++;
  }
  return true;
}

/**
 * For `serve`, replaces this process (same pid, stdio and environment) by one with the service's
 * V8 flags. Where `process.execve` does not exist (Windows; Node before 22.15) it goes on
 * with V8's default.
 */
export function restartForService(argv: readonly string[]): void {
  const args = serviceRestartArgs(argv, process);
  if (args !== undefined && typeof process.execve === 'function') process.execve(process.execPath, args, process.env);
}
