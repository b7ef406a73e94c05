import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parametersSchema, toSpec } from './parameter-schema.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import { describeParameters, toolSignature } from './tool-signature.ts';

const manifest: ToolManifest = {
  name: 'weather',
  description: 'Weather',
  examples: ['a', 'b'],
  parameters: {
    city: { type: 'string', required: true, description: { en: 'City name', zh: '城市名', ja: '都市名' } },
    days: { type: 'integer', default: 1, description: { en: 'Days', zh: '天数' } },
    units: { enum: ['metric', 'imperial'], description: 'Unit system' },
    note: 'Free text',
    tags: { type: 'array', items: 'a tag' },
    levels: { type: 'array', items: { type: 'integer', enum: [1, 2], description: { en: 'Level', zh: '级别' } } },
    where: {
      type: 'object',
      description: 'Position',
      properties: {
        lat: { type: 'number', required: true, description: { en: 'Latitude', zh: '纬度' } },
        label: 'Label',
      },
    },
    extra: { type: 'object' },
  },
};

describe('parametersSchema', () => {
  test('compiles the parameters to a closed JSON Schema object', () => {
    assert.deepEqual(parametersSchema(manifest), {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', description: 'Days', default: 1 },
        units: { type: 'string', description: 'Unit system', enum: ['metric', 'imperial'] },
        note: { type: 'string', description: 'Free text' },
        tags: { type: 'array', items: { type: 'string', description: 'a tag' } },
        levels: { type: 'array', items: { type: 'integer', description: 'Level', enum: [1, 2] } },
        where: {
          type: 'object',
          description: 'Position',
          properties: {
            lat: { type: 'number', description: 'Latitude' },
            label: { type: 'string', description: 'Label' },
          },
          required: ['lat'],
          additionalProperties: false,
        },
        extra: { type: 'object' },
      },
      required: ['city'],
      additionalProperties: false,
    });
  });

  test('descriptions are localized, falling back to English', () => {
    const zh = parametersSchema(manifest, 'zh');
    assert.equal(zh.properties?.city?.description, '城市名');
    assert.equal(zh.properties?.days?.description, '天数');
    assert.equal(zh.properties?.units?.description, 'Unit system');
    assert.equal(zh.properties?.levels?.items?.description, '级别');
    assert.equal(zh.properties?.where?.properties?.lat?.description, '纬度');
    const ja = parametersSchema(manifest, 'ja');
    assert.equal(ja.properties?.city?.description, '都市名');
    assert.equal(ja.properties?.days?.description, 'Days');
  });

  test('a nested object with fields is closed; one without is free-form', () => {
    const schema = parametersSchema(manifest);
    assert.equal(schema.properties?.where?.additionalProperties, false);
    assert.equal('additionalProperties' in (schema.properties?.extra ?? {}), false);
  });

  test('no parameters: an empty closed object', () => {
    assert.deepEqual(parametersSchema({ name: 'x', description: 'x' }), {
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  test('toSpec turns the short form into a spec', () => {
    assert.deepEqual(toSpec('City'), { description: 'City' });
    const spec = { type: 'integer' as const };
    assert.equal(toSpec(spec), spec);
  });
});

describe('toolSignature', () => {
  test('one readable line: optional marks, defaults, enums, arrays and nested objects', () => {
    assert.equal(
      toolSignature(manifest),
      'weather(city: string, days?: integer = 1, units?: "metric" | "imperial", note?: string, tags?: string[], levels?: (1 | 2)[], where?: { lat: number, label?: string }, extra?: object)',
    );
  });

  test('a tool without parameters', () => {
    assert.equal(toolSignature({ name: 'clock', description: 'Time' }), 'clock()');
  });

  test('an array without items', () => {
    assert.equal(
      toolSignature({ name: 'x', description: 'x', parameters: { list: { type: 'array', required: true } } }),
      'x(list: array)',
    );
  });

  test('describeParameters: one line per parameter, localized', () => {
    const lines = describeParameters(manifest, 'zh').split('\n');
    assert.equal(lines[0], '  city: string — 城市名');
    assert.equal(lines[1], '  days?: integer — 天数');
    assert.equal(lines[3], '  note?: string — Free text');
    assert.equal(lines[7], '  extra?: object');
    assert.equal(describeParameters({ name: 'x', description: 'x' }), '');
  });
});
