import type { ImagePart } from '../tools/content-part.ts';
import type { ChatMessage, MessageImage } from './chat-message.ts';

/**
 * What every adapter needs of a message's pictures: their bytes as base64 (encoded once, as the
 * body is built; base64 text is passed on as it is), their size, and whether a message has any.
 */

/** The image's bytes as base64 text: a string as given, a Uint8Array encoded over its own memory (no copy). */
export function base64Of(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** The bytes an image holds (decoded), without decoding it. */
export function imageBytes(image: ImagePart): number {
  const { data } = image;
  if (typeof data !== 'string') return data.byteLength;
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The picture's type as APIs name it: lower case, and `image/jpg` (a common slip) as `image/jpeg`. */
export function mediaType(image: ImagePart): string {
  const type = image.mimeType.trim().toLowerCase();
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

/** The types every API here takes: OpenAI's and Anthropic's vision guides (Gemini's list differs: gemini.ts). */
export const COMMON_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** `data:image/png;base64,…`, for wires that take images as URLs. */
export function dataUrl(image: ImagePart): string {
  return `data:${mediaType(image)};base64,${base64Of(image.data)}`;
}

/** The message's pictures, or none (assistant messages carry none). */
function imagesOf(message: ChatMessage): readonly MessageImage[] {
  return message.role === 'assistant' ? [] : (message.images ?? []);
}

/** True when any message of the conversation carries a picture. */
export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => imagesOf(message).length > 0);
}

/** A size as a person reads it: `812 B`, `3.9 kB`, `1.2 MB` (powers of 1000, as the description shows). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
