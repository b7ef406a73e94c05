// Telling text from binary, for the file tools: a model gets text, or a description of what is there.
import { readSync } from 'node:fs';
import { extname } from 'node:path';

/** True when the bytes look like binary: a NUL in the first 8 KB, or not valid UTF-8. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    // A multi-byte character cut at the end of the sample is not a sign of binary.
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.length < bytes.length ? head.subarray(0, Math.max(0, head.length - 4)) : head,
    );
    return false;
  } catch {
    return true;
  }
}

const KINDS: Record<string, string> = {
  '.png': 'a PNG image',
  '.jpg': 'a JPEG image',
  '.jpeg': 'a JPEG image',
  '.gif': 'a GIF image',
  '.webp': 'a WebP image',
  '.pdf': 'a PDF document',
  '.zip': 'a ZIP archive',
  '.gz': 'a gzip archive',
  '.mp3': 'MP3 audio',
  '.wav': 'WAV audio',
  '.mp4': 'an MP4 video',
  '.sqlite': 'a SQLite database',
  '.db': 'a database file',
};

/** One line about a binary file, instead of its bytes. */
export function describeBinary(path: string, size: number): string {
  const kind = KINDS[extname(path).toLowerCase()] ?? 'binary data';
  return `${path} is ${kind} (${size.toLocaleString('en')} bytes), not text; it is not shown.`;
}

/** The type of an image a model can be shown (PNG, JPEG, GIF, WebP), read from its first bytes; undefined for anything else. */
export function imageType(bytes: Uint8Array): string | undefined {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  const text = (at: number, value: string) =>
    [...value].every((char, index) => bytes[at + index] === char.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (text(0, 'GIF87a') || text(0, 'GIF89a')) return 'image/gif';
  if (text(0, 'RIFF') && text(8, 'WEBP')) return 'image/webp';
  return undefined;
}

/** Up to `length` bytes from the start of an open file. */
export function readStart(fd: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const read = readSync(fd, bytes, filled, length - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}
