// Helpers for the tool-system tests: real tool files in temporary folders. Not a test file
// itself (no `.test.ts`), and not in a drop-in folder, so neither runner nor registry picks it up.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppConfig } from '../tools/app-config.ts';
import type { Diagnostic, DiagnosticCode } from '../core/diagnostic.ts';
import type { Isolation } from '../tools/app-config.ts';
import { ToolRegistry } from './tool-registry.ts';

/** Anything with `after()`: the TestContext of `test()`/`it()`. */
export interface Cleanup {
  after(fn: () => unknown): void;
}

/** A fresh empty folder under the OS temp folder, removed when the test ends. */
export async function tempDir(t: Cleanup, prefix = 'riverse-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `files` (relative path → text) into `dir`, creating subfolders. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

/** A temp folder holding `files`, removed when the test ends. */
export async function toolFolder(t: Cleanup, files: Record<string, string>): Promise<string> {
  const dir = await tempDir(t);
  await writeFiles(dir, files);
  return dir;
}

/**
 * Writes `files` to a temp folder and loads it as the only drop-in folder. In this thread by default
 * (isolation "none"), so tools can report back through probes; pass 'worker' to test isolation.
 */
export async function loadTools(
  t: Cleanup,
  files: Record<string, string>,
  config: AppConfig = {},
  isolation: Isolation = 'none',
): Promise<{ dir: string; registry: ToolRegistry }> {
  const dir = await toolFolder(t, files);
  const registry = await ToolRegistry.load({ folders: [dir], config, baseDir: dir, isolation });
  return { dir, registry };
}

export interface ToolSourceOptions {
  /** Exported class name; default `<Name>Tool`. */
  className?: string;
  /** Extra manifest fields, as source text inside the object literal (e.g. `parameters: {…}`). */
  manifest?: string;
  /** Body of `async execute(params, context)`; default returns ToolResult.ok(name). */
  execute?: string;
  /** Extra class members (methods, fields). */
  members?: string;
  /** Extra lines after the riverse import. */
  header?: string;
  /** Examples, as source text; default two examples. */
  examples?: string;
  /** A plain (not async) execute(), so that a throw is synchronous. */
  sync?: boolean;
}

/**
 * The source of a tool file. Plain JavaScript syntax, so the same text works as .ts, .mts, .js or .mjs.
 */
export function toolSource(name: string, options: ToolSourceOptions = {}): string {
  const className =
    options.className ?? `${name.replace(/(^|[_-])(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Tool`;
  return `import { BaseTool, ToolResult } from 'riverse';
${options.header ?? ''}
export class ${className} extends BaseTool {
  manifest() {
    return {
      name: ${JSON.stringify(name)},
      description: ${JSON.stringify(`The ${name} test tool`)},
      examples: ${options.examples ?? JSON.stringify([`use ${name}`, `please run ${name}`])},
      ${options.manifest ?? ''}
    };
  }
  ${options.members ?? ''}
  ${options.sync === true ? '' : 'async '}execute(params, context) {
    ${options.execute ?? `return ToolResult.ok(${JSON.stringify(name)});`}
  }
}
`;
}

/**
 * A place tool files can record what happened to them (`globalThis.__riverseProbes[id]`), since
 * they run in this process but cannot import the test.
 */
export function createProbe(id: string): Record<string, unknown> {
  const globals = globalThis as { __riverseProbes?: Record<string, Record<string, unknown>> };
  globals.__riverseProbes ??= {};
  const probe: Record<string, unknown> = {};
  globals.__riverseProbes[id] = probe;
  return probe;
}

/** Source text that refers to the probe `id` from inside a tool file. */
export function probeRef(id: string): string {
  return `globalThis.__riverseProbes[${JSON.stringify(id)}]`;
}

/** The diagnostics for one file (by absolute path), optionally of one code. */
export function diagnosticsFor(registry: ToolRegistry, file: string, code?: DiagnosticCode): Diagnostic[] {
  return registry.diagnostics.filter(
    (diagnostic) => diagnostic.file === file && (code === undefined || diagnostic.code === code),
  );
}

/** The single diagnostic for `file`, failing with the whole list when there is not exactly one. */
export function onlyDiagnostic(registry: ToolRegistry, file: string): Diagnostic {
  const found = diagnosticsFor(registry, file);
  if (found.length !== 1)
    throw new Error(
      `expected one diagnostic for ${file}, got ${found.length}:\n${JSON.stringify(registry.diagnostics, null, 2)}`,
    );
  return found[0]!;
}

/** Names of the available tools. */
export function toolNames(registry: ToolRegistry): string[] {
  return registry.tools().map((tool) => tool.name);
}
