import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerChecker } from './structured-output.ts';

describe('answerChecker', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } },
    required: ['city'],
    additionalProperties: false,
  };

  it('takes JSON that matches, a code fence around it taken off', () => {
    const check = answerChecker({ type: 'json_schema', name: 'x', schema });
    assert.deepEqual(check('{"city":"Paris"}'), { ok: true, json: '{"city":"Paris"}' });
    assert.deepEqual(check('```json\n{"city":"Oslo","unit":"c"}\n```'), {
      ok: true,
      json: '{"city":"Oslo","unit":"c"}',
    });
  });

  it('says what does not match: not JSON, a missing field, an extra one, a value not allowed', () => {
    const check = answerChecker({ type: 'json_schema', name: 'x', schema });
    const problems = (answer: string) => {
      const checked = check(answer);
      return checked.ok ? assert.fail(`accepted ${answer}`) : checked.problems;
    };
    assert.match(problems('Paris, sunny'), /^it is not JSON/);
    assert.match(problems('{}'), /must have required property 'city'/);
    assert.match(problems('{"city":"Paris","wind":3}'), /additional properties \("wind"\)/);
    assert.match(
      problems('{"city":"Paris","unit":"k"}'),
      /\/unit must be equal to one of the allowed values \(\["c","f"\]\)/,
    );
  });

  it('reads draft 2020-12 schemas (zod 4 writes them), and json_object takes any object only', () => {
    const modern = answerChecker({
      type: 'json_schema',
      name: 'x',
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        prefixItems: [{ type: 'number' }],
      },
    });
    assert.equal(modern('[1]').ok, true);
    assert.equal(modern('["a"]').ok, false);
    const any = answerChecker({ type: 'json_object' });
    assert.equal(any('{"a":1}').ok, true);
    assert.deepEqual(any('[1]'), { ok: false, problems: 'it is JSON, but not an object' });
  });

  it('throws for a schema that does not compile', () => {
    assert.throws(() => answerChecker({ type: 'json_schema', name: 'x', schema: { type: 'nothing' } }));
  });
});
