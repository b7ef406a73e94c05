import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import amaro from 'amaro';

const RIVERSE_ENTRY = new URL('../index.ts', import.meta.url).href;
let registered = false;

/**
 * Lets tool files be ordinary TypeScript, with no build step: Node's own transformer (amaro) in
 * transform mode, so enums and parameter properties work too, with source maps so stack traces
 * and diagnostics point at the author's lines. `import … from 'riverse'` always means this copy of
 * Riverse, wherever the tool folder is. Idempotent.
 */
export function registerTypeScriptHooks(): void {
  if (registered) return;
  registered = true;
  process.setSourceMapsEnabled(true);
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'riverse') return { url: RIVERSE_ENTRY, format: 'module', shortCircuit: true };
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        // The TypeScript habit of importing './helper.js' for './helper.ts'.
        const parent = context.parentURL ?? '';
        if (specifier.startsWith('.') && /\.[mc]?js$/.test(specifier) && /\.[mc]?ts(\?|$)/.test(parent)) {
          try {
            return nextResolve(specifier.replace(/js$/, 'ts'), context);
          } catch {
            // fall through to the original error
          }
        }
        throw error;
      }
    },
    load(url, context, nextLoad) {
      const extension = /\.([mc]?ts)(\?|#|$)/.exec(url)?.[1];
      if (extension === undefined || !url.startsWith('file:')) return nextLoad(url, context);
      // Name the format up front: left to Node, it would strip types (failing on enums) to guess it.
      const format = extension === 'cts' ? 'commonjs-typescript' : extension === 'mts' ? 'module-typescript' : (context.format ?? 'module-typescript');
      const loaded = nextLoad(url, { ...context, format });
      if (loaded.source === undefined || loaded.source === null) return loaded;
      const filename = fileURLToPath(url);
      const source = typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as Uint8Array).toString('utf8');
      return { format: format.replace('-typescript', ''), source: `${toJavaScript(source, filename)}\n//# sourceURL=${url}`, shortCircuit: true };
    },
  });
}

/**
 * Strips types in place (lines and columns stay where they were, so no source map is needed);
 * only a file using syntax that must be rewritten (enums, parameter properties, namespaces) is
 * transformed, with an inline source map. Stripping is about three times cheaper.
 */
function toJavaScript(source: string, filename: string): string {
  try {
    return amaro.transformSync(source, { mode: 'strip-only', filename }).code;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'UnsupportedSyntax') throw error;
  }
  const { code, map } = amaro.transformSync(source, { mode: 'transform', sourceMap: true, filename });
  return map === undefined ? code : `${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}`;
}
