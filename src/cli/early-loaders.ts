// On a cold start of a command that loads tools, the loaders start before the program's own
// modules load (decision 013): Riverse's start leaves a core idle, which their start can use.
// Every command passes here, so it imports the loaders' code only when it starts them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir } from '../tool-runtime/load-cache.ts';

/** The commands that load the tool files before doing anything else. */
const LOADING = [['tools', 'list'], ['tools', 'show'], ['tools', 'run'], ['tools', 'check'], ['ask'], ['chat']];

/**
 * Starts loaders when `argv` (without node and the script) is one of those commands and there is
 * no load cache at all yet, so every file will be imported. With the defaults (process isolation,
 * 256 MB): a config that asks for others gets loaders of its own, and these end unused.
 */
export async function startLoadersOnColdStart(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  if (!LOADING.some((command) => command.every((word, index) => commandWords(argv)[index] === word))) return false;
  if (existsSync(join(defaultCacheDir(env), 'tools'))) return false;
  // The pool and the hosts only: the rest of the loading machinery loads with the program, meanwhile.
  const [{ startEarlyLoaders }, { DEFAULT_HOST_MEMORY_MB }] = await Promise.all([
    import('../tool-runtime/isolation/loader-pool.ts'),
    import('../tool-runtime/isolation/tool-host.ts'),
  ]);
  startEarlyLoaders('process', DEFAULT_HOST_MEMORY_MB);
  return true;
}

/** The words before the first option, past the global `-c/--config <file>`. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let index = 0; index < argv.length && words.length < 2; index++) {
    const arg = argv[index]!;
    if (arg === '-c' || arg === '--config') index++;
    else if (arg.startsWith('-')) continue;
    else words.push(arg);
  }
  return words;
}
