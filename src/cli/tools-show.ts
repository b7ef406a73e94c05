import { toolDefinition } from '../assistant/tool-definitions.ts';
import { PROVIDER_WIRES, type ProviderWireName } from '../models/provider-wires.ts';
import { parametersSchema } from '../tools/parameter-schema.ts';
import { toolSignature, describeParameters } from '../tools/tool-signature.ts';
import { localize, localizeList, type Language } from '../tools/tool-manifest.ts';
import { printJson, shortPath } from './format.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';
import { UsageError } from './usage-error.ts';

/**
 * `riverse tools show NAME`: the manifest and the JSON Schema models are given; with `--dialect`,
 * the tool exactly as that adapter sends it (its own code writes it), indented unless `--json`
 * asks for the very bytes.
 */
export async function toolsShow(name: string, options: GlobalOptions & { json?: boolean; lang?: Language; dialect?: ProviderWireName }): Promise<number> {
  const { registry } = await loadTools(options);
  const found = registry.find(name);
  if (found === undefined) {
    // A tool whose file did not load is a fault to fix there (exit 1), not a mistyped name (exit 2).
    if (registry.loadFailures(name).length === 0) throw new UsageError(registry.unknownToolMessage(name));
    process.stderr.write(`error: ${registry.unknownToolMessage(name)}\n`);
    return 1;
  }
  const language = options.lang ?? 'en';
  const schema = parametersSchema(found.manifest, language);
  if (options.dialect !== undefined) {
    const wire = PROVIDER_WIRES[options.dialect];
    const sent = wire.toolText(toolDefinition(found, language, wire.dialect));
    if (wire.format === 'json' && options.json !== true) printJson(JSON.parse(sent));
    else process.stdout.write(`${sent}\n`);
    return 0;
  }
  if (options.json === true) {
    printJson({ name: found.name, file: found.file, available: found.available, reason: found.reason, manifest: found.manifest, schema });
    return 0;
  }
  const { manifest } = found;
  const examples = localizeList(manifest.examples, language);
  const parameters = describeParameters(manifest, language);
  console.log(`${manifest.name} — ${localize(manifest.description, language)}`);
  console.log(`source:    ${shortPath(found.file)}`);
  console.log(`status:    ${found.available ? 'available' : `unavailable: ${found.reason ?? ''}`}`);
  console.log(`signature: ${toolSignature(manifest)}`);
  if (manifest.timeoutMs !== undefined) console.log(`timeout:   ${manifest.timeoutMs} ms`);
  console.log(`parameters:${parameters === '' ? ' none' : `\n${parameters}`}`);
  console.log(`examples:${examples.length === 0 ? ' none' : `\n${examples.map((example) => `  - ${example}`).join('\n')}`}`);
  console.log(`\nJSON Schema given to models:\n${JSON.stringify(schema, null, 2)}`);
  return 0;
}
