// Loaders started ahead of a load, and how many a load runs. The CLI starts them on a cold start,
// before its own modules load (decision 013): kept apart from the load itself, so that starting
// them loads nothing more of Riverse than the hosts (the CLI's start is the time they save).
import { availableParallelism } from 'node:os';
import { spawnHost, type HostEvents, type HostKind, type HostLimits, type ToolHost } from './tool-host.ts';

/** Loaders send manifests, which are small; a larger message stops the loader. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** A loader host started ahead of a load (`startEarlyLoaders`), and whether it has ended unused. */
export interface EarlyLoader {
  kind: HostKind;
  memoryMb: number;
  host: ToolHost;
  events: HostEvents;
  ended: boolean;
}

let early: EarlyLoader[] = [];

/**
 * Starts loaders before anything has asked for them, as many as a load would run side by side, so
 * that they start on the core Riverse leaves idle meanwhile. The next load of the same kind and
 * memory limit takes them; those left unused keep nothing alive and end with Riverse.
 */
export function startEarlyLoaders(kind: HostKind, memoryMb: number): void {
  early = early.filter((loader) => !loader.ended);
  while (early.length < loaderCount(Infinity)) {
    const events: HostEvents = { message: () => {}, exit: () => (loader.ended = true) };
    const loader: EarlyLoader = {
      kind,
      memoryMb,
      ended: false,
      events,
      host: spawnHost(kind, loaderLimits(memoryMb), events, 'load'),
    };
    loader.host.unref();
    early.push(loader);
  }
}

/** Stops the early loaders no load has taken. */
export async function stopEarlyLoaders(): Promise<void> {
  const left = early;
  early = [];
  await Promise.all(left.map((loader) => loader.host.terminate()));
}

/** An early loader of this kind and memory limit, if one is still there. */
export function takeEarlyLoader(kind: HostKind, memoryMb: number): EarlyLoader | undefined {
  const index = early.findIndex((loader) => !loader.ended && loader.kind === kind && loader.memoryMb === memoryMb);
  return index === -1 ? undefined : early.splice(index, 1)[0];
}

/** Loaders for a load of `files` files: one per core, at most 4. */
export function loaderCount(files: number): number {
  return Math.max(1, Math.min(availableParallelism(), 4, files));
}

export function loaderLimits(memoryMb: number): HostLimits {
  return { memoryMb, maxMessageBytes: MAX_MESSAGE_BYTES };
}
