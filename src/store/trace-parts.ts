import type { ContentPart } from '../tools/content-part.ts';
import { base64, byteLength } from '../tools/result-content.ts';

// What a tool-call span keeps of its result's parts and of the progress it reported: enough to see
// why a call went as it did, small enough for a trace store on a person's machine (decision 031's addendum).

/** Bytes of images, sounds and resources' blobs a span keeps in all (decoded); a part past it becomes a marker. */
export const TRACE_PART_BYTES = 24 * 1024;
/** Characters of text (text parts, text resources) a span keeps in all. */
export const TRACE_PART_TEXT = 4_000;
/** Progress updates a span keeps: the first ones, and always the latest in the last place. */
export const TRACE_PROGRESS_MAX = 20;
const PROGRESS_MESSAGE = 200;

/**
 * A part as a span keeps it, in MCP's JSON shape (bytes as base64 text); a part that did not fit is
 * a marker with its type, its size and no bytes (`omitted`), a text cut short says its full length.
 */
export type TracePart =
  | { type: 'text'; text: string; chars?: number }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string; chars?: number }
  | { type: 'image' | 'audio' | 'resource'; mimeType?: string; uri?: string; bytes: number; omitted: true };

/** A progress update as a span keeps it: when (ms since the epoch), how far, and what it said. */
export interface TraceProgress {
  atMs: number;
  progress: number;
  total?: number;
  message?: string;
}

/** The parts within the caps, in order. Bytes are encoded only for a part that is kept. */
export function traceParts(content: readonly ContentPart[]): TracePart[] {
  let bytesLeft = TRACE_PART_BYTES;
  let textLeft = TRACE_PART_TEXT;
  const text = (value: string) => {
    const kept = value.slice(0, Math.max(0, textLeft));
    textLeft -= kept.length;
    return kept.length === value.length ? { text: value } : { text: kept, chars: value.length };
  };
  return content.map((part): TracePart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', ...text(part.text) };
      case 'image':
      case 'audio': {
        const bytes = byteLength(part.data);
        if (bytes > bytesLeft) return { type: part.type, mimeType: part.mimeType, bytes, omitted: true };
        bytesLeft -= bytes;
        return { type: part.type, data: base64(part.data), mimeType: part.mimeType };
      }
      default: {
        const mime = part.mimeType === undefined ? {} : { mimeType: part.mimeType };
        if (part.text !== undefined) return { type: 'resource', uri: part.uri, ...mime, ...text(part.text) };
        const bytes = part.blob === undefined ? 0 : byteLength(part.blob);
        if (bytes > bytesLeft) return { type: 'resource', uri: part.uri, ...mime, bytes, omitted: true };
        bytesLeft -= bytes;
        return { type: 'resource', uri: part.uri, ...mime, blob: base64(part.blob ?? '') };
      }
    }
  });
}

/**
 * Adds an update to a span's list: kept while there is room, then in the last place (the latest
 * is always there). Returns whether one was dropped to make room.
 */
export function keepProgress(
  list: TraceProgress[],
  update: { progress: number; total?: number; message?: string },
  atMs: number,
): boolean {
  const entry: TraceProgress = { atMs, progress: update.progress };
  if (update.total !== undefined) entry.total = update.total;
  if (update.message !== undefined) entry.message = update.message.slice(0, PROGRESS_MESSAGE);
  if (list.length < TRACE_PROGRESS_MAX) {
    list.push(entry);
    return false;
  }
  list[list.length - 1] = entry;
  return true;
}
