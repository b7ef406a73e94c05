/**
 * Server-sent events, reduced to what chat APIs use: the `data` of each event. Field names other
 * than `data` (`event`, `id`, `retry`) and `:` comments are skipped; lines may end in `\n`, `\r\n`
 * or `\r`, and text may arrive split anywhere, even between a `\r` and its `\n`.
 */
export class SseParser {
  /** The longest line or event data kept while it is incomplete. */
  readonly #maxChars: number;
  /** An unfinished line carried to the next push. */
  #rest = '';
  /** The data of the event being read; undefined until a `data` line comes. */
  #data: string | undefined = undefined;
  /** The last push ended in `\r`: a `\n` opening the next one ends the same line. */
  #skipLf = false;

  /**
   * `maxChars` bounds one line and one event's data: a server sending a line without end would
   * otherwise be buffered whole. Past it, `push` throws an SseEventTooLarge.
   */
  constructor(maxChars = Number.POSITIVE_INFINITY) {
    this.#maxChars = maxChars;
  }

  /**
   * Feeds decoded text and returns the data of every event it completed, in order. The result is
   * often a shared empty array: read it, do not keep or change it.
   */
  push(text: string): readonly string[] {
    if (this.#rest !== '') {
      // A long line split over many chunks: append until its end comes instead of rescanning it.
      if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
        this.#rest += text;
        if (this.#rest.length > this.#maxChars) this.#tooLarge(this.#rest.length);
        return NONE;
      }
      text = this.#rest + text;
      this.#rest = '';
    }
    let pos = 0;
    if (this.#skipLf) {
      this.#skipLf = false;
      if (text.charCodeAt(0) === LF) pos = 1;
    }
    const length = text.length;
    // Most servers end lines with `\n` alone; one scan tells whether the per-character path is needed.
    const plain = text.indexOf('\r', pos) === -1;
    let out: string[] | undefined;
    while (pos < length) {
      let end: number;
      let next: number;
      if (plain) {
        end = text.indexOf('\n', pos);
        if (end === -1) break;
        next = end + 1;
      } else {
        end = pos;
        let c = 0;
        while (end < length && (c = text.charCodeAt(end)) !== LF && c !== CR) end++;
        if (end === length) break;
        if (c === LF) next = end + 1;
        else if (end + 1 < length) next = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        else {
          next = length;
          this.#skipLf = true;
        }
      }
      if (end === pos) {
        // A blank line ends the event.
        if (this.#data !== undefined) {
          (out ??= []).push(this.#data);
          this.#data = undefined;
        }
      } else if (text.startsWith('data', pos)) {
        const colon = pos + 4;
        if (colon === end) this.#append('');
        else if (text.charCodeAt(colon) === COLON) {
          const start = text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
          this.#append(start >= end ? '' : text.slice(start, end));
        }
      }
      pos = next;
    }
    if (pos < length) {
      if (length - pos > this.#maxChars) this.#tooLarge(length - pos);
      this.#rest = text.slice(pos);
    }
    return out ?? NONE;
  }

  /**
   * At the end of the stream: the data of a last event whose blank line never came (the standard
   * drops it; some servers end without one). Resets the parser.
   */
  end(): readonly string[] {
    if (this.#rest !== '') this.push('\n');
    this.#skipLf = false;
    const data = this.#data;
    this.#data = undefined;
    return data === undefined ? NONE : [data];
  }

  #append(value: string): void {
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    if (this.#data.length > this.#maxChars) this.#tooLarge(this.#data.length);
  }

  #tooLarge(size: number): never {
    // The parser is left as it was before this push, so nothing of the oversize event is kept.
    this.#rest = '';
    this.#data = undefined;
    throw new SseEventTooLarge(size, this.#maxChars);
  }
}

/** A line or an event's data longer than the parser's `maxChars`. */
export class SseEventTooLarge extends Error {
  override name = 'SseEventTooLarge';
  readonly size: number;
  readonly limit: number;

  constructor(size: number, limit: number) {
    super(`a server-sent event passed ${limit} characters (${size} so far)`);
    this.size = size;
    this.limit = limit;
  }
}

const NONE: readonly string[] = Object.freeze([]);
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
