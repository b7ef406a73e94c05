import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { suggest, validateManifest, type ManifestProblem } from './validate-manifest.ts';
import { renderPhrase } from '../core/phrase.ts';

const EXAMPLES = ['What is the weather in Oslo?', 'Is it raining in Bergen?'];
const valid = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'weather',
  description: 'Current weather for a city',
  examples: EXAMPLES,
  ...extra,
});

const errors = (manifest: unknown): ManifestProblem[] =>
  validateManifest(manifest).filter((problem) => problem.severity === 'error');
const warnings = (manifest: unknown): ManifestProblem[] =>
  validateManifest(manifest).filter((problem) => problem.severity === 'warning');
/** The single error, failing with all problems when there is not exactly one. */
function oneError(manifest: unknown): ManifestProblem {
  const found = errors(manifest);
  assert.equal(found.length, 1, JSON.stringify(validateManifest(manifest), null, 2));
  return found[0]!;
}

describe('validateManifest', () => {
  test('a complete manifest has no problems', () => {
    assert.deepEqual(
      validateManifest(
        valid({
          description: { en: 'Current weather', zh: '当前天气', ja: '現在の天気' },
          parameters: {
            city: { type: 'string', required: true, description: { en: 'City', zh: '城市' } },
            days: { type: 'integer', default: 1, enum: [1, 2, 3] },
            tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
            where: { type: 'object', properties: { lat: { type: 'number', required: true }, label: 'a name' } },
            note: 'free text',
          },
          examples: { en: EXAMPLES, zh: ['奥斯陆天气？', '卑尔根下雨吗？'] },
          timeoutMs: 100,
        }),
      ),
      [],
    );
  });

  test('annotations take a title and the four MCP hints, as booleans', () => {
    const base = { name: 'files', description: 'Reads files.', examples: ['read a.txt', 'show b.txt'] };
    assert.deepEqual(
      validateManifest({ ...base, annotations: { title: 'Files', readOnlyHint: true, openWorldHint: false } }),
      [],
    );
    const problems = validateManifest({ ...base, annotations: { readOnlyHnt: true, destructiveHint: 'no' } });
    assert.deepEqual(
      problems.map((problem) => [problem.path, problem.message]),
      [
        [
          'annotations.readOnlyHnt',
          'annotations must be an object with only title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint (did you mean "readOnlyHint"?)',
        ],
        ['annotations.destructiveHint', 'annotations.destructiveHint must be true or false, got "no"'],
      ],
    );
  });

  test('a value that is not an object is one error at the top', () => {
    for (const value of [null, undefined, 'weather', 42, []]) {
      const problem = oneError(value);
      assert.equal(problem.path, '');
      assert.match(problem.message, /expected an object \{ name, description/);
    }
  });

  test('names must be 1–64 letters, digits, "_" or "-"', () => {
    for (const name of ['my_tool', 'my-tool-2', 'A', 'x'.repeat(64)])
      assert.deepEqual(errors(valid({ name })), [], name);
    for (const name of ['my tool!', '', 'x'.repeat(65), 'dot.name', 'ünïcode', 42, undefined]) {
      const problem = oneError(valid({ name }));
      assert.equal(problem.path, 'name');
      assert.match(problem.message, /is invalid: use 1–64 letters, digits/);
    }
  });

  test('a name starting with a digit or "-" loads, with a warning that Gemini rejects it', () => {
    for (const name of ['3d_print', '-dash']) {
      assert.deepEqual(errors(valid({ name })), [], name);
      assert.deepEqual(
        warnings(valid({ name })).map(({ text: _, ...problem }) => problem),
        [
          {
            severity: 'warning',
            path: 'name',
            message: `name "${name}" starts with "${name[0]}": Gemini models reject a tool name that does not start with a letter or "_" (e.g. "_${name}")`,
          },
        ],
      );
    }
    for (const name of ['_private', 'my-tool', 'A']) assert.deepEqual(warnings(valid({ name })), [], name);
  });

  test('descriptions: empty, missing, wrong type, unknown language, no text in any language', () => {
    assert.match(oneError(valid({ description: '' })).message, /description is empty/);
    assert.match(oneError(valid({ description: '   ' })).message, /description is empty/);
    assert.match(oneError(valid({ description: undefined })).message, /and is missing/);
    assert.match(oneError(valid({ description: 5 })).message, /got number/);
    const french = oneError(valid({ description: { en: 'Weather', fr: 'Météo' } }));
    assert.equal(french.path, 'description.fr');
    assert.match(french.message, /unknown language "fr"; use en, zh, ja/);
    assert.equal(oneError(valid({ description: { en: 'Weather', zh: 5 } })).path, 'description.zh');
    assert.match(oneError(valid({ description: { en: ' ' } })).message, /no text in any language/);
    assert.deepEqual(errors(valid({ description: { zh: '天气' } })), []);
  });

  test('parameters must be an object of descriptions or specs with valid names', () => {
    assert.equal(oneError(valid({ parameters: ['city'] })).path, 'parameters');
    assert.equal(oneError(valid({ parameters: 'city' })).path, 'parameters');
    const badName = oneError(valid({ parameters: { 'my city': 'City' } }));
    assert.equal(badName.path, 'parameters.my city');
    assert.match(badName.message, /parameter name "my city" is invalid/);
    assert.match(
      oneError(valid({ parameters: { city: null } })).message,
      /must be a description string or a spec .* got null/,
    );
    assert.match(oneError(valid({ parameters: { city: 5 } })).message, /got number/);
    assert.deepEqual(errors(valid({ parameters: { 'geo.lat': 'Latitude', 'a-b_c': 'x' } })), []);
  });

  test('spec fields: type, required, enum, default', () => {
    const type = oneError(valid({ parameters: { city: { type: 'text' } } }));
    assert.equal(type.path, 'parameters.city.type');
    assert.match(type.message, /type "text" is not one of string, number, integer, boolean, array, object/);
    assert.match(
      oneError(valid({ parameters: { city: { required: 'yes' } } })).message,
      /required must be true or false, got "yes"/,
    );
    assert.match(oneError(valid({ parameters: { units: { enum: [] } } })).message, /non-empty list/);
    assert.match(
      oneError(valid({ parameters: { units: { enum: ['metric', 1] } } })).message,
      /enum value 1 is not a string/,
    );
    assert.match(
      oneError(valid({ parameters: { days: { type: 'integer', enum: [1, 1.5] } } })).message,
      /enum value 1\.5 is not a integer/,
    );
    assert.match(
      oneError(valid({ parameters: { days: { type: 'integer', default: '1' } } })).message,
      /default "1" is not a integer/,
    );
    assert.match(
      oneError(valid({ parameters: { units: { enum: ['metric'], default: 'kelvin' } } })).message,
      /default "kelvin" is not one of the enum values/,
    );
    assert.match(
      oneError(valid({ parameters: { city: { description: 7 } } })).message,
      /parameters\.city\.description must be a string/,
    );
  });

  test('an unknown spec field is an error, with "did you mean" for a typo', () => {
    const typo = oneError(valid({ parameters: { city: { type: 'string', requried: true } } }));
    assert.equal(typo.path, 'parameters.city.requried');
    assert.match(typo.message, /unknown field "requried" \(did you mean "required"\?\)/);
    assert.match(
      oneError(valid({ parameters: { city: { descripton: 'City' } } })).message,
      /did you mean "description"/,
    );
    assert.doesNotMatch(oneError(valid({ parameters: { city: { colour: 'red' } } })).message, /did you mean/);
  });

  test('items and properties: only on their types, and checked recursively', () => {
    assert.match(
      oneError(valid({ parameters: { city: { type: 'string', items: 'x' } } })).message,
      /items only applies to type "array"/,
    );
    assert.match(
      oneError(valid({ parameters: { city: { properties: {} } } })).message,
      /properties only applies to type "object"/,
    );
    assert.equal(
      oneError(valid({ parameters: { tags: { type: 'array', items: { type: 'text' } } } })).path,
      'parameters.tags.items.type',
    );
    assert.equal(oneError(valid({ parameters: { tags: { type: 'array', items: 5 } } })).path, 'parameters.tags.items');
    assert.equal(
      oneError(valid({ parameters: { where: { type: 'object', properties: { lat: { type: 'float' } } } } })).path,
      'parameters.where.properties.lat.type',
    );
    assert.equal(
      oneError(valid({ parameters: { where: { type: 'object', properties: { 'bad name': 'x' } } } })).path,
      'parameters.where.properties.bad name',
    );
    assert.equal(
      oneError(valid({ parameters: { where: { type: 'object', properties: ['lat'] } } })).path,
      'parameters.where.properties',
    );
  });

  test('examples: fewer than two is a warning, bad ones are errors', () => {
    const none = warnings(valid({ examples: undefined }));
    assert.deepEqual(
      none.map((problem) => problem.path),
      ['examples'],
    );
    assert.match(none[0]?.message ?? '', /no examples/);
    assert.deepEqual(errors(valid({ examples: undefined })), []);
    assert.match(warnings(valid({ examples: ['just one'] }))[0]?.message ?? '', /only one example/);
    assert.match(warnings(valid({ examples: { en: ['one'], zh: ['一'] } }))[0]?.message ?? '', /only one example/);
    assert.deepEqual(validateManifest(valid({ examples: { en: ['one'], zh: ['一', '二'] } })), []);

    assert.equal(oneError(valid({ examples: 'ask about weather' })).path, 'examples');
    assert.equal(oneError(valid({ examples: ['fine', ''] })).path, 'examples');
    assert.equal(oneError(valid({ examples: ['fine', 3] })).path, 'examples');
    const language = oneError(valid({ examples: { en: EXAMPLES, fr: EXAMPLES } }));
    assert.equal(language.path, 'examples.fr');
    assert.match(language.message, /unknown language "fr"/);
    assert.equal(oneError(valid({ examples: { en: 'not a list' } })).path, 'examples.en');
  });

  test('timeoutMs must be a positive number', () => {
    for (const timeoutMs of [0, -5, 'fast', Number.POSITIVE_INFINITY, Number.NaN]) {
      const problem = oneError(valid({ timeoutMs }));
      assert.equal(problem.path, 'timeoutMs');
    }
    assert.deepEqual(validateManifest(valid({ timeoutMs: 1 })), []);
  });

  test('long_running is "optional" or "required", said in every language when it is not', () => {
    for (const long_running of ['optional', 'required'])
      assert.deepEqual(validateManifest(valid({ long_running })), []);
    for (const long_running of [true, 'always', 1]) {
      const problem = oneError(valid({ long_running }));
      assert.equal(problem.path, 'long_running');
      assert.match(
        problem.message,
        /^long_running is "optional" \(a call may run as a task\) or "required" \(it always does\), got /,
      );
      assert.match(renderPhrase(problem.text!, 'ja') ?? '', /^long_running は "optional"/);
      assert.match(renderPhrase(problem.text!, 'zh') ?? '', /^long_running 应为 "optional"/);
    }
    // A typo of it is caught like any unknown field.
    assert.match(warnings(valid({ longRunning: 'optional' }))[0]?.message ?? '', /did you mean "long_running"/);
  });

  test('asks_first: questions with keys of their own, for a long_running tool, said in every language when wrong', () => {
    const ask = { key: 'title', question: 'Which title?', choices: ['Q3'] };
    assert.deepEqual(validateManifest(valid({ long_running: 'optional', asks_first: [ask] })), []);
    const alone = oneError(valid({ asks_first: [ask] }));
    assert.equal(alone.path, 'asks_first');
    assert.match(alone.message, /set long_running too/);
    assert.match(renderPhrase(alone.text!, 'zh') ?? '', /long_running/);
    const twice = oneError(valid({ long_running: 'required', asks_first: [ask, { ...ask }] }));
    assert.equal(twice.path, 'asks_first[1]');
    assert.match(twice.message, /the key title is taken/);
    const bad = oneError(valid({ long_running: 'required', asks_first: [{ key: 'x', question: '' }] }));
    assert.match(bad.message, /^asks_first\[0\] is wrong: .*context\.ask\(\) takes a question/);
    assert.match(renderPhrase(bad.text!, 'ja') ?? '', /^asks_first\[0\] が正しくありません/);
    assert.equal(
      oneError(valid({ long_running: 'required', asks_first: [{ question: 'No key?' }] })).path,
      'asks_first[0]',
    );
    assert.equal(oneError(valid({ long_running: 'required', asks_first: [] })).path, 'asks_first');
  });

  test('an unknown manifest field is a warning, with "did you mean" for a typo', () => {
    const [timeout] = warnings(valid({ timeout: 100 }));
    assert.equal(timeout?.path, 'timeout');
    assert.match(timeout?.message ?? '', /unknown field "timeout" \(did you mean "timeoutMs"\?\); it is ignored/);
    assert.deepEqual(errors(valid({ timeout: 100 })), []);
    assert.match(warnings(valid({ example: EXAMPLES }))[0]?.message ?? '', /did you mean "examples"/);
  });

  test('reports every problem, not just the first', () => {
    const problems = validateManifest({
      name: 'bad name',
      description: '',
      parameters: { a: { type: 'nope' } },
      timeoutMs: -1,
    });
    assert.deepEqual(
      problems.map((problem) => `${problem.severity} ${problem.path}`),
      ['error name', 'error description', 'error parameters.a.type', 'warning examples', 'error timeoutMs'],
    );
  });

  test('a wrong parameter type does not stop the check of the rest of its spec', () => {
    const problems = errors(
      valid({ parameters: { a: { type: 'strng', required: 'yes', enum: [], items: 3, propertes: {} } } }),
    );
    assert.deepEqual(
      problems.map((problem) => problem.path),
      [
        'parameters.a.propertes',
        'parameters.a.type',
        'parameters.a.required',
        'parameters.a.enum',
        'parameters.a.items',
      ],
    );
    assert.match(problems[1]!.message, /type "strng" is not one of .* \(did you mean "string"\?\)/);
  });

  test('a list or object default must fit its own parameter, or every call that leaves it out fails', () => {
    const problems = errors(
      valid({
        parameters: {
          where: { type: 'object', properties: { lat: { type: 'number', required: true } }, default: {} },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['c'] },
          extra: { type: 'object', properties: { x: 'x' }, default: { y: 1 } },
          nested: {
            type: 'object',
            properties: { inner: { type: 'array', items: { type: 'integer' }, default: [1.5] } },
          },
          fine: { type: 'object', properties: { lat: { type: 'number', required: true } }, default: { lat: 1 } },
          free: { type: 'object', default: { anything: [1, 'a'] } },
        },
      }),
    );
    assert.deepEqual(
      problems.map((problem) => [problem.path, /\((.*)\)/.exec(problem.message)?.[1]]),
      [
        ['parameters.where.default', 'missing required field "lat"'],
        ['parameters.tags.default', 'item 0 must be one of "a", "b"'],
        ['parameters.extra.default', 'unknown field "y"'],
        ['parameters.nested.properties.inner.default', 'item 0 must be integer'],
      ],
    );
    assert.match(
      problems[0]!.message,
      /so every call that leaves it out would be rejected; fix the default or the spec$/,
    );
  });

  test('names every JavaScript object has cannot name a tool or a parameter, at any depth', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      const tool = oneError(valid({ name }));
      assert.equal(tool.path, 'name');
      assert.match(
        tool.message,
        new RegExp(`name "${name}" is a property every JavaScript object has.*choose another name`),
      );
      // JSON.parse makes "__proto__" an own key, as a manifest built from data would have it.
      const parameters = JSON.parse(`{"${name}": "x", "where": {"type": "object", "properties": {"${name}": "y"}}}`);
      assert.deepEqual(
        errors(valid({ parameters })).map((problem) => problem.path),
        [`parameters.${name}`, `parameters.where.properties.${name}`],
        name,
      );
      assert.match(
        errors(valid({ parameters }))[0]!.message,
        /is never missing and the call cannot leave it out: rename it/,
      );
    }
    // A setting of `tools:` cannot be a tool's section too.
    for (const name of ['enabled', 'dirs', 'timeout_ms', 'isolation'])
      assert.match(
        oneError(valid({ name })).message,
        new RegExp(`name "${name}" is also a setting \\(tools\\.${name}\\)`),
      );
    // Not an internal of plain objects: works as a parameter and a tool name.
    assert.deepEqual(errors(valid({ name: 'prototype', parameters: { prototype: 'p', proto: 'q' } })), []);
  });
});

describe('suggest', () => {
  test('suggests a word one or two edits away, case-insensitively', () => {
    assert.equal(suggest('wether', ['clock', 'weather']), ' (did you mean "weather"?)');
    assert.equal(suggest('WEATHER', ['weather']), ' (did you mean "weather"?)');
    assert.equal(suggest('requried', ['required']), ' (did you mean "required"?)');
    assert.equal(suggest('xyz', ['weather']), '');
    // Short words need a closer match: "ab" is not "a typo of" "cd".
    assert.equal(suggest('ab', ['cd']), '');
  });
});

test('a manifest too large to send with every request is an error that says how large and what to shorten', () => {
  const manifest = { name: 'huge', description: 'x'.repeat(40_000), examples: ['use huge', 'please run huge'] };
  const problems = validateManifest(manifest).filter((problem) => problem.severity === 'error');
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(
    problems[0]!.message,
    /^the manifest is 40,\d{3} characters as JSON, more than the 32,000 a tool may have/,
  );
});
