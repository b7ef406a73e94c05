import { localizeDiagnostic, said, type Diagnostic } from '../../core/diagnostic.ts';
import { phrase } from '../../tool-runtime/runtime-phrases.ts';
import { typeCheckToolFiles } from '../../tool-runtime/type-check-tools.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import { formatDiagnosticWithFrame, printJson, shortPath, shownListing } from '../format.ts';
import { slowLoads } from './slow-loads.ts';
import { strayToolSections } from './stray-tool-sections.ts';
import { loadTools, type GlobalOptions } from '../load-tools.ts';
import { TOOLS_TEXT } from './tools-text.ts';
import type { Dialect } from '../../schema/dialect.ts';
import { dialectLosses } from '../../schema/dialect-losses.ts';
import { givenSchema } from '../../tool-runtime/parameter-schema.ts';
import { upFrontQuestions } from '../../tool-runtime/asks-first.ts';

export interface CheckOptions extends GlobalOptions {
  json?: boolean;
  strict?: boolean;
  /** Type-check the tool files: true requires it, false skips it; by default, when TypeScript is installed. */
  types?: boolean;
}

/**
 * `riverse tools check`: loads everything and type-checks the TypeScript tool files against the
 * contract, prints every diagnostic; exit 1 on errors (or warnings with --strict).
 */
export async function toolsCheck(options: CheckOptions): Promise<number> {
  const { loaded, registry } = await loadTools(options);
  const types = await typeDiagnostics(registry, loaded.baseDir, options.types);
  // A tool that did not load still owns its section: its name is in its diagnostics.
  const names = [
    ...registry.list().map((tool) => tool.name),
    ...registry.diagnostics.flatMap((diagnostic) => (diagnostic.tool === undefined ? [] : [diagnostic.tool])),
  ];
  const stray = strayToolSections(loaded.config, loaded.path, names);
  const losses = schemaLossDiagnostics(registry);
  // Each file's type errors right after its load diagnostics (the sort is stable and files load in
  // order): the config's and the folders' diagnostics first, a helper's type errors last.
  const order = new Map(registry.files.map((load, index) => [load.file, index]));
  const key = (fallback: number) => (diagnostic: Diagnostic) => ({
    diagnostic,
    at: order.get(diagnostic.file) ?? fallback,
  });
  const diagnostics = [
    ...stray.map(key(-2)),
    ...registry.diagnostics.map(key(-1)),
    ...slowLoads(registry.files).map(key(-1)),
    ...losses.map(key(-1)),
    ...types.diagnostics.map(key(Infinity)),
  ]
    .sort((a, b) => a.at - b.at)
    .map(({ diagnostic }) => diagnostic);
  const tools = shownListing(registry, options.language).map((tool) => ({ ...tool, ...taskMode(registry, tool.name) }));
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const failed = errors > 0 || (options.strict === true && warnings > 0);
  if (options.json === true) {
    printJson({
      ok: !failed,
      errors,
      warnings,
      typescript: types.version ?? null,
      typesChecked: types.version !== undefined,
      tools,
      diagnostics: diagnostics.map((diagnostic) => localizeDiagnostic(diagnostic, options.language)),
    });
    return failed ? 1 : 0;
  }
  for (const diagnostic of diagnostics) console.log(`${formatDiagnosticWithFrame(diagnostic, options.language)}\n`);
  const available = tools.filter((tool) => tool.available).length;
  console.log(
    TOOLS_TEXT[options.language].checked(
      registry.folders.map(shortPath).join(', '),
      available,
      tools.length - available,
      errors,
      warnings,
    ),
  );
  const tasks = tools.flatMap((tool) =>
    tool.long_running === undefined
      ? []
      : [TOOLS_TEXT[options.language].longRunningTool(tool.name, tool.long_running, tool.asks_first ?? [])],
  );
  if (tasks.length > 0) console.log(TOOLS_TEXT[options.language].longRunning(tasks.join(', ')));
  // Not a warning (nothing is wrong with the tools), but not silence either: a pass did not check types.
  if (types.notInstalled === true) console.log(TOOLS_TEXT[options.language].typesNotChecked);
  return failed ? 1 : 0;
}

/** A tool's `long_running` (its calls run as tasks) and the keys of its `asks_first`, as `tools check` reports them. */
function taskMode(
  registry: ToolRegistry,
  name: string,
): { long_running?: 'optional' | 'required'; asks_first?: string[] } {
  const manifest = registry.get(name)?.manifest;
  if (manifest?.long_running === undefined) return {};
  const keys = upFrontQuestions(manifest).map((question) => question.key!);
  return { long_running: manifest.long_running, ...(keys.length === 0 ? {} : { asks_first: keys }) };
}

/** The providers whose dialect is not plain JSON Schema, by the names people know them by. */
const PROVIDER_DIALECTS: ReadonlyArray<[label: string, dialect: Dialect]> = [
  ['OpenAI', 'openai'],
  ['OpenAI strict', 'openai-strict'],
  ['Gemini', 'gemini'],
];

/** A warning for each drop-in tool whose full JSON Schema (inputSchema) a provider cannot take whole: which keywords it loses, for which provider. */
function schemaLossDiagnostics(registry: ToolRegistry): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of registry.list()) {
    const entry = registry.get(tool.name);
    if (entry === undefined || entry.schemaGiven === true || givenSchema(entry.manifest) === undefined) continue;
    const losses = PROVIDER_DIALECTS.flatMap(([label, dialect]) => {
      const lost = dialectLosses(entry.schema, dialect);
      return lost.length === 0 ? [] : [`${label}: ${lost.join(', ')}`];
    });
    if (losses.length === 0) continue;
    out.push({
      severity: 'warning',
      code: 'manifest-warning',
      file: entry.file,
      tool: entry.name,
      ...said(phrase('manifest.dialect-losses', { tool: entry.name, losses: losses.join('; ') })),
    });
  }
  return out;
}

async function typeDiagnostics(
  registry: ToolRegistry,
  baseDir: string,
  wanted: boolean | undefined,
): Promise<{ version?: string; notInstalled?: true; diagnostics: Diagnostic[] }> {
  if (wanted === false) return { diagnostics: [] };
  // A file that does not parse already has its diagnostic; the compiler would only repeat it.
  const unparsed = new Set(
    registry.diagnostics
      .filter((diagnostic) => diagnostic.code === 'syntax-error')
      .map((diagnostic) => diagnostic.file),
  );
  const files = registry.files.map((load) => load.file).filter((file) => !unparsed.has(file));
  const result = await typeCheckToolFiles(files, { folders: registry.folders, baseDir });
  if (result.notInstalled !== true || wanted !== true) return result;
  return {
    diagnostics: [
      {
        severity: 'warning',
        code: 'type-check-failed',
        file: registry.folders[0] ?? baseDir,
        ...said(phrase('types.no-typescript'), phrase('types.no-typescript.hint')),
      },
    ],
  };
}
