import type { Store } from '../store/store.ts';
import type { TracePart } from '../store/trace-parts.ts';
import type { ContentPart } from '../tools/content-part.ts';
import type { ToolCallRecord } from './turn-events.ts';

// `context.resultPart(callId, index?)`: a part of an earlier call's result, found in this turn's
// calls (the parts whole, as the model was given them), then in the session's turn traces (the
// parts as a trace keeps them: bytes capped, a part past the cap has none and is not found).

/** Traces of the session looked through, newest first. */
const TRACES_LOOKED_AT = 50;

/** The `index`-th part (from 1) of these parts, or the first that is not text without an index. */
function pick(parts: readonly ContentPart[], index: number | undefined): ContentPart | undefined {
  return index === undefined ? parts.find((part) => part.type !== 'text') : parts[index - 1];
}

/** A part of one of the turn's calls so far. */
export function turnPart(
  calls: readonly ToolCallRecord[],
  callId: string,
  index: number | undefined,
): ContentPart | undefined {
  const content = calls.find((call) => call.callId === callId)?.result.content;
  return content === undefined ? undefined : pick(content, index);
}

/** A part of a call of an earlier turn of the session, as its trace kept it (undefined when its bytes were not kept). */
export async function tracedPart(
  store: Store,
  session: string,
  callId: string,
  index: number | undefined,
): Promise<ContentPart | undefined> {
  for (const summary of await store.turnTraces.list({ session, limit: TRACES_LOOKED_AT })) {
    const span = (await store.turnTraces.get(summary.id))?.spans.find(
      (one) => one.kind === 'tool-call' && one.attributes['gen_ai.tool.call.id'] === callId,
    );
    if (span === undefined) continue;
    const parts = (span.parts ?? []).map(asContentPart);
    const part = index === undefined ? parts.find((one) => one !== undefined && one.type !== 'text') : parts[index - 1];
    return part ?? undefined;
  }
  return undefined;
}

/** A traced part as a content part; undefined for one whose bytes the trace did not keep. */
function asContentPart(part: TracePart): ContentPart | undefined {
  if ('omitted' in part) return undefined;
  if (part.type === 'text') return { type: 'text', text: part.text };
  if ('data' in part) return { type: part.type, data: part.data, mimeType: part.mimeType };
  return {
    type: 'resource',
    uri: part.uri,
    ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
    ...(part.text === undefined ? {} : { text: part.text }),
    ...(part.blob === undefined ? {} : { blob: part.blob }),
  };
}
