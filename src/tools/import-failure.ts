import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { errorLocation, errorMessage, stackFrames, type Diagnostic } from './diagnostic.ts';
import { isRiverseSource } from './tool-error-origin.ts';
import { sourceText } from './typescript-hooks.ts';

type Location = { line?: number; column?: number };

/**
 * Why importing a tool file failed, as a diagnostic: which kind of fault, where (the line of the
 * import that failed, when the error itself has none) and what to do.
 */
export function importFailure(error: unknown, file: string): Omit<Diagnostic, 'file'> {
  const code = (error as { code?: unknown })?.code;
  const message = errorMessage(error);
  const location = errorLocation(error, file);
  const missingExport = /does not provide an export named '([^']+)'/.exec(message)?.[1];
  if (missingExport !== undefined) {
    return {
      severity: 'error',
      code: 'import-failed',
      ...location,
      message: `an import names "${missingExport}", which the module does not export: ${message}`,
      hint: `in a tool file, 'riverse' provides the tool contract only (BaseTool, ToolResult, localize, toolSection and the types); import other things from their own modules`,
    };
  }
  if (error instanceof SyntaxError || code === 'InvalidSyntax' || code === 'ERR_INVALID_TYPESCRIPT_SYNTAX') {
    const commonJs = commonJsPackage(file, message);
    if (commonJs !== undefined) {
      const where = relative(process.cwd(), commonJs.packageJson) || commonJs.packageJson;
      const esm = extname(file) === '.js' ? '.mjs' : '.mts';
      return {
        severity: 'error',
        code: 'syntax-error',
        ...location,
        message: `the file is loaded as CommonJS, where \`import\`/\`export\` are not allowed: ${where} ${commonJs.type === undefined ? 'has no "type" field' : `says "type": "${commonJs.type}"`} (${message})`,
        hint: `rename the file to ${basename(file, extname(file))}${esm}, or set "type": "module" in ${where}`,
      };
    }
    return { severity: 'error', code: 'syntax-error', ...location, message: `syntax error: ${message}`, hint: 'fix the code at this line; the other tool files load regardless' };
  }
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const [, kind, missing, importer] = /Cannot find (package|module) '([^']+)' imported from (\S+)/.exec(message) ?? [];
    const isPackage = kind === 'package';
    const importedBy = (from: string) => importLocation(from, (specifier) => (isPackage ? specifier === missing || specifier.startsWith(`${missing}/`) : resolve(dirname(from), specifier) === missing));
    // The import may be in a helper the tool file imports: then the helper's line is in the message.
    const inHelper = importer !== undefined && resolve(importer) !== file ? importedBy(resolve(importer)).line : undefined;
    return {
      severity: 'error',
      code: 'import-failed',
      ...(location.line === undefined && importer !== undefined && resolve(importer) === file ? importedBy(file) : location),
      message: `an import cannot be found: ${message}${inHelper === undefined ? '' : ` (at ${relative(process.cwd(), importer!)}:${inHelper})`}`,
      hint: isPackage ? `install it (npm install ${missing}) or fix the import` : 'fix the import path (relative imports need the file extension, e.g. "./_helpers.ts")',
    };
  }
  // Thrown by a module the file imports (a helper's or a package's top-level code): the line of
  // that import here, and where in that module in the message.
  const origin = location.line === undefined ? stackFrames(errorStack(error)).find((frame) => frame.path !== file && !isRiverseSource(frame.path)) : undefined;
  const via = origin === undefined ? {} : importLocation(file, (specifier) => importReaches(file, specifier, origin.path));
  return {
    severity: 'error',
    code: 'import-failed',
    ...location,
    ...via,
    message: `the file failed while loading: ${message}${origin === undefined ? '' : ` (thrown at ${relative(process.cwd(), origin.path) || origin.path}:${origin.line})`}`,
    hint: 'top-level code runs when the file is loaded; move work that can fail into execute() or isAvailable()',
  };
}

function errorStack(error: unknown): string {
  const stack = (error as { stack?: unknown } | null)?.stack;
  return typeof stack === 'string' ? stack : '';
}

/** Whether `specifier`, imported by `file`, is the module at `path` (a relative import) or the package it is in. */
function importReaches(file: string, specifier: string, path: string): boolean {
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier) === path || resolve(dirname(file), specifier.replace(/js$/, 'ts')) === path;
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  return path.includes(`${sep}node_modules${sep}${name.replaceAll('/', sep)}${sep}`);
}

/** Where `file` imports a module whose specifier `matches`: `from '…'`, `import '…'`, `import('…')`. */
function importLocation(file: string, matches: (specifier: string) => boolean): Location {
  const lines = (sourceText(file) ?? '').split('\n');
  for (const [index, text] of lines.entries()) {
    for (const found of text.matchAll(/\b(?:from|import)\s*\(?\s*(['"])([^'"]+)\1/g)) {
      if (matches(found[2]!)) return { line: index + 1, column: found.index + found[0].indexOf(found[1]!) + 1 };
    }
  }
  return {};
}

/**
 * The package.json that makes `file` CommonJS, when the syntax error is ESM syntax in a CommonJS
 * file: `npm init -y` writes "type": "commonjs", and Node then reads a .ts or .js file as CommonJS.
 */
function commonJsPackage(file: string, message: string): { packageJson: string; type: string | undefined } | undefined {
  if (!/Cannot use import statement outside a module|Unexpected token 'export'/.test(message) || !['.ts', '.js'].includes(extname(file))) return undefined;
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const packageJson = join(folder, 'package.json');
    if (existsSync(packageJson)) {
      let type: unknown;
      try {
        type = (JSON.parse(readFileSync(packageJson, 'utf8')) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
      return type === 'module' ? undefined : { packageJson, type: typeof type === 'string' ? type : undefined };
    }
    if (dirname(folder) === folder) return undefined;
  }
}
