// The call memory's bounds and its matching: count, age and size, and a reply spliced back only
// when its calls are the ones remembered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import { CallMemory } from './call-memory.ts';

const clientCall = (id: string): ToolCallRequest => ({ id, name: 'show_note', arguments: '{}' });

/** A turn that ran `lookup` and then asked for the client call `id`. */
function turn(id: string): { calls: ToolCallRequest[]; messages: ChatMessage[] } {
  const ours = { id: `ours_${id}`, name: 'lookup', arguments: '{"word":"w"}' };
  return {
    calls: [clientCall(id)],
    messages: [
      { role: 'assistant', content: '', toolCalls: [ours, clientCall(id)] },
      { role: 'tool', toolCallId: ours.id, name: 'lookup', content: `found for ${id}` },
    ],
  };
}

const replyFor = (id: string): ChatMessage => ({
  role: 'assistant',
  content: 'as the client kept it',
  toolCalls: [clientCall(id)],
});
const user: ChatMessage = { role: 'user', content: 'hi' };

function remember(memory: CallMemory, id: string): void {
  const { calls, messages } = turn(id);
  memory.remember(calls, messages);
}

describe('CallMemory', () => {
  it('puts the remembered turn in place of the reply the client kept', () => {
    const memory = new CallMemory();
    remember(memory, 'a');
    const spliced = memory.splice([user, replyFor('a'), { role: 'tool', toolCallId: 'a', name: '', content: 'shown' }]);
    assert.deepEqual(spliced, [
      user,
      ...turn('a').messages,
      { role: 'tool', toolCallId: 'a', name: '', content: 'shown' },
    ]);
  });

  it('leaves a reply whose calls differ from the remembered ones as it is', () => {
    const memory = new CallMemory();
    remember(memory, 'a');
    const other: ChatMessage = { role: 'assistant', content: '', toolCalls: [clientCall('a'), clientCall('b')] };
    assert.deepEqual(memory.splice([user, other]), [user, other]);
  });

  it('forgets the least recently used turn beyond its count', () => {
    const memory = new CallMemory({ maxEntries: 2 });
    remember(memory, 'a');
    remember(memory, 'b');
    memory.splice([replyFor('a')]); // a is used: b is now the oldest
    remember(memory, 'c');
    assert.equal(memory.size, 2);
    assert.equal(memory.splice([replyFor('b')]).length, 1, 'b was forgotten');
    assert.equal(memory.splice([replyFor('a')]).length, 2, 'a is kept');
    assert.equal(memory.splice([replyFor('c')]).length, 2, 'c is kept');
  });

  it('forgets a turn not used for its age, and keeps one that is', () => {
    let now = 0;
    const memory = new CallMemory({ ttlMs: 1_000, now: () => now });
    remember(memory, 'a');
    remember(memory, 'b');
    now = 900;
    memory.splice([replyFor('a')]);
    now = 1_500;
    assert.equal(memory.splice([replyFor('b')]).length, 1, 'b expired');
    assert.equal(memory.splice([replyFor('a')]).length, 2, 'a was used at 900 and lives on');
    assert.equal(memory.size, 1);
  });

  it('holds at most its size in characters', () => {
    const memory = new CallMemory({ maxChars: 60 });
    remember(memory, 'a'); // about 40 characters
    remember(memory, 'b');
    assert.equal(memory.size, 1, 'the older turn made room');
    memory.remember([clientCall('big')], [{ role: 'user', content: 'x'.repeat(100) }]);
    assert.equal(memory.splice([replyFor('big')]).length, 1, 'a turn larger than the whole memory is not kept');
  });

  it("counts a kept result's pictures by their bytes", () => {
    const memory = new CallMemory({ maxChars: 60 });
    const picture = { type: 'image' as const, data: new Uint8Array(100), mimeType: 'image/png' };
    memory.remember(
      [clientCall('pic')],
      [{ role: 'tool', toolCallId: 't1', name: 'chart', content: 'x', images: [picture] }],
    );
    assert.equal(memory.size, 0, 'a short result with a large picture is too large to keep');
  });
});
