// The checkout's CLI as a few bundled files instead of ~250 TypeScript modules (decision 042).
// Node's ES module loader costs ~0.6 ms of CPU per module even with the compile cache (resolution,
// package.json lookups, the cache's check, linking), so `riverse tools list` and `ask` spent more on
// loading Riverse than on running it. Imported by bin/riverse.js on the Node that runs Riverse.
//
// The bundle is a cache of the sources, never a second truth: it is used only when every file it was
// made from is as it was (size and modification time of ~430 files, checked at each start: a few ms), and made again
// otherwise; when it cannot be made (esbuild missing, a file that does not parse) the sources run, and
// Node says what is wrong with them. `RIVERSE_FROM_SOURCES=1` runs the sources always.
//
// What keeps it the same program:
// - every `import.meta.url` (and `dirname`, `filename`) is the source file's own, so files found
//   beside a module (the dashboard's, the tool hosts' scripts, the migrations) are found as before;
// - packages stay imports of node_modules, loaded by Node as before (their own laziness kept);
// - the tool contract (the modules `import … from 'riverse'` gives a tool file, src/tool-api.ts and
//   what it imports) stays imports of the source files, so a tool run in this process and Riverse
//   share one `BaseTool`, one `ToolResult`, one `ContextUnavailable`;
// - dynamic imports stay dynamic (code splitting), so what Riverse loads on first use still waits.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'src');

/** The entry points bundled, by output name: the CLI, and the script every tool host runs. */
const ENTRIES = {
  cli: join(sources, 'cli', 'main.ts'),
  'tool-worker': join(sources, 'tool-runtime', 'isolation', 'tool-worker.ts'),
};

/** A bundle no longer current is removed once no process uses it and it was last used this long ago. */
const KEEP_UNUSED_MS = 60 * 1000;

/**
 * The URL of the bundled CLI to import, made or remade if needed; undefined to run the sources.
 * `cacheDir`: where bundles are kept, inside the checkout (its packages are found from there).
 */
export async function checkoutEntry(cacheDir = join(root, 'node_modules', '.cache', 'riverse-checkout')) {
  if (process.env.RIVERSE_FROM_SOURCES === '1') return undefined;
  const current = readCurrent(cacheDir);
  const folder = current !== undefined && isFresh(current) ? current.folder : (await makeBundle(cacheDir))?.folder;
  if (folder === undefined) return undefined;
  useBundle(join(cacheDir, folder));
  return pathToFileURL(join(cacheDir, folder, 'cli.js')).href;
}

/**
 * Marks the bundle as used by this process until it exits: it loads chunks from there on first use
 * (a service for days), so the folder must outlive a newer bundle made meanwhile.
 */
function useBundle(folder) {
  const mark = join(folder, `.used-by-${process.pid}`);
  try {
    writeFileSync(mark, '');
    process.on('exit', () => rmSync(mark, { force: true }));
  } catch {
    // removed just now by a start that found it unused: this process still has what it imported
  }
}

/** What current.json says: the folder of the bundle in use and the files it was made from. */
function readCurrent(cacheDir) {
  try {
    const current = JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8'));
    return typeof current.folder === 'string' && Array.isArray(current.inputs) ? current : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every input is as it was when the bundle was made (a file gone or changed: not fresh). */
function isFresh(current) {
  for (const [file, size, mtimeMs] of current.inputs) {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats === undefined || stats.size !== size || stats.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/** What both builds share: Riverse's files bundled, packages left to Node, as Node runs the sources. */
const COMMON = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: `node${process.versions.node.split('.')[0]}`,
  packages: 'external',
  logLevel: 'silent',
  metafile: true,
  // Types erased and nothing else rewritten (not tsconfig.json's build settings), and every function
  // and class keeping its own name (`error.name`, `constructor.name`), as when Node strips the types.
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
  keepNames: true,
};

/** Makes a bundle into a new folder and names it current; undefined (and nothing changed) when it cannot. */
async function makeBundle(cacheDir) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined; // a checkout installed without its development dependencies
  }
  // node:crypto is not imported for a name: it costs a start ~10 ms.
  const folder = `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const out = join(cacheDir, folder);
  try {
    // The tool contract: src/tool-api.ts and everything of Riverse's it imports.
    const contract = inputsOf(
      await esbuild.build({ ...COMMON, entryPoints: [join(sources, 'tool-api.ts')], write: false }),
    );
    const result = await esbuild.build({
      ...COMMON,
      entryPoints: ENTRIES,
      outdir: out,
      splitting: true,
      sourcemap: 'linked',
      sourcesContent: false,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      define: { RIVERSE_BUNDLED_TOOL_HOST: JSON.stringify(pathToFileURL(join(out, 'tool-worker.js')).href) },
      plugins: [ownLocations(contract)],
    });
    // Stated after the build read them: a file changed meanwhile makes the next start build again.
    const inputs = [...new Set([...inputsOf(result), ...contract, fileURLToPath(import.meta.url)])].map((file) => {
      const stats = statSync(file);
      return [file, stats.size, stats.mtimeMs];
    });
    mkdirSync(cacheDir, { recursive: true });
    const temporary = join(cacheDir, `current.json.${folder}`);
    writeFileSync(temporary, JSON.stringify({ folder, inputs }));
    renameSync(temporary, join(cacheDir, 'current.json'));
    removeOldBundles(cacheDir, folder);
    return { folder };
  } catch {
    rmSync(out, { recursive: true, force: true });
    return undefined; // the sources run, and say what is wrong with them
  }
}

/** The files a build read, as absolute paths. */
function inputsOf(result) {
  return Object.keys(result.metafile.inputs).map((input) => resolve(root, input));
}

/** Keeps each module's own location (import.meta), and the contract's modules as imports of their sources. */
function ownLocations(contract) {
  const shared = new Set(contract);
  return {
    name: 'riverse-own-locations',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0 || !shared.has(resolved.path)) return resolved;
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
      build.onLoad({ filter: /\.[mc]?[jt]s$/ }, (args) => {
        if (!args.path.startsWith(sources)) return undefined;
        const text = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          // A module run as a script checks this; inside the CLI's bundle none is.
          .replaceAll('import.meta.main', 'false');
        return { contents: text, loader: /\.[mc]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
    },
  };
}

/** Removes bundles other than `keep` that no living process uses (by its mark) and none used for a minute. */
function removeOldBundles(cacheDir, keep) {
  for (const entry of readdirSync(cacheDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const folder = join(cacheDir, entry.name);
    try {
      // A mark written or removed changes the folder's time: a start that has just chosen it is not cut short.
      if (Date.now() - statSync(folder).mtimeMs < KEEP_UNUSED_MS) continue;
      const users = readdirSync(folder).filter((name) => name.startsWith('.used-by-'));
      if (users.some((name) => isAlive(Number(name.slice('.used-by-'.length))))) continue;
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // another start removed it
    }
  }
}

/** Whether a process of this id is running (one that ended without its exit handler leaves its mark behind). */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
