import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { english, renderPhrase, type Phrase } from '../core/phrase.ts';
import { phrase } from './config-phrases.ts';
import type { Language } from '../core/language.ts';
import { interpolateEnv } from './interpolate-env.ts';
import type { RiverseConfig } from './riverse-config.ts';
import { validateConfig } from './validate-config.ts';

export const CONFIG_FILE = 'riverse.yaml';
const CONFIG_ENV = 'RIVERSE_CONFIG';

export interface LoadedConfig {
  config: RiverseConfig;
  /** The file read; undefined when there was none and defaults apply. */
  path?: string;
  /** Folder that relative paths in the config are resolved from. */
  baseDir: string;
}

/** One thing wrong with a config file: where (file, line, key) and what, as a phrase. */
export interface ConfigFault {
  where: string;
  text: Phrase;
}

/** A config file that cannot be used; the message lists every problem with file, line and key. */
export class ConfigError extends Error {
  readonly code = 'invalid-config';
  /** Each problem in English, "file:line: key: what". */
  readonly problems: string[];
  readonly faults: readonly ConfigFault[];
  constructor(faults: ConfigFault[]) {
    const problems = faults.map((fault) => `${fault.where}: ${english(fault.text)}`);
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
    this.faults = faults;
  }

  /** The problems in `language`, one per line. */
  localized(language: Language): string {
    return this.faults
      .map((fault) => `${fault.where}: ${renderPhrase(fault.text, language) ?? english(fault.text)}`)
      .join('\n');
  }
}

/**
 * Reads the config: the given path, else $RIVERSE_CONFIG, else ./riverse.yaml. A missing default
 * file means defaults; a missing file that was asked for by name is an error.
 */
export async function loadConfig(
  options: { path?: string; cwd?: string; env?: NodeJS.ProcessEnv; unread?: readonly (keyof RiverseConfig)[] } = {},
): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const named = options.path ?? (env[CONFIG_ENV] || undefined);
  const path = resolve(cwd, named ?? CONFIG_FILE);
  let text: string;
  try {
    // At once: every command starts here, and a promise-based read first waits for the thread pool to start.
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError([{ where: path, text: phrase('config.cannot-read', { error: (error as Error).message }) }]);
    if (named !== undefined)
      throw new ConfigError([
        {
          where: path,
          text: phrase('config.not-found', { by: options.path !== undefined ? '--config' : `$${CONFIG_ENV}` }),
        },
      ]);
    return { config: {}, baseDir: cwd };
  }
  const config = parseConfig(text, path, env, options.unread === undefined ? {} : { unread: options.unread });
  return { config, path, baseDir: dirname(path) };
}

const require = createRequire(import.meta.url);

/**
 * Parses, interpolates and validates config text; `path` is used in messages. The `unread`
 * sections are left out unread (no variables filled in, no checks): a command that does not use
 * them is not stopped by them (`riverse mcp` and the model's `${OPENAI_API_KEY}`).
 */
export function parseConfig(
  text: string,
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { unread?: readonly (keyof RiverseConfig)[] } = {},
): RiverseConfig {
  // The YAML parser (~14 MB, ~10 ms) is loaded only where there is a config file to read.
  const { LineCounter, parseDocument } = require('yaml') as typeof import('yaml');
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (document.errors.length > 0) {
    // `error.linePos` is only filled in with prettyErrors, so the line comes from the offset.
    throw new ConfigError(
      document.errors.map((error) => ({
        where: `${path}:${lines.linePos(error.pos[0]).line}`,
        text: phrase('config.invalid-yaml', { error: error.message.split('\n')[0]! }),
      })),
    );
  }
  const lineOf = (keyPath: readonly (string | number)[]) => {
    const node = document.getIn(keyPath, true) as { range?: [number, number, number] } | undefined;
    return node?.range === undefined ? '' : `:${lines.linePos(node.range[0]).line}`;
  };
  const value = document.toJS() ?? {};
  if (typeof value === 'object' && value !== null) for (const key of options.unread ?? []) delete value[key];
  const faults: ConfigFault[] = [];
  const config = interpolateEnv(value, env, (keyPath, text) =>
    faults.push({ where: `${path}${lineOf(keyPath)}: ${keyPath.join('.')}`, text }),
  );
  for (const problem of validateConfig(config))
    faults.push({
      where: `${path}${lineOf(problem.path)}: ${problem.path.join('.') || '(top level)'}`,
      text: problem.text,
    });
  if (faults.length > 0) throw new ConfigError(faults);
  // Checked against CONFIG_FIELDS just above, which is typed against RiverseConfig.
  return config as RiverseConfig;
}
