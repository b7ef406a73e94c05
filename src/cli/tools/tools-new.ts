import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadCliConfig } from '../cli-config.ts';
import { DEFAULT_TOOL_FOLDER } from '../../tool-runtime/tool-registry.ts';
import { PORTABLE_TOOL_NAME_PATTERN } from '../../tool-runtime/validate-manifest.ts';
import { RIVERSE_COMMAND, testCommand } from '../command-hints.ts';
import { shortPath } from '../format.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { testSource, toolSource } from './tool-template.ts';
import { TOOLS_TEXT } from './tools-text.ts';
import { UsageError } from '../usage-error.ts';

/** `riverse tools new NAME`: writes a tool file and its test into the first tool folder. */
export async function toolsNew(name: string, options: GlobalOptions & { dir?: string }): Promise<number> {
  const text = TOOLS_TEXT[options.language];
  if (!PORTABLE_TOOL_NAME_PATTERN.test(name)) throw new UsageError(text.invalidName(name));
  const loaded = await loadCliConfig(options.config);
  const folder =
    options.dir !== undefined
      ? resolve(options.dir)
      : resolve(loaded.baseDir, loaded.config.tools?.dirs?.[0] ?? DEFAULT_TOOL_FOLDER);
  const extension = await esmExtension(folder);
  const fileName = `${name}${extension}`;
  const toolFile = join(folder, fileName);
  const testFile = join(folder, `${name}.test${extension}`);
  for (const file of [toolFile, testFile]) {
    if (await exists(file)) throw new UsageError(text.exists(shortPath(file)));
  }
  await mkdir(folder, { recursive: true });
  await writeFile(toolFile, toolSource(name));
  await writeFile(testFile, testSource(name, fileName));
  const next: [command: string, what: string][] = [
    [`${RIVERSE_COMMAND} tools run ${name} text=hello`, text.next.tryIt],
    [testCommand(shortPath(testFile)), text.next.runTest],
    [`${RIVERSE_COMMAND} tools check`, text.next.checkAll],
  ];
  const width = Math.max(...next.map(([command]) => command.length));
  console.log(
    `${text.created(shortPath(toolFile), shortPath(testFile))}\n${text.next.title}\n${next.map(([command, what]) => `  ${command.padEnd(width)}   # ${what}`).join('\n')}`,
  );
  return 0;
}

/**
 * `.ts`, or `.mts` in a CommonJS package (`"type": "commonjs"`, as `npm init -y` writes): there a
 * `.ts` file is CommonJS, and the template's `import` lines would not load.
 */
async function esmExtension(folder: string): Promise<'.ts' | '.mts'> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest !== undefined) {
      try {
        return (JSON.parse(manifest) as { type?: unknown }).type === 'commonjs' ? '.mts' : '.ts';
      } catch {
        return '.ts'; // a broken package.json is Node's to report, when the tool loads
      }
    }
    if (dirname(dir) === dir) return '.ts';
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
