import { homedir } from 'node:os';
import { posix, resolve, win32 } from 'node:path';

/**
 * Where Riverse keeps its data (the session database): `$RIVERSE_DATA_DIR`, else
 * `$XDG_DATA_HOME/riverse`, else `~/.local/share/riverse`; on Windows `%LOCALAPPDATA%\riverse`.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.RIVERSE_DATA_DIR) return resolve(env.RIVERSE_DATA_DIR);
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || win32.join(env.USERPROFILE || homedir(), 'AppData', 'Local');
    return win32.join(local, 'riverse');
  }
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  if (env.XDG_DATA_HOME && posix.isAbsolute(env.XDG_DATA_HOME)) return posix.join(env.XDG_DATA_HOME, 'riverse');
  return posix.join(env.HOME || homedir(), '.local', 'share', 'riverse');
}
