import type { TurnEvent } from '../../assistant/turn-events.ts';

/**
 * The text an OpenAI client is shown of a turn, built from its `text-delta` events: every reply's
 * text in order, a blank line between replies, and — since a streamed delta cannot be taken
 * back — a reply sent again after a broken stream (`retry`) shown from where the first attempt
 * stopped, not twice. The streamed and the plain answer are the same text.
 */
export class ReplyText {
  #text = '';
  /** Where the current reply's text starts in `#text`. */
  #replyStart = 0;
  /** After a retry: what this reply showed before it, not yet matched by the new attempt's text. */
  #shown: string | undefined;
  #between = false;

  get text(): string {
    return this.#text;
  }

  /** Follows one event of the turn; returns the text it adds for the client ('' when none). */
  follow(event: TurnEvent): string {
    if (event.type === 'text-delta') return this.add(event.text);
    if (event.type === 'retry') this.retry();
    else if (event.type === 'messages' && event.messages.some((message) => message.role === 'assistant'))
      this.replyEnded();
    return '';
  }

  /** The part of `delta` that is new to the client ('' when there is none). */
  add(delta: string): string {
    let piece = delta;
    if (this.#shown !== undefined) {
      const same = commonPrefix(this.#shown, piece);
      if (same === piece.length && same < this.#shown.length) {
        this.#shown = this.#shown.slice(same);
        return '';
      }
      piece = piece.slice(same);
      this.#shown = undefined;
    }
    if (piece === '') return '';
    if (this.#between) {
      this.#between = false;
      if (this.#text !== '' && !this.#text.endsWith('\n\n'))
        piece = `${this.#text.endsWith('\n') ? '\n' : '\n\n'}${piece}`;
    }
    this.#text += piece;
    return piece;
  }

  /** The model's reply is being asked for again: what it showed so far is not shown again. */
  retry(): void {
    this.#shown = this.#text.slice(this.#replyStart);
  }

  /** A reply ended (an assistant message was added): the next text is another reply's. */
  replyEnded(): void {
    this.#replyStart = this.#text.length;
    this.#shown = undefined;
    this.#between = true;
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
