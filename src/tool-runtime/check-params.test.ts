import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createParamsChecker } from './check-params.ts';
import { parametersSchema } from './parameter-schema.ts';
import { loadTools } from './test-support.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import type { ToolRegistry } from './tool-registry.ts';
import type { ToolResult } from '../tools/tool-result.ts';

// A tool that answers with the parameters it received, so each test sees what validation and
// coercion made of the call.
const ECHO_TOOL = `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
export class ForecastTool extends BaseTool {
  manifest(): ToolManifest {
    return {
      name: 'forecast',
      description: 'Weather forecast for a city',
      parameters: {
        city: { type: 'string', required: true, description: 'City name' },
        days: { type: 'integer', default: 1, description: 'How many days' },
        metric: { type: 'boolean', description: 'Metric units' },
        ratio: { type: 'number', description: 'A ratio' },
        tags: { type: 'array', items: 'a tag', description: 'Tags' },
        units: { type: 'string', enum: ['metric', 'imperial'], description: 'Unit system' },
        location: {
          type: 'object',
          description: 'Exact position',
          properties: { lat: { type: 'number', required: true }, lon: { type: 'number', required: true }, label: 'a name' },
        },
        ids: { type: 'array', items: { type: 'integer' }, description: 'Station ids' },
        extra: { type: 'object', description: 'Free-form options' },
        note: 'Free text',
      },
      examples: ['Forecast for Oslo', 'Will it rain in Bergen this week?'],
    };
  }
  execute(params: Record<string, unknown>): ToolResult {
    return ToolResult.ok(JSON.stringify(params));
  }
}
`;

const SIGNATURE =
  'Expected: forecast(city: string, days?: integer = 1, metric?: boolean, ratio?: number, tags?: string[], units?: "metric" | "imperial", location?: { lat: number, lon: number, label?: string }, ids?: integer[], extra?: object, note?: string)';

describe('parameters through registry.execute', () => {
  let registry: ToolRegistry;
  before(async () => {
    ({ registry } = await loadTools({ after }, { 'forecast.ts': ECHO_TOOL }));
    assert.deepEqual(registry.diagnostics, []);
  });

  const received = async (params: unknown): Promise<unknown> => {
    const result = await registry.execute('forecast', params);
    assert.equal(result.success, true, result.error);
    return JSON.parse(result.data);
  };
  const rejected = async (params: unknown): Promise<string> => {
    const result: ToolResult = await registry.execute('forecast', params);
    assert.equal(result.success, false, `accepted ${JSON.stringify(params)}`);
    assert.equal(result.code, 'invalid-params');
    assert.equal(result.data, '');
    return result.error ?? '';
  };

  test('strings are coerced to the declared types; a JSON-text array is parsed', async () => {
    assert.deepEqual(
      await received({
        city: 'Oslo',
        days: '3',
        metric: 'true',
        ratio: '2.5',
        tags: '["rain", "wind"]',
        ids: '[1, "2"]',
      }),
      {
        city: 'Oslo',
        days: 3,
        metric: true,
        ratio: 2.5,
        tags: ['rain', 'wind'],
        ids: [1, 2],
      },
    );
    assert.deepEqual(await received({ city: 'Oslo', metric: 'false', tags: 'solo' }), {
      city: 'Oslo',
      days: 1,
      metric: false,
      tags: ['solo'],
    });
    assert.deepEqual(await received({ city: 'Oslo', location: '{"lat": "59.9", "lon": 10.7}' }), {
      city: 'Oslo',
      days: 1,
      location: { lat: 59.9, lon: 10.7 },
    });
  });

  test('defaults are filled in', async () => {
    assert.deepEqual(await received({ city: 'Oslo' }), { city: 'Oslo', days: 1 });
    assert.deepEqual(await received({ city: 'Oslo', days: 5 }), { city: 'Oslo', days: 5 });
  });

  test('null for an optional parameter is dropped', async () => {
    assert.deepEqual(await received({ city: 'Oslo', units: null, note: null, days: null, location: null }), {
      city: 'Oslo',
      days: 1,
    });
  });

  test('null for a required parameter is an error, not an empty string', async () => {
    const error = await rejected({ city: null });
    assert.match(error, /missing required parameter "city"/);
  });

  test('a missing required parameter: named, with the signature', async () => {
    const error = await rejected({ days: 2 });
    assert.match(error, /^Invalid parameters for forecast:\n- missing required parameter "city"\n/);
    assert.ok(error.includes(SIGNATURE), error);
    assert.match(error, /\n {2}city: string — City name\n/);
    assert.match(error, /\n {2}days\?: integer — How many days\n/);
  });

  test('no parameters at all (undefined) is the same as {}', async () => {
    assert.match(await rejected(undefined), /missing required parameter "city"/);
  });

  test('an unknown parameter: named, with "did you mean" and the signature', async () => {
    const error = await rejected({ city: 'Oslo', dayz: 2 });
    assert.match(error, /unknown parameter "dayz" \(did you mean "days"\?\); remove it/);
    assert.ok(error.includes(SIGNATURE), error);
    const far = await rejected({ city: 'Oslo', zzzzzz: 1 });
    assert.match(far, /unknown parameter "zzzzzz"; remove it/);
  });

  test('an enum violation lists the allowed values and what was sent', async () => {
    const error = await rejected({ city: 'Oslo', units: 'kelvin' });
    assert.match(error, /"units" must be one of "metric", "imperial", got string "kelvin"/);
    assert.ok(error.includes('Expected: forecast('));
  });

  test('a value that cannot be coerced names the parameter, type and value', async () => {
    const error = await rejected({ city: 'Oslo', days: 'three', ratio: 'half', metric: 'maybe' });
    assert.match(error, /"days" must be an integer, got string "three"/);
    assert.match(error, /"ratio" must be a number, got string "half"/);
    assert.match(error, /"metric" must be a boolean, got string "maybe"/);
    assert.match(await rejected({ city: 'Oslo', days: 2.5 }), /"days" must be an integer, got number 2\.5/);
  });

  test('nested object fields: missing, wrong type and unknown fields are named by path', async () => {
    const error = await rejected({ city: 'Oslo', location: { lat: 'north', alt: 30 } });
    assert.match(error, /missing required field "lon" in "location"/);
    assert.match(error, /"location\.lat" must be a number, got string "north"/);
    assert.match(error, /unknown field "alt" in "location"; remove it/);
    assert.match(await rejected({ city: 'Oslo', location: 'here' }), /"location" must be an object, got string "here"/);
  });

  test('array items are checked and named by index', async () => {
    const error = await rejected({ city: 'Oslo', ids: [1, 'x', 3] });
    assert.match(error, /"ids\.1" must be an integer, got string "x"/);
  });

  test('a free-form object accepts any fields', async () => {
    assert.deepEqual(await received({ city: 'Oslo', extra: { anything: [1, 2], goes: true } }), {
      city: 'Oslo',
      days: 1,
      extra: { anything: [1, 2], goes: true },
    });
  });

  test('parameters that are not an object are rejected with what was sent', async () => {
    assert.match(await rejected('Oslo'), /parameters must be a JSON object, got string "Oslo"/);
    assert.match(await rejected(['Oslo']), /parameters must be a JSON object, got an array/);
  });

  test('every problem is reported at once', async () => {
    const error = await rejected({ dayz: 1, units: 'kelvin' });
    const problems = error.split('\n').filter((line) => line.startsWith('- '));
    assert.equal(problems.length, 3, error);
  });
});

describe('createParamsChecker', () => {
  const manifest: ToolManifest = { name: 'noparams', description: 'No parameters', examples: ['a', 'b'] };
  const check = createParamsChecker(manifest, parametersSchema(manifest));

  test('a tool without parameters takes {} and rejects anything else', () => {
    assert.deepEqual(check({}), { ok: true, params: {} });
    assert.deepEqual(check(null), { ok: true, params: {} });
    const result = check({ q: 1 });
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /unknown parameter "q"/);
    assert.match(result.ok ? '' : result.error, /Expected: noparams\(\)$/);
  });

  test('does not change the object it is given at the top level', () => {
    const withParams: ToolManifest = { ...manifest, parameters: { n: { type: 'integer', default: 7 } } };
    const checker = createParamsChecker(withParams, parametersSchema(withParams));
    const input: Record<string, unknown> = { n: '4' };
    assert.deepEqual(checker(input), { ok: true, params: { n: 4 } });
    assert.deepEqual(input, { n: '4' });
  });

  // Issue 25: the meta-schema is compiled only for schemas from elsewhere, which it still refuses as before.
  test('a schema from elsewhere (an MCP server) is checked against the meta-schema; one made from a manifest is not', () => {
    const invalid = { type: 'object', properties: { n: { type: 'integr' } } } as unknown as Parameters<
      typeof createParamsChecker
    >[1];
    assert.throws(() => createParamsChecker(manifest, invalid), /^Error: schema is invalid: data\/properties\/n\/type/);
    const made = parametersSchema({ ...manifest, parameters: { n: { type: 'integer' } } });
    assert.deepEqual(createParamsChecker(manifest, made, { madeHere: true })({ n: '2' }), {
      ok: true,
      params: { n: 2 },
    });
  });
});
