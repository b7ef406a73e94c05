// The text a client is shown of a turn: replies apart by a blank line, and a reply asked for again
// after a broken stream shown once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnEvent } from '../../assistant/turn-events.ts';
import { ReplyText } from './reply-text.ts';

const delta = (text: string): TurnEvent => ({ type: 'text-delta', text });
const replyEnd: TurnEvent = { type: 'messages', messages: [{ role: 'assistant', content: '' }] };
const retry: TurnEvent = { type: 'retry', reason: 'the stream broke' };

function shown(events: TurnEvent[]): { pieces: string[]; text: string } {
  const reply = new ReplyText();
  const pieces = events.map((event) => reply.follow(event)).filter((piece) => piece !== '');
  return { pieces, text: reply.text };
}

describe('ReplyText', () => {
  it('puts a blank line between the replies of a turn', () => {
    assert.deepEqual(
      shown([
        delta('Let me look.'),
        replyEnd,
        { type: 'messages', messages: [{ role: 'tool', toolCallId: 'c', name: 'x', content: '' }] },
        delta('Found it.'),
      ]),
      {
        pieces: ['Let me look.', '\n\nFound it.'],
        text: 'Let me look.\n\nFound it.',
      },
    );
  });

  it('shows a retried reply from where the first attempt stopped', () => {
    const { pieces, text } = shown([
      delta('Hello '),
      delta('the'),
      retry,
      delta('Hel'),
      delta('lo there'),
      delta(', friend.'),
    ]);
    assert.deepEqual(pieces, ['Hello ', 'the', 're', ', friend.']);
    assert.equal(text, 'Hello there, friend.');
  });

  it('sends what a retried reply says differently after the part it repeats', () => {
    assert.equal(shown([delta('Hello world'), retry, delta('Hello there')]).text, 'Hello worldthere');
  });

  it('forgets the first attempt once the reply ends', () => {
    assert.equal(shown([delta('Hi'), retry, replyEnd, delta('Hi again')]).text, 'Hi\n\nHi again');
  });
});
