// Test support: finds the types a caller of the package meets but cannot name. A declaration file
// of the built package is read statement by statement; every type that a publicly exported
// declaration mentions must itself be exported from the package's entry, or the caller receives a
// value whose type they cannot write down. Text-level on purpose: tsc's declaration output is
// regular enough, and the TypeScript 7 compiler has no stable API to ask instead.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

interface DeclarationFile {
  /** Top-level declarations by name: the statement's text, comments removed. */
  declarations: Map<string, string>;
  /** Imported names → the file and the name they come from. */
  imports: Map<string, { file: string; name: string }>;
  /** Exported names → the file and name they are declared as (themselves, when declared here). */
  exports: Map<string, { file: string; name: string }>;
  /** The declarations that are types: interfaces, type aliases, classes, enums. */
  types: Set<string>;
}

const cache = new Map<string, DeclarationFile>();

/** `Name (declared in file.d.ts) is used by Other`, for each type the entry's exports use but do not export. */
export function unnamedPublicTypes(entry: string): string[] {
  const root = dirname(entry);
  const publicNames = new Set<string>();
  const queue: { file: string; name: string }[] = [];
  for (const [name, origin] of parse(entry).exports) {
    const declared = declaredAt(origin);
    publicNames.add(key(declared));
    queue.push(declared);
    if (name !== origin.name) throw new Error(`renamed export ${origin.name} as ${name}: not supported by this check`);
  }
  const problems = new Set<string>();
  for (const declaration of queue) {
    const file = parse(declaration.file);
    const text = file.declarations.get(declaration.name) ?? '';
    for (const word of new Set(text.match(/\b[A-Za-z_$][\w$]*\b/g) ?? [])) {
      if (word === declaration.name) continue;
      const used =
        file.imports.get(word) ?? (file.declarations.has(word) ? { file: declaration.file, name: word } : undefined);
      if (used === undefined) continue;
      const declared = declaredAt(used);
      // Only types need names; a value (a brand symbol, a list a union is made from) is not the caller's to write.
      if (!parse(declared.file).types.has(declared.name)) continue;
      if (!publicNames.has(key(declared)))
        problems.add(`${declared.name} (declared in ${relative(root, declared.file)}) is used by ${declaration.name}`);
    }
  }
  return [...problems].sort();
}

function key(origin: { file: string; name: string }): string {
  return `${origin.file}#${origin.name}`;
}

/** Follows re-exports and imports to the file that declares the name. */
function declaredAt(origin: { file: string; name: string }): { file: string; name: string } {
  const file = parse(origin.file);
  if (file.declarations.has(origin.name)) return origin;
  const next = file.imports.get(origin.name) ?? file.exports.get(origin.name);
  if (next === undefined || (next.file === origin.file && next.name === origin.name)) return origin;
  return declaredAt(next);
}

function parse(path: string): DeclarationFile {
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  const text = readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"])\/\/.*$/gm, '$1');
  const file: DeclarationFile = { declarations: new Map(), imports: new Map(), exports: new Map(), types: new Set() };
  const target = (specifier: string) => resolve(dirname(path), specifier).replace(/\.[jt]s$/, '.d.ts');
  // A statement starts at the beginning of a line with a keyword; tsc indents everything inside one.
  for (const statement of text.split(
    /\n(?=(?:export |declare |import |interface |type |class |function |const |let |enum |abstract ))/,
  )) {
    const from = /from ['"](\.[^'"]+)['"]/.exec(statement)?.[1];
    const names =
      /\{([^}]*)\}/
        .exec(statement)?.[1]
        ?.split(',')
        .map((part) => part.trim().replace(/^type /, ''))
        .filter(Boolean) ?? [];
    if (/^import /.test(statement) && from !== undefined) {
      for (const name of names) {
        const [original, local = original] = name.split(/\s+as\s+/);
        file.imports.set(local!, { file: target(from), name: original! });
      }
    } else if (/^export (type )?\{/.test(statement)) {
      for (const name of names) {
        const [original, exported = original] = name.split(/\s+as\s+/);
        file.exports.set(
          exported!,
          from === undefined ? { file: path, name: original! } : { file: target(from), name: original! },
        );
      }
    } else {
      const match =
        /^(?:export )?(?:declare )?(?:abstract )?(interface|type|class|function|const|let|enum) ([A-Za-z_$][\w$]*)/.exec(
          statement,
        );
      if (match === null) continue;
      const [, kind, declared] = match as unknown as [string, string, string];
      if (kind !== 'function' && kind !== 'const' && kind !== 'let') file.types.add(declared);
      file.declarations.set(declared, (file.declarations.get(declared) ?? '') + statement);
      if (statement.startsWith('export ')) file.exports.set(declared, { file: path, name: declared });
    }
  }
  cache.set(path, file);
  return file;
}

/** The declaration entry of an installed package folder. */
export function typesEntry(packageDir: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports: { '.': { types: string } };
  };
  return join(packageDir, manifest.exports['.'].types);
}
