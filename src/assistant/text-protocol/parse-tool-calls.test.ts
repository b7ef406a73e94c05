import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTextToolCalls, type TextProtocolParse } from './parse-tool-calls.ts';
import type { TextToolCall } from './read-call.ts';

const FENCE = '```';

function calls(reply: string): { calls: TextToolCall[]; text: string } {
  const parsed = parseTextToolCalls(reply);
  assert.equal(parsed.kind, 'calls', `expected calls, got ${JSON.stringify(parsed)}`);
  return parsed as Extract<TextProtocolParse, { kind: 'calls' }>;
}

function invalid(reply: string): { error: string; text: string } {
  const parsed = parseTextToolCalls(reply);
  assert.equal(parsed.kind, 'invalid', `expected invalid, got ${JSON.stringify(parsed)}`);
  return parsed as Extract<TextProtocolParse, { kind: 'invalid' }>;
}

function none(reply: string): string {
  const parsed = parseTextToolCalls(reply);
  assert.equal(parsed.kind, 'none', `expected none, got ${JSON.stringify(parsed)}`);
  return parsed.text;
}

const weather = (city: string): TextToolCall => ({ name: 'get_weather', arguments: JSON.stringify({ city }) });

describe('parseTextToolCalls: calls', () => {
  it('reads a fenced json block that is the whole reply', () => {
    const result = calls(`${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}}\n${FENCE}`);
    assert.deepEqual(result.calls, [weather('Paris')]);
    assert.equal(result.text, '');
  });

  it('reads an untagged fence and a tool_call fence', () => {
    assert.deepEqual(calls(`${FENCE}\n{"tool": "get_weather", "arguments": {"city": "Oslo"}}\n${FENCE}`).calls, [
      weather('Oslo'),
    ]);
    assert.deepEqual(
      calls(`${FENCE}tool_call\n{"tool": "get_weather", "arguments": {"city": "Oslo"}}\n${FENCE}`).calls,
      [weather('Oslo')],
    );
  });

  it('reads <tool_call> tags', () => {
    const result = calls('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>');
    assert.deepEqual(result.calls, [weather('Rome')]);
  });

  it('keeps the prose before and after the block as text', () => {
    const reply = `Let me check the weather for you.\n\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}}\n${FENCE}\n\nI will report back shortly.`;
    const result = calls(reply);
    assert.deepEqual(result.calls, [weather('Paris')]);
    assert.equal(result.text, 'Let me check the weather for you.\n\nI will report back shortly.');
  });

  it('reads a fence written inline on one line', () => {
    const result = calls(
      `Sure: ${FENCE}json {"tool": "get_weather", "arguments": {"city": "Lima"}} ${FENCE} one moment.`,
    );
    assert.deepEqual(result.calls, [weather('Lima')]);
    assert.equal(result.text, 'Sure: one moment.');
  });

  it('reads a bare object and a bare object with prose around it', () => {
    assert.deepEqual(calls('{"tool": "get_weather", "arguments": {"city": "Paris"}}').calls, [weather('Paris')]);
    const result = calls('Checking now {"tool": "get_weather", "arguments": {"city": "Paris"}} — please wait.');
    assert.deepEqual(result.calls, [weather('Paris')]);
    assert.equal(result.text, 'Checking now — please wait.');
  });

  it('reads a bare object inside inline code and drops the backticks', () => {
    const result = calls('Calling `{"tool": "get_weather", "arguments": {"city": "Paris"}}` now.');
    assert.deepEqual(result.calls, [weather('Paris')]);
    assert.equal(result.text, 'Calling now.');
  });

  it('reads an array of calls in one block, in order', () => {
    const reply = `${FENCE}json\n[\n  {"tool": "get_weather", "arguments": {"city": "Paris"}},\n  {"tool": "get_time", "arguments": {"zone": "Europe/Paris"}}\n]\n${FENCE}`;
    assert.deepEqual(calls(reply).calls, [
      weather('Paris'),
      { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' },
    ]);
  });

  it('reads a bare array', () => {
    const reply = '[{"tool": "a", "arguments": {}}, {"tool": "b", "arguments": {"x": 1}}]';
    assert.deepEqual(calls(reply).calls, [
      { name: 'a', arguments: '{}' },
      { name: 'b', arguments: '{"x":1}' },
    ]);
  });

  it('reads several objects one per line in one block', () => {
    const reply = `${FENCE}json\n{"tool": "a", "arguments": {}}\n{"tool": "b", "arguments": {}}\n${FENCE}`;
    assert.deepEqual(
      calls(reply).calls.map((call) => call.name),
      ['a', 'b'],
    );
  });

  it('reads multiple fenced blocks', () => {
    const reply = `First:\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}}\n${FENCE}\nThen:\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Tokyo"}}\n${FENCE}`;
    const result = calls(reply);
    assert.deepEqual(result.calls, [weather('Paris'), weather('Tokyo')]);
    assert.equal(result.text, 'First:\n\nThen:');
  });

  it('accepts the key aliases models produce', () => {
    const cases = [
      '{"name": "get_weather", "arguments": {"city": "Paris"}}',
      '{"tool": "get_weather", "params": {"city": "Paris"}}',
      '{"function": "get_weather", "parameters": {"city": "Paris"}}',
      '{"name": "get_weather", "args": {"city": "Paris"}}',
      '{"tool_name": "get_weather", "arguments": {"city": "Paris"}}',
      '{"name": "get_weather", "input": {"city": "Paris"}}',
    ];
    for (const reply of cases) assert.deepEqual(calls(reply).calls, [weather('Paris')], reply);
  });

  it('accepts OpenAI-like calls with arguments as a JSON string, and a tool_calls wrapper', () => {
    const single =
      '{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}';
    assert.deepEqual(calls(single).calls, [weather('Paris')]);
    const wrapped = `${FENCE}json\n{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}}, {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]}\n${FENCE}`;
    assert.deepEqual(calls(wrapped).calls, [weather('Paris'), weather('Tokyo')]);
  });

  it('accepts arguments given as a JSON string with the simple keys', () => {
    assert.deepEqual(calls('{"tool": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}').calls, [
      weather('Paris'),
    ]);
  });

  it('treats missing, null or empty-string arguments as no arguments', () => {
    assert.deepEqual(calls('{"tool": "get_time"}').calls, [{ name: 'get_time', arguments: '{}' }]);
    assert.deepEqual(calls('{"tool": "get_time", "arguments": null}').calls, [{ name: 'get_time', arguments: '{}' }]);
    assert.deepEqual(calls('{"tool": "get_time", "arguments": ""}').calls, [{ name: 'get_time', arguments: '{}' }]);
  });

  it('reads a lone {"name": ...} as a call only when it is the whole reply', () => {
    assert.deepEqual(calls(`${FENCE}json\n{"name": "get_time"}\n${FENCE}`).calls, [
      { name: 'get_time', arguments: '{}' },
    ]);
    none(`Here is an example record:\n${FENCE}json\n{"name": "Alice"}\n${FENCE}`);
  });

  it('respects braces, brackets, quotes and fences inside strings', () => {
    const args = { path: 'notes.md', content: 'He said "use {x} and [y]" }]\n```js\nconst a = {};\n```\n' };
    const reply = `${FENCE}json\n${JSON.stringify({ tool: 'write_file', arguments: args })}\n${FENCE}\nDone.`;
    const result = calls(reply);
    assert.deepEqual(result.calls, [{ name: 'write_file', arguments: JSON.stringify(args) }]);
    assert.equal(result.text, 'Done.');
  });

  it('handles a trailing comma before } or ]', () => {
    const reply = `${FENCE}json\n[\n  {"tool": "get_weather", "arguments": {"city": "Paris",},},\n]\n${FENCE}`;
    assert.deepEqual(calls(reply).calls, [weather('Paris')]);
  });

  it('leaves a comma inside a string alone when removing trailing commas', () => {
    const reply = '{"tool": "search", "arguments": {"q": "a,}", "n": 2,}}';
    assert.deepEqual(calls(reply).calls, [{ name: 'search', arguments: '{"q":"a,}","n":2}' }]);
  });

  it('reads a block surrounded by Chinese and Japanese prose', () => {
    const zh = calls(
      `好的，我来查一下巴黎的天气。\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "巴黎"}}\n${FENCE}\n请稍等。`,
    );
    assert.deepEqual(zh.calls, [weather('巴黎')]);
    assert.equal(zh.text, '好的，我来查一下巴黎的天气。\n\n请稍等。');
    const ja = calls(
      `東京の天気を調べます。{"tool": "get_weather", "arguments": {"city": "東京"}}少々お待ちください。`,
    );
    assert.deepEqual(ja.calls, [weather('東京')]);
    assert.equal(ja.text, '東京の天気を調べます。 少々お待ちください。');
  });

  it('finds the call after a stray { in the prose', () => {
    const result = calls(
      'In Go a block opens with { and so on. {"tool": "get_weather", "arguments": {"city": "Paris"}}',
    );
    assert.deepEqual(result.calls, [weather('Paris')]);
  });

  it('finds a call inside brackets that are not JSON', () => {
    assert.deepEqual(calls('[calling {"tool": "get_weather", "arguments": {"city": "Paris"}}]').calls, [
      weather('Paris'),
    ]);
  });

  it('reads the call and keeps an unrelated code block in the text', () => {
    const reply = `Here is the script:\n${FENCE}python\nprint({"a": 1})\n${FENCE}\nAnd now the weather:\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}}\n${FENCE}`;
    const result = calls(reply);
    assert.deepEqual(result.calls, [weather('Paris')]);
    assert.ok(result.text.includes('print({"a": 1})'));
  });
});

describe('parseTextToolCalls: none', () => {
  it('returns plain prose unchanged (trimmed)', () => {
    assert.equal(none('  The capital of France is Paris.\n'), 'The capital of France is Paris.');
    assert.equal(none(''), '');
  });

  it('ignores braces and brackets in prose', () => {
    none('The set {1, 2, 3} has three elements, see [1] and [the docs](https://example.com).');
    none('Use {name} as a placeholder, and an opening { without a closing one.');
    none('中文里也会出现 {大括号} 和 [方括号]。');
  });

  it('ignores unrelated code blocks, even with tool-ish keys inside them', () => {
    none(`Try this:\n${FENCE}python\ncall({"tool": "x", "arguments": {}})\n${FENCE}`);
    none(`${FENCE}js\nconst config = { name: 'app', version: 1 };\n${FENCE}`);
    none(`${FENCE}\nnpm install riverse\n${FENCE}`);
  });

  it('ignores a JSON example that has no tool-ish keys', () => {
    const reply = `A person record looks like this:\n${FENCE}json\n{"name": "Alice", "age": 30, "tags": ["a", "b"]}\n${FENCE}\nThat is all.`;
    assert.equal(none(reply), reply);
    none('The API returns {"status": "ok", "items": []}.');
    none(`${FENCE}json\n{"type": "object", "properties": {"city": {"type": "string"}}}\n${FENCE}`);
  });

  it('ignores a tool definition (it has a description, it is not a call)', () => {
    none(
      `Define it like this:\n${FENCE}json\n{"name": "get_weather", "description": "Weather", "parameters": {"type": "object"}}\n${FENCE}`,
    );
  });

  it('ignores a broken JSON example without tool-ish keys inside prose', () => {
    none(`Example:\n${FENCE}json\n{"a": 1, // comment\n}\n${FENCE}\nComments are not allowed in JSON.`);
  });

  it('treats an empty list as no calls', () => {
    none('[]');
  });
});

describe('parseTextToolCalls: pathological input', () => {
  // Well under a second in all; quadratic scans took minutes. The test's timeout is the bound: a parse
  // cannot be interrupted, but the yield after each lets the timeout fail the test once it returns.
  it('stays fast and does not overflow the stack on deep or unclosed brackets', { timeout: 30_000 }, async () => {
    const cases: Array<[string, string]> = [
      ['{'.repeat(100_000), 'none'],
      ['['.repeat(50_000) + ']'.repeat(50_000), 'none'],
      [`${'{'.repeat(50_000)}{"tool": "x"}`, 'calls'],
      [`${'{"a": '.repeat(20_000)}{"tool": x}${'}'.repeat(20_000)}`, 'invalid'],
      ['```json\n{\n```\n'.repeat(5_000), 'none'],
    ];
    for (const [text, kind] of cases) {
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(parseTextToolCalls(text).kind, kind, text.slice(0, 20));
    }
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('parseTextToolCalls: invalid', () => {
  it('reports a malformed fenced block with the parser message', () => {
    const result = invalid(
      `Let me look.\n${FENCE}json\n{"tool": "get_weather", "arguments": {"city": "Paris"}\n${FENCE}`,
    );
    assert.match(result.error, /```json block is not valid JSON/);
    assert.match(result.error, /Expected \{"tool"/);
    assert.equal(result.text, 'Let me look.');
  });

  it('reports a malformed block that is the whole reply even without tool-ish keys', () => {
    assert.match(invalid(`${FENCE}json\n{get_weather: Paris}\n${FENCE}`).error, /not valid JSON/);
  });

  it('always reports a malformed tool_call block', () => {
    assert.match(invalid(`Text.\n${FENCE}tool_call\nget_weather(city="Paris")\n${FENCE}`).error, /```tool_call block/);
  });

  it('names single quotes, curly quotes and full-width punctuation', () => {
    assert.match(invalid("{'tool': 'get_weather', 'arguments': {'city': 'Paris'}}").error, /single quotes/);
    assert.match(invalid('{“tool”: “get_weather”, “arguments”: {}}').error, /curly quotes/);
    assert.match(invalid('{"tool"："get_weather"，"arguments"：{}}').error, /full-width/);
  });

  it('reports a call that was cut off', () => {
    const result = invalid('Checking. {"tool": "get_weather", "arguments": {"city": "Par');
    assert.match(result.error, /incomplete: a \{ is never closed/);
    assert.equal(result.text, 'Checking.');
  });

  it('reports a missing tool name', () => {
    const error = invalid(`${FENCE}json\n{"arguments": {"city": "Paris"}}\n${FENCE}`).error;
    assert.match(error, /^The call has no tool name/);
  });

  it('reports a tool name that is not a string', () => {
    assert.match(
      invalid('{"tool": 42, "arguments": {}}').error,
      /tool name must be a non-empty string, got the number 42/,
    );
    assert.match(invalid('{"tool": "", "arguments": {}}').error, /non-empty string/);
  });

  it('reports arguments that are not an object', () => {
    const array = invalid('{"tool": "get_weather", "arguments": ["Paris"]}').error;
    assert.match(array, /arguments of "get_weather" are an array; they must be a JSON object/);
    assert.match(invalid('{"tool": "get_weather", "arguments": "Paris"}').error, /string that is not valid JSON/);
    assert.match(invalid('{"tool": "get_weather", "arguments": 5}').error, /the number 5/);
  });

  it('names which call of several is wrong', () => {
    const error = invalid('[{"tool": "a", "arguments": {}}, {"arguments": {}}]').error;
    assert.match(error, /^Call 2 of 2: the call has no tool name/);
    assert.match(invalid('[{"tool": "a"}, "b"]').error, /^Call 2 of 2: expected a call object/);
  });

  it('is invalid when one block of several is malformed', () => {
    const reply = `${FENCE}json\n{"tool": "a", "arguments": {}}\n${FENCE}\n${FENCE}json\n{"tool": "b", "arguments": {x}}\n${FENCE}`;
    assert.match(invalid(reply).error, /not valid JSON/);
  });

  it('reports a malformed <tool_call> tag', () => {
    assert.match(
      invalid('<tool_call>\n{"name": "get_weather", "arguments": {"city": }}\n</tool_call>').error,
      /<tool_call> block/,
    );
  });

  it('sends back only the first few errors', () => {
    const error = invalid('{"tool": x} '.repeat(50)).error;
    assert.equal(error.split('\n').length, 2);
    assert.match(error, /\(and 49 more like these\)$/);
  });

  it('reports an empty call block', () => {
    assert.match(invalid(`${FENCE}tool_call\n${FENCE}`).error, /is empty/);
  });
});
