import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isMap, parseDocument, type Document } from 'yaml';
import { ConfigError, parseConfig } from '../../config/load-config.ts';
import type { RiverseConfig } from '../../config/riverse-config.ts';
import { ApiError } from '../api-error.ts';

/**
 * Sets `tools.<name>.enabled` in riverse.yaml and returns the config as it now reads. The file is
 * edited as a YAML document, so its comments, order and layout stay; a missing file is created.
 * A file that does not parse, or would not be a valid config afterwards, is left as it is (409
 * `config-invalid`, saying where): overwriting it would lose what the person wrote.
 */
export async function setToolEnabled(file: string, name: string, enabled: boolean): Promise<RiverseConfig> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ApiError(500, 'config-unreadable', `${file} cannot be read: ${(error as Error).message}`);
  }
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    // parseConfig says where, with the line.
    refuse(file, () => parseConfig(text, file));
  }
  ensureMapping(document, ['tools']);
  ensureMapping(document, ['tools', name]);
  document.setIn(['tools', name, 'enabled'], enabled);
  const updated = document.toString();
  const config = refuse(file, () => parseConfig(updated, file));
  // Written beside it and renamed over it: a crash mid-write never leaves half a file.
  const temporary = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(temporary, updated);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ApiError(500, 'config-unwritable', `${file} cannot be written: ${(error as Error).message}`);
  }
  return config;
}

/** Runs `parse`; a ConfigError becomes the 409 that says the file was left alone. */
function refuse<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ApiError(
      409,
      'config-invalid',
      `${file} was not changed, because it has errors; fix them first:\n${error.message}`,
    );
  }
}

/** Makes the value at `path` a mapping when it is missing or empty (`tools:` with nothing under it). */
function ensureMapping(document: Document, path: string[]): void {
  const node = document.getIn(path, true);
  if (isMap(node)) return;
  const value = document.getIn(path);
  if (value !== undefined && value !== null) {
    throw new ApiError(
      409,
      'config-invalid',
      `riverse.yaml was not changed: ${path.join('.')} is ${JSON.stringify(value)}, not a mapping; make it one (or remove it) first.`,
    );
  }
  document.setIn(path, document.createNode({}));
}
