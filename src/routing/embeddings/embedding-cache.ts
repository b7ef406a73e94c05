import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A cache file larger than this is not read (it is started anew): it would be rebuilt faster than parsed. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Entries kept in memory; past it the cache stops growing (the file still holds what it had). */
const MAX_ENTRIES = 200_000;

/**
 * Embeddings on disk, one file per model (vectors of two models never mix), keyed by the hash of
 * the text embedded: a tool whose text did not change is not embedded again, across restarts.
 * Appended to as new texts are embedded; a line that does not parse is skipped.
 */
export class EmbeddingCache {
  readonly #file: string | undefined;
  readonly #vectors = new Map<string, Float32Array>();

  /** `dir` undefined: in memory only. */
  constructor(modelId: string, dir?: string) {
    if (dir === undefined) return;
    this.#file = join(dir, `${createHash('sha256').update(modelId).digest('hex').slice(0, 16)}.jsonl`);
    try {
      if (statSync(this.#file).size > MAX_FILE_BYTES) return;
      for (const line of readFileSync(this.#file, 'utf8').split('\n')) {
        try {
          const { h, v } = JSON.parse(line) as { h?: unknown; v?: unknown };
          if (typeof h !== 'string' || typeof v !== 'string' || this.#vectors.size >= MAX_ENTRIES) continue;
          const bytes = Buffer.from(v, 'base64');
          if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) continue;
          this.#vectors.set(
            h,
            new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
          );
        } catch {
          // a torn or foreign line
        }
      }
    } catch {
      // no cache yet
    }
  }

  get size(): number {
    return this.#vectors.size;
  }

  static key(text: string): string {
    return createHash('sha256').update(text).digest('hex').slice(0, 32);
  }

  get(key: string): Float32Array | undefined {
    return this.#vectors.get(key);
  }

  set(entries: readonly [key: string, vector: Float32Array][]): void {
    const lines: string[] = [];
    for (const [key, vector] of entries) {
      if (this.#vectors.has(key) || this.#vectors.size >= MAX_ENTRIES) continue;
      this.#vectors.set(key, vector);
      lines.push(
        JSON.stringify({
          h: key,
          v: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'),
        }),
      );
    }
    if (this.#file === undefined || lines.length === 0) return;
    try {
      mkdirSync(join(this.#file, '..'), { recursive: true });
      appendFileSync(this.#file, `${lines.join('\n')}\n`);
    } catch {
      // A cache that cannot be written costs time at the next start, nothing else.
    }
  }
}
