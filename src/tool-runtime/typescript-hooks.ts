import { lstatSync, readFileSync } from 'node:fs';
// registerHooks and stripTypeScriptTypes are newer than Node 20: read off the namespace when called,
// so that the package still links there and can say which Node it needs (core/node-version.ts).
import * as nodeModule from 'node:module';
import { createRequire, isBuiltin, SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
let amaro: typeof import('amaro') | undefined;
let stripped = false;

/** `.ts` in a checkout, `.js` in the package (compiled, decision 007): the entries are this file's siblings. */
const OWN_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const OWN_FORMAT = OWN_EXTENSION === '.ts' ? 'module-typescript' : 'module';
const FULL_ENTRY = new URL(`../index${OWN_EXTENSION}`, import.meta.url).href;
/** The contract alone (decision 004): what tool files get in a worker, where start-up time counts. */
const TOOL_API_ENTRY = new URL(`../tool-api${OWN_EXTENSION}`, import.meta.url).href;
let registered = false;
/** File contents to use instead of what is on disk now (a worker runs the version that was loaded). */
const snapshots = new Map<string, string>();

/** Which project files each module imported (file URLs without `?v=`): what a tool file's load depends on. */
const imports = new Map<string, Set<string>>();

/** Modules (file URLs without `?v=`) that imported something by a specifier resolved from where they are. */
const locationImports = new Set<string>();

/**
 * Whether `file` imported anything by a specifier whose meaning depends on where the file is (a
 * relative path, a package found in a node_modules above it): one that did not (only `riverse`,
 * `node:` built-ins, absolute paths and URLs) imports the same modules from any folder (030).
 */
export function importsByItsLocation(file: string): boolean {
  return locationImports.has(pathToFileURL(file).href);
}

function resolvedFromLocation(specifier: string): boolean {
  return !(
    specifier.startsWith('node:') ||
    isBuiltin(specifier) ||
    specifier.startsWith('file:') ||
    specifier.startsWith('/') ||
    specifier.startsWith('data:')
  );
}

/**
 * The files of the project (not packages, not Riverse) that `file` imported, directly or through
 * others, as paths: what loading it depended on besides its own text.
 */
export function importedFiles(file: string): string[] {
  const seen = new Set<string>();
  const visit = (url: string) => {
    for (const next of imports.get(url) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      visit(next);
    }
  };
  const own = pathToFileURL(file).href;
  visit(own);
  seen.delete(own);
  return [...seen].map((url) => fileURLToPath(url));
}

function recordImport(parentURL: string | undefined, url: string): void {
  if (
    parentURL === undefined ||
    !url.startsWith('file:') ||
    url.includes('/node_modules/') ||
    url.startsWith(OWN_SOURCE)
  )
    return;
  const parent = parentURL.replace(/\?v=\d+$/, '');
  const child = url.replace(/\?v=\d+$/, '');
  let set = imports.get(parent);
  if (set === undefined) imports.set(parent, (set = new Set()));
  set.add(child);
}

/** Makes imports of `file` use `source`, whatever the file holds on disk by then. */
export function useSourceSnapshot(file: string, source: string): void {
  snapshots.set(file, source);
}

/** JavaScript a loader already made of a tool file: imported as it is, with no type stripper (~16 MB) in this process. */
const readyJavaScript = new Map<string, string>();
/** The JavaScript made of each snapshot here, for the process that will run the file. */
const madeJavaScript = new Map<string, string>();

/** Makes imports of `file` use `javascript`, already stripped of its types (see `javaScriptOf`), until `done` settles. */
export async function withJavaScriptSnapshot<T>(file: string, javascript: string, done: () => Promise<T>): Promise<T> {
  readyJavaScript.set(file, javascript);
  try {
    return await done();
  } finally {
    readyJavaScript.delete(file);
  }
}

/** The JavaScript the snapshot of `file` became when it was imported here, if it was. */
export function javaScriptOf(file: string): string | undefined {
  return madeJavaScript.get(file);
}

/** The text `file` is imported from: its snapshot, else what is on disk now (undefined if unreadable). */
export function sourceText(file: string): string | undefined {
  try {
    return snapshots.get(file) ?? readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Lets tool files be ordinary TypeScript, with no build step, enums and parameter properties
 * included (decision 001). `import … from 'riverse'` always means this copy of Riverse, wherever
 * the tool folder is: in a tool file or its helpers (imported as `?v=N`), the tool contract alone,
 * as in a tool's own process — so a tool run in Riverse's process neither loads all of Riverse for
 * it nor can use more of it than where it is isolated; elsewhere (a test of a tool under
 * `riverse/register`, the embedding app) all of it, unless `contractOnly`. Idempotent.
 */
export function registerTypeScriptHooks(options: { contractOnly?: boolean } = {}): void {
  if (registered) return;
  registered = true;
  const entryFor = (parentURL: string | undefined) =>
    options.contractOnly === true || (parentURL !== undefined && /\?v=\d+$/.test(parentURL))
      ? TOOL_API_ENTRY
      : FULL_ENTRY;
  if (lazyMaps === undefined) process.setSourceMapsEnabled(true);
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'riverse') return { url: entryFor(context.parentURL), format: OWN_FORMAT, shortCircuit: true };
      if (context.parentURL !== undefined && resolvedFromLocation(specifier))
        locationImports.add(context.parentURL.replace(/\?v=\d+$/, ''));
      const known = resolveSnapshot(specifier);
      if (known !== undefined) {
        recordImport(context.parentURL, known.url);
        return known;
      }
      try {
        const resolved = freshWithParent(nextResolve(specifier, context), context.parentURL);
        recordImport(context.parentURL, resolved.url);
        learnFolder(specifier, resolved);
        return resolved;
      } catch (error) {
        // The TypeScript habit of importing './helper.js' for './helper.ts'.
        const parent = context.parentURL ?? '';
        if (specifier.startsWith('.') && /\.[mc]?js$/.test(specifier) && /\.[mc]?ts(\?|$)/.test(parent)) {
          try {
            const resolved = nextResolve(specifier.replace(/js$/, 'ts'), context);
            recordImport(context.parentURL, resolved.url);
            return resolved;
          } catch {
            // fall through to the original error
          }
        }
        throw error;
      }
    },
    load(url, context, nextLoad) {
      // Riverse's own files are erasable TypeScript (or JavaScript): Node strips them itself, and
      // keeps the result in its compile cache, which a tool host starting up reads instead.
      if (!url.startsWith('file:') || url.startsWith(OWN_SOURCE)) return nextLoad(url, context);
      const filename = fileURLToPath(url);
      const ready = readyJavaScript.get(filename);
      if (ready !== undefined) {
        const format = (context.format ?? (/\.c[jt]s(\?|#|$)/.test(url) ? 'commonjs' : 'module')).replace(
          '-typescript',
          '',
        );
        return { format, source: `${ready}\n//# sourceURL=${url}`, shortCircuit: true };
      }
      const snapshot = snapshots.get(filename);
      const extension = /\.([mc]?ts)(\?|#|$)/.exec(url)?.[1];
      if (extension === undefined) {
        const loaded = nextLoad(url, context);
        return snapshot === undefined ? loaded : { ...loaded, source: snapshot, shortCircuit: true };
      }
      // Name the format up front: left to Node, it would strip types (failing on enums) to guess it.
      const format =
        extension === 'cts'
          ? 'commonjs-typescript'
          : extension === 'mts'
            ? 'module-typescript'
            : (context.format ?? 'module-typescript');
      let source = snapshot;
      if (source === undefined) {
        const loaded = nextLoad(url, { ...context, format });
        if (loaded.source === undefined || loaded.source === null) return loaded;
        source =
          typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as Uint8Array).toString('utf8');
      }
      const ahead = preparedJavaScript.get(filename);
      if (ahead !== undefined) preparedJavaScript.delete(filename);
      const javascript = ahead?.source === source ? ahead.javascript : toJavaScript(source, filename);
      if (snapshot !== undefined) madeJavaScript.set(filename, javascript);
      return {
        format: format.replace('-typescript', ''),
        source: `${javascript}\n//# sourceURL=${url}`,
        shortCircuit: true,
      };
    },
  });
}

const OWN_SOURCE = new URL('..', import.meta.url).href;

/**
 * A folder of tool files as Node resolved the first of them, where that left its URL as it was (no
 * link on the way): the format Node found for it (from the nearest package.json), which every
 * file of the folder with the same extension shares.
 */
const folderFormats = new Map<string, { extension: string; format: string | null | undefined }>();
const SNAPSHOT_ENTRY = /^(file:\/\/.*\/)[^/?#]*(\.[^./?#]+)\?v=\d+$/;

/** A specifier that is the entry of a file this host was given the text of (`import(file?v=N)`): its folder, extension and path. */
function snapshotEntry(specifier: string): { folder: string; extension: string; filename: string } | undefined {
  const match = SNAPSHOT_ENTRY.exec(specifier);
  if (match === null) return undefined;
  const filename = fileURLToPath(specifier.slice(0, specifier.indexOf('?')));
  return snapshots.has(filename) ? { folder: match[1]!, extension: match[2]!, filename } : undefined;
}

/**
 * Such an entry resolved without Node's search (a stat, a real path and a package.json lookup per
 * file, about a tenth of a loader's time): when its folder was resolved once and the file itself
 * is not a link. Else undefined.
 */
function resolveSnapshot(specifier: string): { url: string; format?: string | null; shortCircuit: true } | undefined {
  const entry = snapshotEntry(specifier);
  const folder = entry === undefined ? undefined : folderFormats.get(entry.folder);
  if (entry === undefined || folder === undefined || folder.extension !== entry.extension) return undefined;
  try {
    if (lstatSync(entry.filename).isSymbolicLink()) return undefined;
  } catch {
    return undefined; // gone since it was read: Node says so
  }
  return { url: specifier, format: folder.format, shortCircuit: true };
}

/** Remembers how Node resolved such an entry, for the next files of its folder. */
function learnFolder(specifier: string, resolved: { url: string; format?: string | null }): void {
  const entry = resolved.url === specifier ? snapshotEntry(specifier) : undefined;
  if (entry !== undefined) folderFormats.set(entry.folder, { extension: entry.extension, format: resolved.format });
}

/**
 * A tool file imported as `file.ts?v=N` (a reload) passes `?v=N` on to the files of its own folder
 * that it imports, so helpers are fresh too. Packages and Riverse itself are left shared.
 */
function freshWithParent<T extends { url: string }>(resolved: T, parentURL: string | undefined): T {
  const version = parentURL === undefined ? undefined : /\?v=\d+$/.exec(parentURL)?.[0];
  if (
    version === undefined ||
    !resolved.url.startsWith('file:') ||
    resolved.url.includes('?') ||
    resolved.url.includes('/node_modules/') ||
    resolved.url.startsWith(OWN_SOURCE)
  )
    return resolved;
  // Only the tool's own folder (and below): a shared module elsewhere stays one instance.
  const folder = parentURL!.slice(0, parentURL!.lastIndexOf('/', parentURL!.indexOf('?')) + 1);
  if (!resolved.url.startsWith(folder)) return resolved;
  return { ...resolved, url: `${resolved.url}${version}` };
}

/**
 * Types are removed by oxc's transformer (native: tens of µs for a tool file where Node's WebAssembly
 * stripper takes 100–300, and ~5 ms to load against ~20; decision 021), with a source map for lines
 * and columns. Where oxc cannot load (a platform without its binary) or finds the file wrong, Node's
 * own stripper takes over: it strips types in place (lines and columns stay put); a file with syntax
 * that must be rewritten (enums, parameter properties, namespaces) is transformed by the amaro
 * package with a source map; and between them they say what is wrong, with line and column.
 */
function toJavaScript(source: string, filename: string): string {
  const transformed = transformWithOxc(source, filename);
  if (transformed !== undefined) return transformed;
  try {
    return strip(source);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' && code !== 'ERR_INVALID_TYPESCRIPT_SYNTAX') throw error;
  }
  amaro ??= require('amaro') as typeof import('amaro');
  const { code, map } = amaro.transformSync(source, { mode: 'transform', sourceMap: true, filename });
  return map === undefined ? code : withSourceMap(code, filename, JSON.parse(map) as SourceMapPayload);
}

/** null: oxc-transform cannot load in this process. */
let oxc: typeof import('oxc-transform') | null | undefined;

/**
 * oxc's JavaScript for a TypeScript file, or undefined where oxc cannot load or finds an error.
 * Imports without `type` are kept, as Node's stripper keeps them: a tool file means the same wherever
 * it runs.
 */
function transformWithOxc(source: string, filename: string): string | undefined {
  if (oxc === undefined) {
    try {
      oxc = require('oxc-transform') as typeof import('oxc-transform');
    } catch {
      oxc = null;
    }
  }
  if (oxc === null) return undefined;
  const { code, map, errors } = oxc.transformSync(filename, source, {
    sourcemap: true,
    typescript: { onlyRemoveTypeImports: true },
  });
  return errors.length > 0 || map === undefined ? undefined : withSourceMap(code, filename, map);
}

/**
 * The code with its source map inline: what a stack needs (no copy of the source, which is on disk),
 * since the map travels with the code to the process that runs it, and into the load cache.
 */
function withSourceMap(
  code: string,
  filename: string,
  { mappings, names }: Pick<SourceMapPayload, 'mappings' | 'names'>,
): string {
  const map = JSON.stringify({ version: 3, sources: [filename], names, mappings });
  lazyMaps?.set(filename, map);
  return `${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}`;
}

/** The source maps of what was made here, by file, where Node does not apply them (see `mapStacksOnDemand`). */
let lazyMaps: Map<string, string> | undefined;

/**
 * Node stops applying source maps to this process's stacks: positions are mapped only where a
 * diagnostic reads them (`originalStack`). For a loader, which reads a stack only when a file
 * fails, while Node's support costs ~100 µs per module it imports (decision 021).
 */
export function mapStacksOnDemand(): void {
  lazyMaps = new Map();
  process.setSourceMapsEnabled(false);
}

/**
 * A file position in a stack: path (a file URL or an absolute path), query (`?v=N`), line, column.
 * A path starts the stack, a line, or follows "(": not "/process/…" inside "node:internal/process/…".
 */
export const STACK_POSITION = /(?<![^\s(])(file:\/\/[^\s():]+|\/[^\s():]+)((?:\?[^\s():]*)?):(\d+)(?::(\d+))?/g;

/** `stack` with each position in JavaScript made here (where Node left it unmapped) put back where it was in the source. */
export function originalStack(stack: string): string {
  if (lazyMaps === undefined || lazyMaps.size === 0) return stack;
  return stack.replace(STACK_POSITION, (whole, path: string, query: string, line: string, column?: string) => {
    const map = lazyMaps!.get(path.startsWith('file:') ? fileURLToPath(path) : path);
    if (map === undefined) return whole;
    const origin = new SourceMap(JSON.parse(map) as SourceMapPayload).findOrigin(Number(line), Number(column ?? 1));
    if (!('lineNumber' in origin)) return whole;
    return `${path}${query}:${origin.lineNumber}${column === undefined ? '' : `:${origin.columnNumber}`}`;
  });
}

/** JavaScript made ahead of an import (`prepareJavaScript`), by file, with the text it was made from. */
const preparedJavaScript = new Map<string, { source: string; javascript: string }>();

/**
 * Makes the JavaScript of `file` from `source` now, for its import to come: a loader does so for
 * each file as it arrives, so that files that arrive together are transformed one after another.
 * Returns it (undefined for a JavaScript file, or one whose import will say what is wrong).
 */
export function prepareJavaScript(file: string, source: string): string | undefined {
  if (!/\.[mc]?ts$/.test(file)) return undefined;
  try {
    const javascript = toJavaScript(source, file);
    preparedJavaScript.set(file, { source, javascript });
    return javascript;
  } catch {
    return undefined; // its import says what is wrong
  }
}

/** Makes the type stripper ready (its first use loads it) before a tool file is waiting for it. */
export function warmTypeStripper(): void {
  if (transformWithOxc('', 'warm.ts') === undefined) strip('');
}

/** `stripTypeScriptTypes` without the ExperimentalWarning it prints on first use (output must stay clean). */
function strip(source: string): string {
  if (stripped) return nodeModule.stripTypeScriptTypes(source, { mode: 'strip' });
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (String(typeof warning === 'string' ? warning : warning.message).startsWith('stripTypeScriptTypes')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const code = nodeModule.stripTypeScriptTypes(source, { mode: 'strip' });
    stripped = true;
    return code;
  } finally {
    process.emitWarning = emitWarning;
  }
}
