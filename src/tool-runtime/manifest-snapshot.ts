import { errorMessage } from './error-location.ts';
import { english, type Phrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';
import { validateManifest, type ManifestProblem } from './validate-manifest.ts';

/** Deeper than any real manifest (parameters → properties → items → …); past it, a cycle or a mistake. */
const MAX_DEPTH = 32;

export interface ManifestSnapshot {
  /** Plain data: own enumerable fields of plain objects and arrays, each read exactly once. */
  manifest: unknown;
  /** What could not be read: a getter or Proxy that threw, a cycle, a class instance. */
  problems: ManifestProblem[];
}

/**
 * Reads what `manifest()` returned into plain data, once. Everything after (validation, the schema,
 * the copy sent from a worker) sees this copy, so a getter that throws is a manifest problem at its
 * path instead of a crash of whoever reads it next, and a getter that answers differently each time
 * cannot pass the check with one value and be used with another.
 */
export function snapshotManifest(value: unknown): ManifestSnapshot {
  const problems: ManifestProblem[] = [];
  const ancestors = new Set<object>();
  const fail = (path: string, text: Phrase) => {
    problems.push({ severity: 'error', path, message: english(text), text });
    return undefined;
  };

  const copy = (item: unknown, path: string): unknown => {
    if (typeof item === 'function' || typeof item === 'symbol' || typeof item === 'bigint') {
      // Data only: it is sent from the loader to the host as data, and shown as JSON.
      return fail(path, phrase('manifest.not-data', { path, kind: typeof item }));
    }
    if (typeof item !== 'object' || item === null) return item;
    if (path === '' && typeof (item as { then?: unknown }).then === 'function') {
      return fail(path, phrase('manifest.promise'));
    }
    if (ancestors.has(item)) return fail(path, phrase('manifest.cycle', { path }));
    if (ancestors.size >= MAX_DEPTH) return fail(path, phrase('manifest.too-deep', { path, depth: MAX_DEPTH }));
    ancestors.add(item);
    try {
      if (Array.isArray(item)) {
        const list: unknown[] = [];
        for (let index = 0; index < item.length; index++) list.push(read(item, index, `${path}[${index}]`));
        return list;
      }
      const prototype = Object.getPrototypeOf(item);
      if (prototype !== Object.prototype && prototype !== null) {
        // A class instance's getters live on its prototype and are not seen; `{ __proto__: {…} }` in
        // a literal sets the prototype, and the fields written there silently vanish.
        return fail(path, phrase('manifest.not-plain', { path }));
      }
      const object: Record<string, unknown> = {};
      for (const key of Object.keys(item)) {
        const value = read(item, key, path === '' ? key : `${path}.${key}`);
        // An own "__proto__" key stays a key (and is reported by the check): `object[key] =` would set the prototype.
        if (key === '__proto__')
          Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
        else object[key] = value;
      }
      return object;
    } catch (error) {
      // Object.keys() or the prototype of a Proxy.
      return fail(path, phrase('manifest.proxy-threw', { path, error: errorMessage(error) }));
    } finally {
      ancestors.delete(item);
    }
  };

  const read = (from: object, key: string | number, path: string): unknown => {
    let item: unknown;
    try {
      item = (from as Record<string | number, unknown>)[key];
    } catch (error) {
      return fail(path, phrase('manifest.getter-threw', { path, error: errorMessage(error) }));
    }
    return copy(item, path);
  };

  return { manifest: copy(value, ''), problems };
}

/**
 * What `manifest()` returned, read once (snapshotManifest) and checked (validateManifest): the
 * manifest to use from then on, and every problem found, all at once.
 */
export function readManifest(value: unknown): ManifestSnapshot {
  const snapshot = snapshotManifest(value);
  const checked = validateManifest(snapshot.manifest);
  // A field that could not be read is then also "missing" or "not a string": say it once.
  const followOn = (problem: ManifestProblem) =>
    snapshot.problems.some(
      (cause) => cause.path === '' || problem.path === cause.path || problem.path.startsWith(`${cause.path}.`),
    );
  return {
    manifest: snapshot.manifest,
    problems: [...snapshot.problems, ...checked.filter((problem) => !followOn(problem))],
  };
}
