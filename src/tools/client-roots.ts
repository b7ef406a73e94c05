// `context.roots()`: the folders the tool works in, as MCP's `roots/list` gives them (decision 040).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toolSection, type AppConfig } from './app-config.ts';
import { INPUT_KEY } from './sample-request.ts';

/** A folder (a `file://` URI) the tool may work in, with a name for a person. */
export interface Root {
  uri: string;
  name?: string;
}

/** What `context.roots()` answers: MCP's `ListRootsResult`, and why it is empty when it is. */
export interface RootsList {
  roots: Root[];
  /** Why there are none, when there are none. */
  reason?: string;
}

export type ListRoots = (options?: { key?: string; timeoutMs?: number }) => Promise<RootsList>;

const MAX_ROOTS = 100;

/**
 * The folders Riverse works in, for a tool in its own turn: the project folder (the config's
 * folder) and `tools.files.roots`, the folders the file tools are confined to (relative ones
 * against the project folder), each once.
 */
export function workRoots(config: AppConfig): RootsList {
  const base = typeof config.base_dir === 'string' ? config.base_dir : process.cwd();
  const listed = toolSection(config, 'files').roots;
  const folders = [
    base,
    ...(Array.isArray(listed) ? listed.filter((root): root is string => typeof root === 'string' && root !== '') : []),
  ].map((folder) => resolve(base, folder));
  const roots: Root[] = [];
  for (const [index, folder] of folders.entries()) {
    const uri = pathToFileURL(folder).href;
    if (roots.some((root) => root.uri === uri)) continue;
    roots.push({ uri, name: index === 0 ? 'project' : `tools.files.roots: ${folder}` });
  }
  return { roots };
}

/** Roots as a client gave them, or what is wrong with them: a tool sees only roots that fit. */
export function checkRoots(value: unknown): Root[] | string {
  if (!Array.isArray(value) || value.length > MAX_ROOTS)
    return `roots must be a list of at most ${MAX_ROOTS} { uri, name? }`;
  const roots: Root[] = [];
  for (const root of value) {
    const { uri, name } = (typeof root === 'object' && root !== null ? root : {}) as Record<string, unknown>;
    if (typeof uri !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.length > 4_096)
      return 'each root must have a uri (file:///…)';
    if (name !== undefined && (typeof name !== 'string' || name.length > 200)) return "a root's name must be text";
    roots.push({ uri, ...(name === undefined ? {} : { name }) });
  }
  return roots;
}

/** `context.roots()`'s options as they may be given, or what is wrong with them. */
export function checkRootsOptions(given: unknown): { key?: string; timeoutMs?: number } | string {
  if (given === undefined) return {};
  const { key, timeoutMs } = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>;
  if (
    typeof given !== 'object' ||
    given === null ||
    (key !== undefined && !(typeof key === 'string' && INPUT_KEY.test(key))) ||
    (timeoutMs !== undefined &&
      !(Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= 600_000))
  )
    return "context.roots() takes { key?, timeoutMs? }: a key of 1 to 64 letters, digits, _, . or - (not Riverse's own), at most 600000 ms";
  return {
    ...(key === undefined ? {} : { key: key as string }),
    ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
  };
}
