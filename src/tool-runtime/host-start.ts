import type { ToolContext } from '../tools/tool-context.ts';

/**
 * Who is told that a call started a fresh tool host, and how long the host took to be ready: kept
 * beside the call's context rather than in it, since the context is the tool contract (a tool file
 * sees it) and this is Riverse's own business (the turn's trace: `riverse.host_start_ms`).
 */
const listeners = new WeakMap<ToolContext, (ms: number) => void>();

export function onHostStart(context: ToolContext, listener: (ms: number) => void): void {
  listeners.set(context, listener);
}

/** The listener of a call's context, if its caller gave one. */
export function hostStartListener(context: ToolContext): ((ms: number) => void) | undefined {
  return listeners.get(context);
}
