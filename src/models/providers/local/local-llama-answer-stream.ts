/**
 * The answer of a constrained reply (`{"answer": "…"}`) as it streams: the JSON arrives in pieces,
 * and the user should see the text, not the JSON, while it is written. A tool call yields nothing.
 */
export class AnswerStream {
  #raw = '';
  /** Where the answer's characters start in the raw text; -1 until known, -2 for a tool call. */
  #start = -1;
  /** How far the raw text is decoded. */
  #position = 0;
  #ended = false;

  /** Takes the next piece of raw reply and returns the answer text it completes (often ''). */
  push(chunk: string): string {
    this.#raw += chunk;
    if (this.#start === -1) {
      const opening = /^\s*\{\s*"answer"\s*:\s*"/.exec(this.#raw);
      if (opening !== null) this.#start = this.#position = opening[0].length;
      else if (/^\s*\{\s*"[^a]/.test(this.#raw)) this.#start = -2;
      else return '';
    }
    return this.#start === -2 || this.#ended ? '' : this.#decode();
  }

  /** The JSON string's characters up to the last complete one (an escape may be cut in half). */
  #decode(): string {
    const raw = this.#raw;
    let text = '';
    let i = this.#position;
    while (i < raw.length) {
      const char = raw[i]!;
      if (char === '"') {
        this.#ended = true;
        i++;
        break;
      }
      if (char !== '\\') {
        text += char;
        i++;
        continue;
      }
      const length = raw[i + 1] === 'u' ? 6 : 2;
      if (i + length > raw.length) break; // the rest of the escape is still to come
      text += JSON.parse(`"${raw.slice(i, i + length)}"`) as string;
      i += length;
    }
    this.#position = i;
    return text;
  }
}
