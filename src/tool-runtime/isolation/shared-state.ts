// In a loader, the state that every file loaded there shares: globals, the built-in objects and
// their prototypes, process.env, and the exports of Node's most used modules. A file whose code
// changes any of it (a patched Array.prototype.map, a new global, fs.readFile replaced) would change
// how the next files load and what they report, so the loader compares after every file and is
// not reused once something changed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The built-ins watched by value: the language's core and the web APIs tools call. (Some globals,
 * such as FormData, are built on first read at a cost of milliseconds; only their names are watched.)
 */
const WATCHED_GLOBALS = [
  'Object',
  'Function',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'BigInt',
  'Math',
  'JSON',
  'Reflect',
  'Proxy',
  'Promise',
  'RegExp',
  'Date',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Uint8Array',
  'Int32Array',
  'Float64Array',
  'Iterator',
  'Intl',
  'Buffer',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'AbortController',
  'AbortSignal',
  'EventTarget',
  'Event',
  'console',
  'fetch',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'structuredClone',
  'atob',
  'btoa',
];

/** What of `process` a file could change for the files after it (others, such as chdir, are defined lazily by Node). */
const WATCHED_PROCESS = [
  'emitWarning',
  'exit',
  'kill',
  'nextTick',
  'cwd',
  'hrtime',
  'memoryUsage',
  'on',
  'emit',
  'env',
] as const;
/** Listeners a file could add to `process` that would act on the files after it. */
const WATCHED_EVENTS = ['uncaughtException', 'unhandledRejection', 'exit', 'warning', 'beforeExit'] as const;

/** Node modules tools import most, whose exports a file could patch for everyone after it. */
const WATCHED_MODULES = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'url',
  'util',
  'events',
  'http',
  'https',
  'net',
  'dns',
  'crypto',
  'child_process',
  'module',
];

type Descriptors = Map<PropertyKey, PropertyDescriptor>;

interface Watched {
  label: string;
  target: object;
  prototype: object | null;
  extensible: boolean;
  properties: Descriptors;
  /** The same keys in the order the object lists them: while that order holds, each is compared in place. */
  keys: PropertyKey[];
}

export interface SharedState {
  objects: Watched[];
  globalNames: Set<string>;
  env: Record<string, string | undefined>;
  process: unknown[];
  listeners: number[];
}

/** What is shared now: call before the first file, then `changesSince` after each. */
export function captureSharedState(): SharedState {
  const objects: Watched[] = [];
  const seen = new Set<object>();
  const watch = (label: string, target: unknown) => {
    if ((typeof target !== 'object' && typeof target !== 'function') || target === null || seen.has(target)) return;
    seen.add(target);
    const properties = descriptorsOf(target);
    objects.push({
      label,
      target,
      prototype: Object.getPrototypeOf(target),
      extensible: Object.isExtensible(target),
      properties,
      keys: [...properties.keys()],
    });
  };
  for (const key of WATCHED_GLOBALS) {
    const value = (globalThis as Record<string, unknown>)[key];
    watch(key, value);
    if (typeof value === 'function') watch(`${key}.prototype`, value.prototype);
  }
  // Prototypes with no global of their own.
  watch('Function.prototype', Function.prototype);
  watch('TypedArray.prototype', Object.getPrototypeOf(Uint8Array.prototype));
  watch(
    'AsyncFunction.prototype',
    Object.getPrototypeOf(async () => {}),
  );
  for (const name of WATCHED_MODULES) watch(`node:${name}`, require(name));
  return {
    objects,
    globalNames: globalNames(),
    env: { ...process.env },
    process: processMembers(),
    listeners: processListeners(),
  };
}

/** What changed since `before`, as readable paths ("Array.prototype.map", "globalThis.answer"); empty when nothing did. */
export function changesSince(before: SharedState): string[] {
  const changes: string[] = [];
  for (const watched of before.objects) {
    if (Object.getPrototypeOf(watched.target) !== watched.prototype) changes.push(`the prototype of ${watched.label}`);
    if (Object.isExtensible(watched.target) !== watched.extensible) changes.push(`${watched.label} (frozen or sealed)`);
    // Checked about 60 times per thousand files: the common case, nothing changed, allocates no map.
    if (unchanged(watched)) continue;
    const now = descriptorsOf(watched.target);
    for (const [key, descriptor] of now) {
      const old = watched.properties.get(key);
      if (old === undefined || !sameDescriptor(old, descriptor)) changes.push(`${watched.label}.${String(key)}`);
    }
    for (const key of watched.properties.keys())
      if (!now.has(key)) changes.push(`${watched.label}.${String(key)} (deleted)`);
  }
  const names = globalNames();
  for (const name of names) if (!before.globalNames.has(name)) changes.push(`globalThis.${name}`);
  for (const name of before.globalNames) if (!names.has(name)) changes.push(`globalThis.${name} (deleted)`);
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(process.env)]))
    if (before.env[key] !== process.env[key]) changes.push(`process.env.${key}`);
  for (const [index, member] of processMembers().entries()) {
    if (member !== before.process[index]) changes.push(`process.${WATCHED_PROCESS[index]}`);
  }
  for (const [index, count] of processListeners().entries()) {
    if (count !== before.listeners[index]) changes.push(`a process.on('${WATCHED_EVENTS[index]}') listener`);
  }
  return changes;
}

/** Symbol-keyed globals are left out: Node keeps caches there (undici's dispatcher, on the first fetch). */
function globalNames(): Set<string> {
  return new Set(Object.getOwnPropertyNames(globalThis));
}

/** True when the object has the same keys, in the same order, with the same descriptors as when watched. */
function unchanged(watched: Watched): boolean {
  const keys = Reflect.ownKeys(watched.target);
  if (keys.length !== watched.keys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== watched.keys[index]) return false;
    const descriptor = Reflect.getOwnPropertyDescriptor(watched.target, key);
    if (descriptor === undefined || !sameDescriptor(watched.properties.get(key)!, descriptor)) return false;
  }
  return true;
}

function descriptorsOf(target: object): Descriptors {
  const properties: Descriptors = new Map();
  for (const key of Reflect.ownKeys(target)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (descriptor !== undefined) properties.set(key, descriptor);
  }
  return properties;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable &&
    Object.is(a.value, b.value)
  );
}

function processMembers(): unknown[] {
  return WATCHED_PROCESS.map((name) => (process as unknown as Record<string, unknown>)[name]);
}

function processListeners(): number[] {
  return WATCHED_EVENTS.map((event) => process.listenerCount(event));
}
