import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { replayExamples } from './replay-examples.ts';

describe('replayExamples', () => {
  test('each example is replayed without itself, so one that only finds itself is a miss, with what it reached', () => {
    const result = replayExamples(
      [
        {
          name: 'get_weather',
          description: ['Weather forecast for a city'],
          parameters: ['city'],
          examples: ['Will it be sunny in Paris tomorrow?', 'weather forecast for Rome'],
        },
        {
          name: 'send_email',
          description: ['Send an email to a recipient'],
          parameters: ['to'],
          examples: ['email Ann about Paris'],
        },
        // Nothing in this example is said anywhere else of the tool: it reaches its tool only through itself.
        { name: 'make_note', description: ['Write a note'], parameters: [], examples: ['jot down the rain in Paris'] },
      ],
      1,
    );
    assert.equal(result.examples, 4);
    assert.equal(result.tools, 3);
    assert.deepEqual(
      result.misses.map((miss) => [miss.tool, miss.example]),
      [
        ['get_weather', 'Will it be sunny in Paris tomorrow?'],
        ['make_note', 'jot down the rain in Paris'],
      ],
    );
    assert.equal(result.misses[1]!.reached[0], 'get_weather');
  });

  test('the index is left as it was: replaying changes nothing for the next request', () => {
    const docs = [{ name: 'a', description: ['alpha tool'], parameters: [], examples: ['alpha one', 'alpha two'] }];
    assert.deepEqual(replayExamples(docs, 3).misses, []);
    assert.deepEqual(replayExamples(docs, 3).misses, []);
  });
});
