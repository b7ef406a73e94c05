import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's files: `static/` beside this module, in a checkout (src/) and in the package
 * (dist/, where the build copies it). Read once when the service starts: a few small files.
 */
export const STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

export interface StaticFile {
  body: Uint8Array;
  type: string;
  /** A strong validator: the content's hash. */
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

/** Every file of the folder (not its subfolders) by name; a file of an unknown kind is left out. */
export function loadStaticFiles(directory: string = STATIC_DIR): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    throw new Error(
      `The dashboard's files are missing from ${directory} (${error instanceof Error ? error.message : String(error)}); a package build copies them there (npm run build).`,
      { cause: error },
    );
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const body = readFileSync(join(directory, name));
    files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return files;
}
