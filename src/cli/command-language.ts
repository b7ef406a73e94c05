import type { Language } from '../core/language.ts';
import { loadConfig } from '../config/load-config.ts';
import type { RiverseConfig } from '../config/riverse-config.ts';
import { loadCliConfig } from './cli-config.ts';
import { interfaceLanguage } from './cli-text.ts';

const ALL_BUT_LANGUAGE: readonly (keyof RiverseConfig)[] = [
  'model',
  'model_options',
  'assistant',
  'routing',
  'tools',
  'server',
  'mcp',
  'data_dir',
];

/**
 * The language a command speaks, chosen once before the command line is parsed (its help is in
 * it too): `--lang` anywhere on the line, else `language:` in the config, else the locale.
 * Read from the raw arguments because commander builds the help from texts given up front.
 */
export async function commandLanguage(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Language> {
  const flag = optionValue(argv, ['--lang']);
  if (flag === 'en' || flag === 'zh' || flag === 'ja') return flag;
  const path = optionValue(argv, ['-c', '--config']);
  const configured = await loadCliConfig(path).then(
    (loaded) => loaded.config.language,
    // The command itself reports a config it cannot read; its `language:` may still be fine (a
    // tools server's config whose model settings name unset variables: `riverse mcp` runs).
    () =>
      loadConfig({ ...(path === undefined ? {} : { path }), unread: ALL_BUT_LANGUAGE }).then(
        (loaded) => loaded.config.language,
        () => undefined,
      ),
  );
  return interfaceLanguage(configured, env);
}

/** `--name value` or `--name=value`, before a `--` that ends the options. */
function optionValue(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') return undefined;
    if (names.includes(word)) return argv[index + 1];
    const name = names.find((candidate) => word.startsWith(`${candidate}=`));
    if (name !== undefined) return word.slice(name.length + 1);
  }
  return undefined;
}
