import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { said, type Diagnostic } from '../core/diagnostic.ts';
import { errorLocation, errorMessage, stackFrames } from './error-location.ts';
import { phrase } from './runtime-phrases.ts';
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
      ...said(
        phrase('load.missing-export', { name: missingExport, error: message }),
        phrase('load.missing-export.hint'),
      ),
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
        ...said(
          phrase('load.commonjs', { packageJson: where, type: commonJs.type, error: message }),
          phrase('load.commonjs.hint', { renamed: `${basename(file, extname(file))}${esm}`, packageJson: where }),
        ),
      };
    }
    return {
      severity: 'error',
      code: 'syntax-error',
      ...location,
      ...said(phrase('load.syntax-error', { error: message }), phrase('load.syntax-error.hint')),
    };
  }
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const [, kind, missing, importer] =
      /Cannot find (package|module) '([^']+)' imported from (\S+)/.exec(message) ?? [];
    const isPackage = kind === 'package';
    const importedBy = (from: string) =>
      importLocation(from, (specifier) =>
        isPackage
          ? specifier === missing || specifier.startsWith(`${missing}/`)
          : resolve(dirname(from), specifier) === missing,
      );
    // The import may be in a helper the tool file imports: then the helper's line is in the message.
    const inHelper =
      importer !== undefined && resolve(importer) !== file ? importedBy(resolve(importer)).line : undefined;
    return {
      severity: 'error',
      code: 'import-failed',
      ...(location.line === undefined && importer !== undefined && resolve(importer) === file
        ? importedBy(file)
        : location),
      ...said(
        phrase('load.not-found', {
          error: message,
          at: inHelper === undefined ? undefined : `${relative(process.cwd(), importer!)}:${inHelper}`,
        }),
        isPackage ? phrase('load.not-found.package', { name: missing! }) : phrase('load.not-found.path'),
      ),
    };
  }
  // Thrown by a module the file imports (a helper's or a package's top-level code): the line of
  // that import here, and where in that module in the message.
  const origin =
    location.line === undefined
      ? stackFrames(errorStack(error)).find((frame) => frame.path !== file && !isRiverseSource(frame.path))
      : undefined;
  const via =
    origin === undefined ? {} : importLocation(file, (specifier) => importReaches(file, specifier, origin.path));
  return {
    severity: 'error',
    code: 'import-failed',
    ...location,
    ...via,
    ...said(
      phrase('load.threw', {
        error: message,
        at: origin === undefined ? undefined : `${relative(process.cwd(), origin.path) || origin.path}:${origin.line}`,
      }),
      phrase('load.threw.hint'),
    ),
  };
}

function errorStack(error: unknown): string {
  const stack = (error as { stack?: unknown } | null)?.stack;
  return typeof stack === 'string' ? stack : '';
}

/** Whether `specifier`, imported by `file`, is the module at `path` (a relative import) or the package it is in. */
function importReaches(file: string, specifier: string, path: string): boolean {
  if (specifier.startsWith('.'))
    return (
      resolve(dirname(file), specifier) === path || resolve(dirname(file), specifier.replace(/js$/, 'ts')) === path
    );
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
  if (
    !/Cannot use import statement outside a module|Unexpected token 'export'/.test(message) ||
    !['.ts', '.js'].includes(extname(file))
  )
    return undefined;
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
