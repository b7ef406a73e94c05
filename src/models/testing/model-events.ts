// Test support for model adapters: reading what `model.stream()` yields.
import assert from 'node:assert/strict';
import type { ModelEvent } from '../chat-model.ts';
import { ModelError } from '../model-error.ts';

/** Every event of a run; `onEvent` sees each as it comes (and may wait, to act as a slow consumer). */
export async function collect(
  events: AsyncIterable<ModelEvent>,
  onEvent?: (event: ModelEvent) => void | Promise<void>,
): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) {
    out.push(event);
    await onEvent?.(event);
  }
  return out;
}

/** The ModelError a run ends with, and the events before it. */
export async function failure(
  events: AsyncIterable<ModelEvent>,
  onEvent?: (event: ModelEvent) => void,
): Promise<ModelError & { before: ModelEvent[] }> {
  const before: ModelEvent[] = [];
  try {
    await collect(events, (event) => {
      before.push(event);
      onEvent?.(event);
    });
  } catch (error) {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
    return Object.assign(error, { before });
  }
  assert.fail('expected the request to fail');
}

export const textOf = (events: ModelEvent[]): string =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
export const callsOf = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
export const finishOf = (events: ModelEvent[]): ModelEvent | undefined => events.at(-1);
export const reasonOf = (events: ModelEvent[]) => {
  const last = events.at(-1);
  return last?.type === 'finish' ? last.reason : undefined;
};
