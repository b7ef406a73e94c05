import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Code, or tools declared in YAML (`*.tools.yaml`, `*.tools.yml`; other YAML in the folder is data). */
const TOOL_FILE = /(\.(ts|mts|js|mjs)|\.tools\.ya?ml)$/;
const NOT_A_TOOL_FILE = /(\.d\.[mc]?ts|[.-](test|spec)\.[mc]?[jt]s)$/;

/** True for a file name the drop-in folder loads: code or a tools YAML file, not `_`-prefixed, not a test or declaration file. */
export function isToolFileName(name: string): boolean {
  return TOOL_FILE.test(name) && !name.startsWith('_') && !name.startsWith('.') && !NOT_A_TOOL_FILE.test(name);
}

/**
 * The tool files directly inside `folder` (subfolders hold helpers), sorted so that loading and
 * duplicate resolution are the same on every machine. A missing folder yields `undefined`.
 */
export async function findToolFiles(folder: string): Promise<string[] | undefined> {
  let entries;
  try {
    // At once, not on the thread pool: a start's first promise-based read waits for the pool to start (issue 25).
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && isToolFileName(entry.name))
    .map((entry) => join(folder, entry.name))
    .sort();
}
