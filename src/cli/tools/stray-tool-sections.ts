import { readFileSync } from 'node:fs';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { TOOLS_SETTINGS, type AppConfig } from '../../tools/app-config.ts';
import { closestWord } from '../../core/closest-word.ts';
import { said, type Diagnostic } from '../../core/diagnostic.ts';
import { phrase } from '../../tool-runtime/runtime-phrases.ts';

/** Sections that several built-in tools read together: `tools.files.roots` confines every file tool. */
const SHARED_SECTIONS: Record<string, readonly string[]> = { files: ['file_read', 'file_list', 'grep', 'file_write'] };

/**
 * The sections of `tools:` in the config that name no tool found. Nothing reads them, so a typo
 * there (`tools.wether.base_url`) leaves the tool running without its setting, and
 * `tools.wether.enabled: false` turns nothing off: a warning at the key's line.
 */
export function strayToolSections(
  config: AppConfig,
  configPath: string | undefined,
  names: readonly string[],
): Diagnostic[] {
  const read = (key: string) =>
    names.includes(key) || (SHARED_SECTIONS[key]?.some((name) => names.includes(name)) ?? false);
  const stray = Object.keys(config.tools ?? {}).filter(
    (key) => !(TOOLS_SETTINGS as readonly string[]).includes(key) && !read(key),
  );
  if (stray.length === 0 || configPath === undefined) return [];
  const lines = keyLines(configPath);
  return stray.map((key) => ({
    severity: 'warning',
    code: 'unknown-tool-section',
    file: configPath,
    ...(lines.has(key) ? { line: lines.get(key)! } : {}),
    ...said(
      phrase('config.unknown-tool-section', { key, near: closestWord(key, names) }),
      phrase('config.unknown-tool-section.hint'),
    ),
  }));
}

/** The line of each key under `tools:` in the config file. */
function keyLines(path: string): Map<string, number> {
  const found = new Map<string, number>();
  try {
    const counter = new LineCounter();
    const document = parseDocument(readFileSync(path, 'utf8'), { lineCounter: counter });
    const tools = document.get('tools', true);
    if (!isMap(tools)) return found;
    for (const pair of tools.items) {
      if (isScalar(pair.key) && pair.key.range !== undefined && pair.key.range !== null)
        found.set(String(pair.key.value), counter.linePos(pair.key.range[0]).line);
    }
  } catch {
    // The config was read already; without lines the warnings still stand.
  }
  return found;
}
