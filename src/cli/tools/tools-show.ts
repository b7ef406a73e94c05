import { toolDefinition } from '../../assistant/tool-definitions.ts';
import type { ProviderWireName } from '../../models/providers/provider-wire-names.ts';
import { PROVIDER_WIRES } from '../../models/providers/provider-wires.ts';
import { parametersSchema } from '../../tool-runtime/parameter-schema.ts';
import { localizeReason } from '../../core/phrase.ts';
import { toolSignature, describeParameters } from '../../tool-runtime/tool-signature.ts';
import { localize, localizeList } from '../../core/language.ts';
import { printJson, shortPath } from '../format.ts';
import { loadTools, type GlobalOptions } from '../load-tools.ts';
import { TOOLS_TEXT } from './tools-text.ts';
import { UsageError } from '../usage-error.ts';

/**
 * `riverse tools show NAME`: the manifest and the JSON Schema models are given; with `--dialect`,
 * the tool exactly as that adapter sends it (its own code writes it), indented unless `--json`
 * asks for the very bytes.
 */
export async function toolsShow(
  name: string,
  options: GlobalOptions & { json?: boolean; dialect?: ProviderWireName },
): Promise<number> {
  const { registry } = await loadTools(options);
  const { language } = options;
  const text = TOOLS_TEXT[language];
  const found = registry.find(name);
  if (found === undefined) {
    // A tool whose file did not load is a fault to fix there (exit 1), not a mistyped name (exit 2).
    if (registry.loadFailures(name).length === 0) throw new UsageError(registry.unknownToolMessage(name, language));
    process.stderr.write(`${text.error}${registry.unknownToolMessage(name, language)}\n`);
    return 1;
  }
  const registered = registry.get(name);
  const schema = registered?.schemaGiven === true ? registered.schema : parametersSchema(found.manifest, language);
  if (options.dialect !== undefined) {
    const wire = PROVIDER_WIRES[options.dialect];
    const sent = wire.toolText(toolDefinition(registered ?? found, language, wire.dialect));
    if (wire.format === 'json' && options.json !== true) printJson(JSON.parse(sent));
    else process.stdout.write(`${sent}\n`);
    return 0;
  }
  if (options.json === true) {
    printJson({
      name: found.name,
      file: found.file,
      available: found.available,
      reason: localizeReason(found, language),
      manifest: found.manifest,
      schema,
    });
    return 0;
  }
  const { manifest } = found;
  const examples = localizeList(manifest.examples, language);
  const parameters = describeParameters(manifest, language);
  console.log(`${manifest.name} — ${localize(manifest.description, language)}`);
  const { fields } = text;
  console.log(`${fields.source}${shortPath(found.file)}`);
  console.log(
    `${fields.status}${found.available ? text.available : text.unavailable(localizeReason(found, language) ?? '')}`,
  );
  console.log(`${fields.signature}${toolSignature(manifest)}`);
  if (manifest.timeoutMs !== undefined) console.log(`${fields.timeout}${manifest.timeoutMs} ms`);
  console.log(`${fields.parameters}${parameters === '' ? text.none : `\n${parameters}`}`);
  console.log(
    `${fields.examples}${examples.length === 0 ? text.none : `\n${examples.map((example) => `  - ${example}`).join('\n')}`}`,
  );
  console.log(`\n${text.schemaTitle}\n${JSON.stringify(schema, null, 2)}`);
  return 0;
}
