import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../models/chat-message.ts';
import { closeOpenToolCalls, estimateTokens, INTERRUPTED_CALL, trimHistory } from './trim-history.ts';

/** One turn with a tool round: user, assistant call, tool result, answer. */
function toolTurn(n: number, size = 40): ChatMessage[] {
  return [
    { role: 'user', content: `question ${n} ${'q'.repeat(size)}` },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call_${n}`, name: 'weather', arguments: JSON.stringify({ city: `City ${n}` }) }],
    },
    { role: 'tool', toolCallId: `call_${n}`, name: 'weather', content: `result ${n} ${'r'.repeat(size)}` },
    { role: 'assistant', content: `answer ${n} ${'a'.repeat(size)}` },
  ];
}

function plainTurn(n: number, size = 40): ChatMessage[] {
  return [
    { role: 'user', content: `question ${n} ${'q'.repeat(size)}` },
    { role: 'assistant', content: `answer ${n} ${'a'.repeat(size)}` },
  ];
}

/** The same count trimHistory uses, for checking the budget from outside. */
function tokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + estimateTokens(message.content);
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        total += 8 + estimateTokens(call.name) + estimateTokens(call.arguments);
  }
  return total;
}

describe('estimateTokens', () => {
  it('counts about four Latin characters per token, rounding up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('a'.repeat(400)), 100);
  });

  it('counts one token per Chinese, Japanese or Korean character', () => {
    assert.equal(estimateTokens('东京天气'), 4);
    assert.equal(estimateTokens('東京の天気は'), 6);
    assert.equal(estimateTokens('한국어'), 3);
    assert.equal(estimateTokens('東京 weather'), 2 + 2, 'two wide characters, then " weather" (8 characters)');
  });
});

describe('trimHistory', () => {
  it('keeps a history that fits, whole', () => {
    const history = [...toolTurn(1), ...plainTurn(2)];
    assert.deepEqual(trimHistory(history, 10_000), history);
    assert.deepEqual(trimHistory([], 100), []);
  });

  it('keeps the most recent turns within the budget', () => {
    const history = Array.from({ length: 20 }, (_, n) => plainTurn(n)).flat();
    const budget = 100;
    const kept = trimHistory(history, budget);
    assert.ok(kept.length > 0 && kept.length < history.length);
    assert.ok(tokens(kept) <= budget, `${tokens(kept)} tokens kept for a budget of ${budget}`);
    assert.deepEqual(kept, history.slice(history.length - kept.length), 'a suffix of the history');
    // As many turns as fit: one more would not.
    const withOneMore = history.slice(history.length - kept.length - 2);
    assert.ok(tokens(withOneMore) > budget);
  });

  it("counts an old turn's pictures when dropping turns, and never cuts the last turn for them", () => {
    const picture = { type: 'image' as const, data: new Uint8Array(10), mimeType: 'image/png' };
    const [question, answer] = plainTurn(1) as [ChatMessage, ChatMessage];
    const old: ChatMessage[] = [{ ...question, images: [picture] } as ChatMessage, answer];
    const history = [...old, ...plainTurn(2)];
    // The text of both turns fits 500 tokens; with the picture's estimate it does not, so the old turn goes.
    assert.ok(tokens(history) < 500);
    assert.deepEqual(trimHistory(history, 500), plainTurn(2));
    // The last turn is kept whole, its picture included, and its text is not cut to make room for it.
    assert.deepEqual(trimHistory(old, 500), old);
  });

  it('cuts only where a user message starts, so a tool call keeps its result', () => {
    const history = Array.from({ length: 10 }, (_, n) => toolTurn(n)).flat();
    for (let budget = 1; budget <= tokens(history) + 10; budget += 7) {
      const kept = trimHistory(history, budget);
      assert.equal(kept[0]?.role, 'user', `budget ${budget}: starts with a user message`);
      assert.equal(kept.length % 4, 0, `budget ${budget}: whole turns only`);
      assert.deepEqual(kept, history.slice(history.length - kept.length));
      if (kept.length > 4) assert.ok(tokens(kept) <= budget, `budget ${budget}: ${tokens(kept)} tokens`);
    }
  });

  it('keeps the last user message and what follows even when that alone is over the budget, cutting the largest to fit', () => {
    const history = [...plainTurn(1), ...toolTurn(2, 4_000)];
    const budget = 200;
    const kept = trimHistory(history, budget);
    const whole = toolTurn(2, 4_000);
    assert.equal(kept.length, 4, 'the same messages, none dropped');
    assert.deepEqual(kept[1], whole[1], 'the small call message stays whole');
    assert.ok(tokens(kept) <= budget, `${tokens(kept)} tokens for a budget of ${budget}`);
    for (const index of [0, 2, 3]) {
      const content = kept[index]!.content;
      assert.ok(
        whole[index]!.content.startsWith(content.slice(0, content.indexOf('[…'))),
        'the start of the message is kept',
      );
      assert.match(
        content,
        /\[… \d+ characters cut here by Riverse: this message was longer than the history budget \(assistant\.history_tokens\)\]$/,
      );
    }
  });

  it('cuts one huge message alone: a pasted file, a huge tool result, huge tool-call arguments', () => {
    const huge = 'x'.repeat(5_000_000);
    const history: ChatMessage[] = [
      { role: 'user', content: 'Summarize this' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c', name: 'write', arguments: JSON.stringify({ text: huge }) }],
      },
      { role: 'tool', toolCallId: 'c', name: 'write', content: huge },
      { role: 'assistant', content: '東'.repeat(100_000) },
    ];
    const budget = 2_000;
    const kept = trimHistory(history, budget, (omitted) => `[cut ${omitted}]`);
    assert.ok(tokens(kept) <= budget, `${tokens(kept)} tokens`);
    assert.deepEqual(kept[0], history[0]);
    const call = kept[1]!.role === 'assistant' ? kept[1]!.toolCalls![0]! : undefined;
    assert.deepEqual(
      JSON.parse(call!.arguments),
      { riverse_cut: `[cut ${history[1]!.role === 'assistant' ? history[1]!.toolCalls![0]!.arguments.length : 0}]` },
      'arguments stay JSON, with the marker',
    );
    assert.match(kept[2]!.content, /^x+\[cut \d+\]$/);
    assert.match(kept[3]!.content, /^東+\[cut \d+\]$/);
    assert.ok(!/[\ud800-\udbff]\[/.test(kept[3]!.content), 'no half of a surrogate pair before the marker');
  });

  it('never starts with an orphaned tool result or assistant message', () => {
    // A history that begins mid-turn (e.g. cut by an older version): the leading part goes first.
    const history: ChatMessage[] = [...toolTurn(1).slice(1), ...plainTurn(2)];
    const kept = trimHistory(history, 10_000);
    assert.deepEqual(kept, plainTurn(2));
  });

  it('counts tool-call arguments and CJK text', () => {
    const wide: ChatMessage[] = [
      { role: 'user', content: '东'.repeat(100) },
      { role: 'assistant', content: '好' },
      { role: 'user', content: '京' },
      { role: 'assistant', content: '好' },
    ];
    // 100 wide characters are 100 tokens, not 25.
    assert.deepEqual(trimHistory(wide, 60), wide.slice(2));
    const heavyCall: ChatMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c', name: 'write', arguments: JSON.stringify({ text: 'x'.repeat(400) }) }],
      },
      { role: 'tool', toolCallId: 'c', name: 'write', content: 'ok' },
      { role: 'assistant', content: 'done' },
      ...plainTurn(2, 0),
    ];
    assert.deepEqual(trimHistory(heavyCall, 80), plainTurn(2, 0), 'the arguments of a call count');
  });
});

describe('closeOpenToolCalls', () => {
  it('leaves a well-formed history as it is', () => {
    const history = [...toolTurn(1), ...plainTurn(2), ...toolTurn(3)];
    assert.deepEqual(closeOpenToolCalls(history), history);
    assert.deepEqual(closeOpenToolCalls([]), []);
  });

  it('gives a failed result to calls left without one (a turn cut off while its tools ran)', () => {
    const cut: ChatMessage[] = [
      { role: 'user', content: 'weather in Tokyo and Paris' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'weather', arguments: '{"city":"Tokyo"}' },
          { id: 'b', name: 'weather', arguments: '{"city":"Paris"}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'weather', content: 'Tokyo: 16°C' },
    ];
    const fixed = closeOpenToolCalls([...cut, ...plainTurn(2)]);
    assert.deepEqual(fixed, [
      ...cut,
      { role: 'tool', toolCallId: 'b', name: 'weather', content: INTERRUPTED_CALL, isError: true },
      ...plainTurn(2),
    ]);
    // At the very end too.
    assert.deepEqual(
      closeOpenToolCalls(cut.slice(0, 2))
        .slice(2)
        .map((message) => message.role === 'tool' && message.toolCallId),
      ['a', 'b'],
    );
  });

  it('drops a result whose call is not right before it', () => {
    const stray: ChatMessage = { role: 'tool', toolCallId: 'gone', name: 'weather', content: 'orphan' };
    assert.deepEqual(closeOpenToolCalls([stray, ...plainTurn(1)]), plainTurn(1));
    assert.deepEqual(closeOpenToolCalls([...toolTurn(1).slice(0, 3), stray, toolTurn(1)[3]!]), toolTurn(1));
  });
});
