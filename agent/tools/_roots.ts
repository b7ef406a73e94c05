// Path confinement for the file tools: every path is resolved to its real path (symlinks followed)
// and must lie inside a root's real path. A prefix check on the text of a path is not enough
// (`/data-evil` starts with `/data`; `root/link` may point anywhere), so the check is on real
// paths and whole path components, and is made again on what was actually opened.
import { closeSync, constants, fstatSync, openSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ToolResult, toolSection, type AppConfig } from 'riverse';

/** A path the tools refuse, with a message the model can act on. */
export class RootError extends Error {
  override name = 'RootError';
}

/** A refused path as the tool's failure; anything else is thrown on. */
export function refusal(error: unknown): ToolResult {
  if (error instanceof RootError) return ToolResult.fail(error.message);
  throw error;
}

/**
 * The roots the file tools may touch: `tools.files.roots` (relative ones against the config's
 * folder), by default that folder itself — the folder Riverse runs in, for `riverse serve` too.
 */
export function fileRoots(config: AppConfig): string[] {
  const base = typeof config.base_dir === 'string' ? config.base_dir : process.cwd();
  const listed = toolSection(config, 'files').roots;
  const roots = Array.isArray(listed)
    ? listed.filter((root): root is string => typeof root === 'string' && root !== '')
    : [];
  return (roots.length > 0 ? roots : ['.']).map((root) => resolve(base, root));
}

/** True when `path` is `root` or inside it, compared component by component. */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The real paths of the roots that exist (a root that does not exist holds nothing). */
function realRoots(roots: readonly string[]): string[] {
  return roots.flatMap((root) => {
    try {
      return [realpathSync(root)];
    } catch {
      return [];
    }
  });
}

/** The path as asked: absolute as is, relative against the first root. */
function asked(path: string, roots: readonly string[]): string {
  if (path.includes('\0')) throw new RootError('The path contains a NUL character.');
  return isAbsolute(path) ? resolve(path) : resolve(roots[0] ?? process.cwd(), path);
}

function refuse(path: string, roots: readonly string[]): never {
  throw new RootError(
    `${path} is outside the folders the file tools may use (${roots.join(', ')}); give a path inside one of them (relative paths start at ${roots[0]}).`,
  );
}

/** The real path of an existing file or folder inside a root; a `..` or a symlink that leads out is refused. */
export function confinedPath(path: string, roots: readonly string[]): string {
  const wanted = asked(path, roots);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new RootError(`${path} does not exist.`);
    throw new RootError(`${path} cannot be resolved: ${(error as Error).message}`);
  }
  const inside = realRoots(roots);
  if (!inside.some((root) => isInside(real, root))) refuse(path, roots);
  return real;
}

/** Test seam: runs between the check of a path and its opening, where a race would strike. */
export interface OpenHooks {
  beforeOpen?: (path: string) => void;
}

/**
 * Opens an existing file inside a root for reading. The last component is opened with O_NOFOLLOW
 * (a symlink put there after the check is refused), and what was opened is checked again: its
 * real path must be inside a root and be the very file (device and inode) the descriptor holds,
 * so a folder swapped for a symlink after the check is caught too.
 */
export function openConfinedForRead(
  path: string,
  roots: readonly string[],
  hooks: OpenHooks = {},
): { fd: number; real: string } {
  const real = confinedPath(path, roots);
  hooks.beforeOpen?.(real);
  const fd = openOrRefuse(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK, path);
  try {
    verifyOpened(fd, real, roots, path);
    return { fd, real };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Opens a file inside a root for writing (created if missing; its folder must exist). The folder
 * is resolved to its real path and checked; the file is opened with O_NOFOLLOW and without
 * truncating, checked again as it was opened, and only then cut or appended to — so a symlink or a
 * swapped folder cannot make it write, or truncate, anything outside. A file it created outside
 * in such a race is removed again.
 */
export function openConfinedForWrite(
  path: string,
  roots: readonly string[],
  hooks: OpenHooks = {},
): { fd: number; real: string; created: boolean } {
  const wanted = asked(path, roots);
  const folder = confinedPath(dirname(wanted), roots);
  const real = join(folder, basename(wanted));
  hooks.beforeOpen?.(real);
  const flags = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  let created = true;
  try {
    fd = openSync(real, flags | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw openError(error, path);
    created = false;
    fd = openOrRefuse(real, flags, path);
  }
  try {
    verifyOpened(fd, real, roots, path);
    return { fd, real, created };
  } catch (error) {
    closeSync(fd);
    if (created) {
      try {
        unlinkSync(real);
      } catch {
        // already gone
      }
    }
    throw error;
  }
}

function openOrRefuse(real: string, flags: number, path: string): number {
  try {
    return openSync(real, flags);
  } catch (error) {
    throw openError(error, path);
  }
}

function openError(error: unknown, path: string): RootError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return new RootError(
      `${path} is a symbolic link, which the file tools do not follow when opening; give the path it points to.`,
    );
  if (code === 'ENOENT') return new RootError(`${path} does not exist (its folder must exist).`);
  if (code === 'EISDIR') return new RootError(`${path} is a folder, not a file.`);
  return new RootError(`${path} cannot be opened: ${(error as Error).message}`);
}

function verifyOpened(fd: number, real: string, roots: readonly string[], path: string): void {
  const held = fstatSync(fd);
  let now: string;
  try {
    now = realpathSync(real);
  } catch {
    refuse(path, roots);
  }
  const there = statSync(now, { throwIfNoEntry: false });
  const inside = realRoots(roots);
  if (
    !inside.some((root) => isInside(now, root)) ||
    there === undefined ||
    there.dev !== held.dev ||
    there.ino !== held.ino
  )
    refuse(path, roots);
}
