import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { said, type Diagnostic } from '../core/diagnostic.ts';
import type { Phrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';

/** How long the type check may take; past it, `tools check` reports it as not done and goes on. */
const TYPE_CHECK_TIMEOUT_MS = 30_000;

/**
 * What a tool file imports as 'riverse' in a worker, and so what it is checked against: `.ts` here,
 * `.d.ts` once built. With its extension: in a `"type": "module"` package tsc resolves a `paths`
 * target as an ES module would, trying no extensions, and 'riverse' would not be found at all.
 */
const CONTRACT = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../tool-api.ts' : '../tool-api.d.ts', import.meta.url),
);
const OWN_TYPES = fileURLToPath(new URL('../../node_modules/@types', import.meta.url));

export interface TypeCheckResult {
  /** The TypeScript version that checked, or undefined when the check did not run. */
  version?: string;
  /** There were TypeScript tool files, but no TypeScript to check them with. */
  notInstalled?: true;
  diagnostics: Diagnostic[];
}

export interface TypeCheckOptions {
  /** The tool folders: type errors in files elsewhere (packages, Riverse) are not the author's. */
  folders: readonly string[];
  /** Where TypeScript is looked for first (the app's own), and where it runs. */
  baseDir: string;
  /** Where TypeScript is looked for, in order (files whose folder's packages are searched): the app's, then Riverse's own. */
  lookIn?: readonly string[];
  timeoutMs?: number;
}

/**
 * Type-checks the TypeScript tool files against the tool contract with the TypeScript found (the
 * app's, else the one Riverse was installed with), running its `tsc` on a generated tsconfig: the
 * native compiler of TypeScript 7 has no in-process API to rely on. `strict`, but an untyped
 * parameter is allowed (`noImplicitAny: false`): the check is for mistakes, not for style. Returns
 * no version when TypeScript is not found or there is nothing to check.
 */
export async function typeCheckToolFiles(
  files: readonly string[],
  options: TypeCheckOptions,
): Promise<TypeCheckResult> {
  const sources = files.filter((file) => /\.m?ts$/.test(file) && !file.endsWith('.d.ts'));
  const typescript = findTypeScript(
    options.lookIn ?? [join(options.baseDir, 'package.json'), fileURLToPath(import.meta.url)],
  );
  if (sources.length === 0) return { diagnostics: [] };
  if (typescript === undefined) return { notInstalled: true, diagnostics: [] };

  const dir = await mkdtemp(join(tmpdir(), 'riverse-types-'));
  try {
    const config = join(dir, 'tsconfig.json');
    const nodeTypes = [join(options.baseDir, 'node_modules', '@types'), OWN_TYPES].find((root) =>
      existsSync(join(root, 'node')),
    );
    await writeFile(
      config,
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          lib: ['es2024', 'esnext.disposable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noImplicitAny: false,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          ...(nodeTypes === undefined ? { types: [] } : { types: ['node'], typeRoots: [nodeTypes] }),
          paths: { riverse: [CONTRACT] },
        },
        files: sources,
      }),
    );
    const output = await run(
      typescript.tsc,
      ['-p', config, '--pretty', 'false'],
      options.baseDir,
      options.timeoutMs ?? TYPE_CHECK_TIMEOUT_MS,
    );
    if ('failure' in output)
      return {
        version: typescript.version,
        diagnostics: [notDone(options.folders[0] ?? options.baseDir, output.failure)],
      };
    const inFolders = (file: string) => options.folders.some((folder) => file.startsWith(folder + sep));
    const diagnostics = parseTscOutput(output.stdout, options.baseDir).filter((diagnostic) =>
      inFolders(diagnostic.file),
    );
    if (output.code !== 0 && diagnostics.length === 0 && !/\): error TS/.test(output.stdout)) {
      return {
        version: typescript.version,
        diagnostics: [
          notDone(
            options.folders[0] ?? options.baseDir,
            `tsc exited with code ${output.code}: ${(output.stdout + output.stderr).trim().slice(0, 500)}`,
          ),
        ],
      };
    }
    return {
      version: typescript.version,
      diagnostics:
        nodeTypes === undefined ? withoutNodeTypes(diagnostics, options.folders[0] ?? options.baseDir) : diagnostics,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `file(line,col): error TS1234: message`, with the indented lines after it as part of the message. */
export function parseTscOutput(stdout: string, cwd: string): Diagnostic[] {
  const found: Array<{ file: string; line: number; column: number; code: string; text: string; cause?: string }> = [];
  for (const line of stdout.split('\n')) {
    const head = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (head !== null)
      found.push({
        file: resolve(cwd, head[1]!),
        line: Number(head[2]),
        column: Number(head[3]),
        code: head[4]!,
        text: head[5]!,
      });
    else if (/^\s+\S/.test(line) && found.length > 0) found.at(-1)!.cause = line.trim();
  }
  return found.map(({ file, line, column, code, text, cause }) => ({
    severity: 'error',
    code: 'type-error',
    file,
    line,
    column,
    // TypeScript explains a mismatch from the outside in; the first line says what, the last why.
    message: `${text}${cause === undefined ? '' : ` … ${cause}`} (${code})`,
    // TypeScript's own words stay as they are; the hint is ours.
    ...hintOnly(
      code === 'TS2416' && /^Property 'manifest'/.test(text) ? phrase('types.fix-manifest') : phrase('types.fix'),
    ),
  }));
}

/**
 * Without Node's types every use of node:fs, process or Buffer is "cannot find": the app's set-up,
 * not the tool's mistake. Those become one warning that says so.
 */
export function withoutNodeTypes(diagnostics: readonly Diagnostic[], folder: string): Diagnostic[] {
  const missing = (diagnostic: Diagnostic) =>
    /\(TS(2591|2580)\)$/.test(diagnostic.message) ||
    (/\(TS2307\)$/.test(diagnostic.message) && diagnostic.message.includes("'node:"));
  const kept = diagnostics.filter((diagnostic) => !missing(diagnostic));
  if (kept.length === diagnostics.length) return kept;
  return [
    ...kept,
    {
      severity: 'warning',
      code: 'type-check-failed',
      file: folder,
      ...said(phrase('types.no-node-types')),
      hint: 'npm install --save-dev @types/node',
    },
  ];
}

/** The first TypeScript found from `places` (the app's, else Riverse's own); undefined when none is installed. */
function findTypeScript(places: readonly string[]): { tsc: string; version: string } | undefined {
  for (const from of places) {
    try {
      const manifestPath = createRequire(from).resolve('typescript/package.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version?: string; bin?: { tsc?: string } };
      if (typeof manifest.bin?.tsc === 'string')
        return { tsc: join(dirname(manifestPath), manifest.bin.tsc), version: manifest.version ?? '?' };
    } catch {
      // not installed there
    }
  }
  return undefined;
}

function run(
  script: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string } | { failure: string | Phrase }> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) return resolvePromise({ code: 0, stdout, stderr });
        if (error.killed || error.signal !== null)
          return resolvePromise({ failure: phrase('types.not-done.timeout', { seconds: timeoutMs / 1000 }) });
        if (typeof error.code === 'number') return resolvePromise({ code: error.code, stdout, stderr });
        resolvePromise({ failure: `tsc could not be run: ${error.message}` });
      },
    );
  });
}

/** The type check could not run, and why (a phrase, or the text of what failed). */
function notDone(folder: string, why: string | Phrase): Diagnostic {
  return {
    severity: 'warning',
    code: 'type-check-failed',
    file: folder,
    ...said(phrase('types.not-done', { why }), phrase('types.not-done.hint')),
  };
}

/** A diagnostic whose message is not ours (the compiler's): only the hint is a phrase. */
function hintOnly(hint: Phrase): Pick<Diagnostic, 'hint' | 'text'> {
  return { hint: said(hint).message, text: { hint } };
}
