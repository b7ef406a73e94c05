import type { Language } from '../core/language.ts';
import { loadCliConfig } from './cli-config.ts';
import { interfaceLanguage } from './cli-text.ts';

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
  const configured = await loadCliConfig(optionValue(argv, ['-c', '--config'])).then(
    (loaded) => loaded.config.language,
    () => undefined, // the command itself reports a config it cannot read
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
