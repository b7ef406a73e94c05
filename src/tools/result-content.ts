import type { Phrase } from '../core/phrase.ts';
import type { ContentPart } from './content-part.ts';
import { resultPhrase } from './result-text.ts';

// A result's parts, checked as they come from tool code (isolated or not), measured, and cut to
// the result's byte cap (decision 027).

/** More parts than a person would look at in one tool card. */
const MAX_PARTS = 100;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Where a base64 check stops reading: a long string is checked by its start and end, not scanned whole. */
const BASE64_SAMPLE = 4_096;

/** Why `content` is not a list of parts, as a phrase; undefined when it is one. */
export function contentProblem(content: unknown): Phrase | undefined {
  if (!Array.isArray(content)) return resultPhrase('result.content-not-array');
  if (content.length > MAX_PARTS)
    return resultPhrase('result.content-too-many', { count: content.length, max: MAX_PARTS });
  for (let index = 0; index < content.length; index++) {
    const problem = partProblem(content[index]);
    if (problem !== undefined) return resultPhrase('result.part', { index, problem });
  }
  return undefined;
}

function partProblem(part: unknown): Phrase | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return resultPhrase('result.part-not-object');
  const { type } = part as { type?: unknown };
  const fields = part as Record<string, unknown>;
  switch (type) {
    case 'text':
      return typeof fields.text === 'string'
        ? undefined
        : resultPhrase('result.part-field', { field: 'text', want: 'text' });
    case 'image':
    case 'audio':
      if (!isBytes(fields.data)) return resultPhrase('result.part-field', { field: 'data', want: 'bytes' });
      if (typeof fields.mimeType !== 'string' || !fields.mimeType.startsWith(`${type}/`))
        return resultPhrase('result.part-field', { field: 'mimeType', want: `${type}/` });
      return undefined;
    case 'resource':
      if (typeof fields.uri !== 'string' || !URL.canParse(fields.uri))
        return resultPhrase('result.part-field', { field: 'uri', want: 'uri' });
      if (fields.mimeType !== undefined && typeof fields.mimeType !== 'string')
        return resultPhrase('result.part-field', { field: 'mimeType', want: 'text' });
      if (fields.text !== undefined && typeof fields.text !== 'string')
        return resultPhrase('result.part-field', { field: 'text', want: 'text' });
      if (fields.blob !== undefined && !isBytes(fields.blob))
        return resultPhrase('result.part-field', { field: 'blob', want: 'bytes' });
      if ((fields.text === undefined) === (fields.blob === undefined))
        return resultPhrase('result.part-field', { field: 'text', want: 'text-or-blob' });
      return undefined;
    default:
      return resultPhrase('result.part-type', { type: typeof type === 'string' ? JSON.stringify(type) : String(type) });
  }
}

/** Bytes as a part carries them: a Uint8Array, or base64 text. */
function isBytes(value: unknown): boolean {
  if (value instanceof Uint8Array) return true;
  if (typeof value !== 'string' || value.length % 4 !== 0) return false;
  return value.length <= 2 * BASE64_SAMPLE
    ? BASE64.test(value)
    : BASE64.test(value.slice(0, BASE64_SAMPLE)) && BASE64.test(value.slice(-BASE64_SAMPLE));
}

/** The parts as the runtime keeps them: only their own fields (a tool's extra keys do not travel on). */
export function cleanParts(content: readonly ContentPart[]): ContentPart[] {
  return content.map((part): ContentPart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
      case 'audio':
        return { type: part.type, data: part.data, mimeType: part.mimeType };
      default:
        return {
          type: 'resource',
          uri: part.uri,
          ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
          ...(part.text === undefined ? {} : { text: part.text }),
          ...(part.blob === undefined ? {} : { blob: part.blob }),
        };
    }
  });
}

/** The text of the text parts, a line between each: `data` when a tool gives only `content`. */
export function partsText(content: readonly ContentPart[]): string {
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** What a part holds, in bytes as it travels (base64 text counts by its length). */
function partBytes(part: ContentPart): number {
  const size = (value: string | Uint8Array | undefined) =>
    value === undefined ? 0 : typeof value === 'string' ? value.length : value.byteLength;
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'image':
    case 'audio':
      return size(part.data);
    case 'resource':
      return size(part.text) + size(part.blob) + part.uri.length;
  }
}

/** The decoded size of bytes: a Uint8Array's length, or what base64 text stands for. */
export function byteLength(value: string | Uint8Array): number {
  if (typeof value !== 'string') return value.byteLength;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return Math.max(0, (value.length / 4) * 3 - padding);
}

/** "3.9 kB", "120 bytes", "2.5 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The parts within `maxBytes` in all, in order: a part that does not fit is replaced by a text
 * part saying what was cut (its type, size and the cap), so that nothing vanishes unseen. Parts
 * kept are the same objects (their bytes are not copied).
 */
export function capParts(content: readonly ContentPart[], maxBytes: number): ContentPart[] {
  let used = 0;
  let cut = false;
  const kept = content.map((part): ContentPart => {
    const bytes = partBytes(part);
    if (!cut && used + bytes <= maxBytes) {
      used += bytes;
      return part;
    }
    cut = true;
    const kind =
      part.type === 'resource'
        ? `resource ${part.uri}`
        : part.type === 'text'
          ? 'text'
          : `${part.type} ${part.mimeType}`;
    return {
      type: 'text',
      text: `…[cut: ${kind} of ${formatSize(bytes)} left out; a result may carry ${formatSize(maxBytes)} in all (tools.max_result_bytes)]`,
    };
  });
  return cut ? kept : (content as ContentPart[]);
}

/** Every ArrayBuffer the parts' bytes live in, to move them (not copy) to another thread. */
export function partBuffers(content: readonly ContentPart[] | undefined): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const part of content ?? []) {
    const bytes = part.type === 'resource' ? part.blob : part.type === 'text' ? undefined : part.data;
    // Only a buffer the part owns whole: a slice of a shared pool (small Buffers) is copied instead.
    if (
      bytes instanceof Uint8Array &&
      bytes.buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength
    )
      buffers.add(bytes.buffer);
  }
  return [...buffers];
}

/** The parts with their bytes as base64 text, as JSON (which has no bytes) and MCP write them. */
export function partsAsJson(content: readonly ContentPart[]): ContentPart[] {
  return content.map((part) => {
    if (part.type === 'image' || part.type === 'audio') return { ...part, data: base64(part.data) };
    if (part.type === 'resource' && part.blob !== undefined) return { ...part, blob: base64(part.blob) };
    return part;
  });
}

/** Bytes as base64 text, read in place (a Uint8Array is not copied first). */
export function base64(bytes: string | Uint8Array): string {
  return typeof bytes === 'string'
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
