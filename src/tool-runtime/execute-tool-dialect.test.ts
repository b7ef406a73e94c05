import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkParamsAgainst } from './check-params.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import { executeTool } from './execute-tool.ts';
import { registerTool } from './registered-tool.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import { ToolResult } from '../tools/tool-result.ts';

const manifest: ToolManifest = {
  name: 'plan',
  description: 'Plans a trip',
  parameters: {
    city: { type: 'string', required: true, description: 'City' },
    days: { type: 'integer', default: 1, description: 'Days' },
    unit: { type: 'string', enum: ['c', 'f'] },
    stops: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string', required: true }, minutes: { type: 'integer', enum: [30, 60] } },
      },
    },
    extra: { type: 'object', description: 'Anything else' },
  },
};

/** The tool, and the parameters of its last run. */
function planTool() {
  const seen: { params?: Record<string, unknown> } = {};
  const entry = registerTool(
    { name: 'plan', file: '', manifest },
    {},
    (params) => {
      seen.params = params;
      return ToolResult.ok('planned');
    },
    'none',
  );
  return { entry, seen };
}

describe('executing with the dialect the model was shown', () => {
  test('schemaFor compiles the schema once per dialect', () => {
    const { entry } = planTool();
    assert.equal(entry.schemaFor('gemini'), entry.schemaFor('gemini'));
    assert.deepEqual(entry.schemaFor('openai-strict'), compileSchema(entry.schema, 'openai-strict'));
  });

  test('openai-strict: the nulls of left-out parameters are dropped, JSON text parsed, then defaults filled in', async () => {
    const { entry, seen } = planTool();
    const sent = {
      city: 'Oslo',
      days: null,
      unit: null,
      stops: [{ name: 'Museum', minutes: null }],
      extra: '{"budget":100}',
    };
    const result = await executeTool(entry, sent, { dialect: 'openai-strict' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(seen.params, { city: 'Oslo', days: 1, stops: [{ name: 'Museum' }], extra: { budget: 100 } });
  });

  test('arguments that break the schema the model was shown are refused before the tool runs', async () => {
    const { entry, seen } = planTool();
    // Strict lists every parameter as required: leaving one out is not what the model was shown.
    const result = await executeTool(
      entry,
      { city: 'Oslo', days: 2, stops: null, extra: null },
      { dialect: 'openai-strict' },
    );
    assert.equal(result.code, 'invalid-params');
    assert.match(result.error ?? '', /missing required parameter "unit"/);
    assert.equal(seen.params, undefined);
  });

  test('gemini: an enum of numbers comes back from its text', async () => {
    const { entry, seen } = planTool();
    const result = await executeTool(
      entry,
      { city: 'Oslo', stops: [{ name: 'Museum', minutes: '60' }] },
      { dialect: 'gemini' },
    );
    assert.equal(result.success, true, result.error);
    assert.deepEqual(seen.params, { city: 'Oslo', days: 1, stops: [{ name: 'Museum', minutes: 60 }] });
  });

  test('without a dialect, arguments are checked as they come, as before', async () => {
    const { entry, seen } = planTool();
    const sent = () => ({ city: 'Oslo', stops: [{ name: 'Museum', minutes: null }] });
    const plain = await executeTool(entry, sent(), {});
    assert.equal(plain.code, 'invalid-params');
    // The json dialect drops a null for an optional field at any depth.
    const shown = await executeTool(entry, sent(), { dialect: 'json' });
    assert.equal(shown.success, true, shown.error);
    assert.deepEqual(seen.params, { city: 'Oslo', days: 1, stops: [{ name: 'Museum' }] });
  });
});

describe('checkParamsAgainst', () => {
  const schema = compileSchema(
    { type: 'object', properties: { n: { type: 'integer', default: 3 }, tag: { type: 'string' } }, required: ['tag'] },
    'openai',
  );

  test('coerces a copy as the usual check does, without filling in defaults', () => {
    const input = { tag: 7, n: '2' };
    assert.deepEqual(checkParamsAgainst(manifest, schema, input), { ok: true, params: { tag: '7', n: 2 } });
    assert.deepEqual(input, { tag: 7, n: '2' });
    assert.deepEqual(checkParamsAgainst(manifest, schema, { tag: 'x' }), { ok: true, params: { tag: 'x' } });
  });

  test('a null where the schema takes none is a missing value, not "" or 0', () => {
    const check = checkParamsAgainst(manifest, schema, { tag: null, n: null });
    assert.equal(check.ok, false);
    assert.match(check.ok ? '' : check.error, /^Invalid parameters for plan:\n- missing required parameter "tag"$/m);
  });

  test('says what is wrong in the words of the usual check', () => {
    const check = checkParamsAgainst(manifest, schema, { tag: 'x', n: 'many', other: 1 });
    assert.equal(check.ok, false);
    assert.match(check.ok ? '' : check.error, /"n" must be an integer, got string "many"/);
    assert.match(check.ok ? '' : check.error, /unknown parameter "other"/);
    const array = checkParamsAgainst(manifest, schema, [1]);
    assert.match(array.ok ? '' : array.error, /parameters must be a JSON object, got an array/);
  });
});
