import { access, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/load-config.ts';
import { DEFAULT_TOOL_FOLDER } from '../tools/tool-registry.ts';
import { PORTABLE_TOOL_NAME_PATTERN } from '../tools/validate-manifest.ts';
import { shortPath } from './format.ts';
import type { GlobalOptions } from './load-tools.ts';
import { testSource, toolSource } from './tool-template.ts';
import { UsageError } from './usage-error.ts';

/** `riverse tools new NAME`: writes a tool file and its test into the first tool folder. */
export async function toolsNew(name: string, options: GlobalOptions & { dir?: string }): Promise<number> {
  if (!PORTABLE_TOOL_NAME_PATTERN.test(name)) throw new UsageError(`"${name}" is not a valid tool name: use 1–64 letters, digits, "_" or "-", starting with a letter or "_", e.g. my_tool`);
  const loaded = await loadConfig(options.config === undefined ? {} : { path: options.config });
  const folder = options.dir !== undefined ? resolve(options.dir) : resolve(loaded.baseDir, loaded.config.tools?.dirs?.[0] ?? DEFAULT_TOOL_FOLDER);
  const fileName = `${name}.ts`;
  const toolFile = join(folder, fileName);
  const testFile = join(folder, `${name}.test.ts`);
  for (const file of [toolFile, testFile]) {
    if (await exists(file)) throw new UsageError(`${shortPath(file)} already exists; choose another name or delete it first`);
  }
  await mkdir(folder, { recursive: true });
  await writeFile(toolFile, toolSource(name));
  await writeFile(testFile, testSource(name, fileName));
  console.log(`Created ${shortPath(toolFile)} and ${shortPath(testFile)}.
Next:
  riverse tools run ${name} text=hello     # try it
  node --test ${shortPath(testFile)}   # run its test
  riverse tools check                     # check every tool`);
  return 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
