import { dirname, isAbsolute, relative } from 'node:path';
import { approvalSetting, type ApprovalSetting } from '../../tools/approval-policy.ts';
import {
  DEFAULT_ISOLATION,
  toolIsolation,
  toolSection,
  turnedOff,
  type AppConfig,
  type Isolation,
} from '../../tools/app-config.ts';
import { localizeDiagnostic, type Diagnostic } from '../../core/diagnostic.ts';
import { parametersSchema, type JsonSchema } from '../../tool-runtime/parameter-schema.ts';
import { localizeReason } from '../../core/phrase.ts';
import { localize, localizeList, type Language } from '../../core/language.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';

/** A diagnostic as the API shows it: in the reader's language (no phrases), its file relative to the project. */
export type DiagnosticView = Omit<Diagnostic, 'text'>;

/** One tool as `/api/tools` shows it (docs/server-api.md). */
export interface ToolView {
  name: string;
  description: string;
  /** The tool's file, relative to the project folder. */
  file: string;
  /** The drop-in folder it was found in, relative to the project folder; `mcp:<server>` for an MCP server's tool. */
  source: string;
  available: boolean;
  /** Why not, when it is unavailable: switched off, or its isAvailable() said no. */
  reason?: string;
  /** `tools.<name>.enabled`; when it is not set, true unless the manifest says `offByDefault`. */
  enabled: boolean;
  isolation: Isolation;
  /** Whether a person is asked before its calls run: the manifest's `approval` or `tools.<name>.approval` (decision 017). */
  approval: ApprovalSetting;
  parameters: JsonSchema;
  examples: string[];
  diagnostics: DiagnosticView[];
}

export interface ViewOptions {
  config: AppConfig;
  baseDir: string;
  language: Language;
}

/** A path as the project's people write it: relative to its folder (absolute when outside it); a source that is no path (`mcp:<server>`) as it is. */
export function projectPath(file: string, baseDir: string): string {
  if (!isAbsolute(file)) return file;
  const path = relative(baseDir, file);
  return path === '' || path.startsWith('..') ? file : path;
}

export function diagnosticView(diagnostic: Diagnostic, options: Omit<ViewOptions, 'config'>): DiagnosticView {
  const shown = localizeDiagnostic(diagnostic, options.language);
  return { ...shown, file: projectPath(shown.file, options.baseDir) };
}

/** The view of the tool called `name`, available or not; undefined when there is none. */
export function toolView(registry: ToolRegistry, name: string, options: ViewOptions): ToolView | undefined {
  const found = registry.find(name);
  if (found === undefined) return undefined;
  const { language, baseDir } = options;
  const reason = found.available ? undefined : localizeReason(found, language);
  // An MCP server's tool has its schema whole, the same in every language, and no folder.
  const registered = registry.get(name);
  const fromFile = isAbsolute(found.file);
  return {
    name,
    description: localize(found.manifest.description, language),
    file: projectPath(found.file, baseDir),
    source: !fromFile
      ? found.file
      : projectPath(
          registry.folders.find(
            (folder) => found.file.startsWith(`${folder}/`) || found.file.startsWith(`${folder}\\`),
          ) ?? dirname(found.file),
          baseDir,
        ),
    available: found.available,
    ...(reason === undefined ? {} : { reason }),
    enabled: switchedOn(toolSection(options.config, name), found.manifest.offByDefault === true),
    isolation: toolIsolation(options.config, name, options.config.tools?.isolation ?? DEFAULT_ISOLATION),
    approval: approvalSetting(found.manifest, options.config),
    parameters: registered?.schemaGiven === true ? registered.schema : parametersSchema(found.manifest, language),
    examples: localizeList(found.manifest.examples, language),
    diagnostics: registry.diagnostics
      .filter(
        (diagnostic) => diagnostic.file === found.file && (diagnostic.tool === undefined || diagnostic.tool === name),
      )
      .map((diagnostic) => diagnosticView(diagnostic, options)),
  };
}

/** What the switch shows: the section's own `enabled` when set, else the tool's default. */
function switchedOn(section: object, offByDefault: boolean): boolean {
  if (turnedOff(section)) return false;
  return !offByDefault || (section as { enabled?: unknown }).enabled === true;
}

/** Every tool, by name, and the files (or folders) with diagnostics but no tool: those that failed to load. */
export function toolCatalog(
  registry: ToolRegistry,
  options: ViewOptions,
): { tools: ToolView[]; failures: Array<{ file: string; diagnostics: DiagnosticView[] }> } {
  const listing = registry.list();
  const withTools = new Set(listing.map((tool) => tool.file));
  const failed = new Map<string, Diagnostic[]>();
  for (const diagnostic of registry.diagnostics) {
    if (withTools.has(diagnostic.file)) continue;
    failed.set(diagnostic.file, [...(failed.get(diagnostic.file) ?? []), diagnostic]);
  }
  return {
    tools: listing.map((tool) => toolView(registry, tool.name, options)!),
    failures: [...failed].map(([file, diagnostics]) => ({
      file: projectPath(file, options.baseDir),
      diagnostics: diagnostics.map((diagnostic) => diagnosticView(diagnostic, options)),
    })),
  };
}
