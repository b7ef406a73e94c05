// The page's own logic that needs no browser, run in Node from the very files the page loads:
// the three message catalogs, the parameter checks of the run form, and the SSE reader.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LANGUAGES as RIVERSE_LANGUAGES } from '../../core/language.ts';
import { STATIC_DIR } from './static-files.ts';

type Catalog = Record<string, string>;
type FieldResult = { value?: unknown; omit?: true; error?: string; vars?: Record<string, unknown> };

// Plain JavaScript modules for the browser: imported by a path tsc does not follow.
const load = async <T>(name: string): Promise<T> => (await import(join(STATIC_DIR, name))) as T;
const { MESSAGES, LANGUAGES } = await load<{ MESSAGES: Record<string, Catalog>; LANGUAGES: string[] }>('messages.js');
const { readField, readParams, fieldKind } = await load<{
  readField: (schema: object, raw: unknown, required: boolean) => FieldResult;
  readParams: (
    schema: object,
    raws: Record<string, unknown>,
  ) => { params?: Record<string, unknown>; errors?: Record<string, FieldResult> };
  fieldKind: (schema: object) => string;
}>('schema-values.js');
const { readEvents } = await load<{
  readEvents: (body: ReadableStream<Uint8Array>, onEvent: (type: string, data: unknown) => void) => Promise<void>;
}>('sse.js');

const { pickLanguage } = await load<{ pickLanguage: (preferred: string[]) => string }>('i18n.js');

type Piece = { type: string; text: string; lang?: string };
const { replyBlocks, inlinePieces } = await load<{
  replyBlocks: (text: string) => Piece[];
  inlinePieces: (text: string) => Piece[];
}>('reply-text.js');

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the message catalogs', () => {
  it('have every key in en, zh and ja, with the same placeholders, and no empty text', () => {
    assert.deepEqual(LANGUAGES, [...RIVERSE_LANGUAGES], 'the dashboard speaks the languages Riverse speaks');
    const keys = Object.keys(MESSAGES.en!).sort();
    for (const language of LANGUAGES) {
      const catalog = MESSAGES[language]!;
      assert.deepEqual(Object.keys(catalog).sort(), keys, `${language}: the same keys as en`);
      for (const key of keys) {
        assert.notEqual(catalog[key]!.trim(), '', `${language}.${key} is empty`);
        assert.deepEqual(
          placeholders(catalog[key]!),
          placeholders(MESSAGES.en![key]!),
          `${language}.${key}: placeholders`,
        );
      }
    }
  });

  it('hold every key the page asks for', async () => {
    const used = new Set<string>();
    for (const name of await readdir(STATIC_DIR)) {
      if (!/\.(js|html)$/.test(name) || name === 'messages.js') continue;
      const text = await readFile(join(STATIC_DIR, name), 'utf8');
      const patterns = [
        /\bi18n(?:Aria|Placeholder|Title)?: '(\w+)'/g,
        /data-i18n(?:-aria-label)?="(\w+)"/g,
        /setText\([^,]+, '(\w+)'/g,
        /\bt\('(\w+)'/g,
        /\b(?:note|say)\('(\w+)'/g,
        /error: '(\w+)'/g,
      ];
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) used.add(match[1]!);
      // Keys chosen by a condition.
      for (const match of text.matchAll(/(?:i18n\w*: |setText\(\w+, |(?:note|say)\()[^,?]*\? '(\w+)' : '(\w+)'/g))
        used.add(match[1]!).add(match[2]!);
    }
    assert.ok(used.size > 80, `found ${used.size} keys`);
    assert.deepEqual(
      [...used].filter((key) => !(key in MESSAGES.en!)),
      [],
    );
  });
});

describe('the page language', () => {
  it('is the first of the browser languages that we speak, else English', () => {
    assert.equal(pickLanguage(['ja-JP', 'en-US']), 'ja');
    assert.equal(pickLanguage(['fr-FR', 'zh-TW', 'en']), 'zh');
    assert.equal(pickLanguage(['ZH']), 'zh');
    assert.equal(pickLanguage(['de', 'fr']), 'en');
    assert.equal(pickLanguage([]), 'en');
  });
});

describe('the run form checks', () => {
  it('gives each kind of parameter its input', () => {
    assert.equal(fieldKind({ type: 'string', enum: ['a', 'b'] }), 'enum');
    assert.equal(fieldKind({ type: 'boolean' }), 'boolean');
    assert.equal(fieldKind({ type: 'integer' }), 'integer');
    assert.equal(fieldKind({ type: ['number', 'null'] }), 'number');
    assert.equal(fieldKind({ type: 'string' }), 'string');
    assert.equal(fieldKind({ type: 'object', properties: {} }), 'json');
    assert.equal(fieldKind({ type: 'array', items: { type: 'string' } }), 'json');
    assert.equal(fieldKind({}), 'json');
    assert.equal(fieldKind({ type: 'array', items: { type: 'string', enum: ['mon', 'tue'] } }), 'enum-array');
  });

  it('reads a list of choices from the checked boxes, in the schema order', () => {
    const days = { type: 'array', items: { type: 'string', enum: ['mon', 'tue', 'wed'] } };
    assert.deepEqual(readField(days, [2, 0], false), { value: ['mon', 'wed'] });
    assert.deepEqual(readField(days, [], false), { omit: true });
    assert.deepEqual(readField(days, [], true), { value: [] });
    assert.deepEqual(readField({ ...days, default: ['tue'] }, [], false), { value: [] }, 'the default unchecked');
    assert.deepEqual(readField({ ...days, minItems: 2 }, [1], false), {
      error: 'fieldChooseAtLeast',
      vars: { min: 2 },
    });
    assert.deepEqual(readField({ ...days, maxItems: 1 }, [0, 1], true), {
      error: 'fieldChooseAtMost',
      vars: { max: 1 },
    });
  });

  it('reads values as their schema types them, and leaves out optional fields left empty', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        unit: { type: 'string', enum: ['c', 'f'] },
        hourly: { type: 'boolean' },
        tags: { type: 'array' },
        note: { type: 'string' },
      },
      required: ['city', 'days'],
    };
    assert.deepEqual(
      readParams(schema, { city: 'Oslo', days: '3', unit: '1', hourly: true, tags: '["a"]', note: '' }),
      { params: { city: 'Oslo', days: 3, unit: 'f', hourly: true, tags: ['a'] } },
    );
    assert.deepEqual(readParams(schema, { city: 'Oslo', days: '3', unit: '', hourly: false, tags: '' }), {
      params: { city: 'Oslo', days: 3 },
    });
  });

  it('names what is wrong with each field before anything is sent', () => {
    assert.equal(readField({ type: 'string' }, '', true).error, 'fieldRequired');
    assert.equal(readField({ type: 'integer' }, '2.5', true).error, 'fieldNotInteger');
    assert.equal(readField({ type: 'number' }, 'abc', true).error, 'fieldNotNumber');
    assert.deepEqual(readField({ type: 'integer', minimum: 1 }, '0', true), {
      error: 'fieldTooSmall',
      vars: { min: 1 },
    });
    assert.deepEqual(readField({ type: 'number', exclusiveMaximum: 10 }, '10', true), {
      error: 'fieldBelow',
      vars: { max: 10 },
    });
    assert.deepEqual(readField({ type: 'string', maxLength: 3 }, 'abcd', true), {
      error: 'fieldTooLong',
      vars: { max: 3 },
    });
    assert.deepEqual(readField({ type: 'string', pattern: '^[a-z]+$' }, 'Oslo', true), {
      error: 'fieldPattern',
      vars: { pattern: '^[a-z]+$' },
    });
    assert.equal(readField({ type: 'object' }, '{oops', true).error, 'fieldNotJson');
    assert.deepEqual(readField({ type: 'object' }, '[1]', true), { error: 'fieldWrongType', vars: { type: 'object' } });
    assert.deepEqual(readField({ type: 'array' }, '{}', false), { error: 'fieldWrongType', vars: { type: 'array' } });
    assert.equal(readField({ enum: ['a'] }, '5', true).error, 'fieldChoose');
    // An optional boolean defaulting to true is sent as false when unticked; others are left out.
    assert.deepEqual(readField({ type: 'boolean', default: true }, false, false), { value: false });
    assert.deepEqual(readField({ type: 'boolean' }, false, false), { omit: true });
    assert.deepEqual(readField({ type: 'boolean' }, false, true), { value: false });
    // Enum values keep their JSON type.
    assert.deepEqual(readField({ enum: [1, 2, null] }, '2', true), { value: null });
  });
});

describe('a reply as shown', () => {
  it('has fenced code as code blocks, a fence still open running to the end', () => {
    assert.deepEqual(replyBlocks('Run this:\n```sh\nnpm start\n```\nThen open it.'), [
      { type: 'text', text: 'Run this:' },
      { type: 'code', text: 'npm start', lang: 'sh' },
      { type: 'text', text: 'Then open it.' },
    ]);
    assert.deepEqual(replyBlocks('```js\nconst a = 1;'), [{ type: 'code', text: 'const a = 1;', lang: 'js' }]);
    assert.deepEqual(replyBlocks('plain\ntwo lines'), [{ type: 'text', text: 'plain\ntwo lines' }]);
  });

  it('has inline code, bold and web links; anything else, markup included, is text', () => {
    assert.deepEqual(inlinePieces('Use `tools list` — **now**: see https://example.com/a?b=1.'), [
      { type: 'text', text: 'Use ' },
      { type: 'code', text: 'tools list' },
      { type: 'text', text: ' — ' },
      { type: 'strong', text: 'now' },
      { type: 'text', text: ': see ' },
      { type: 'link', text: 'https://example.com/a?b=1' },
      { type: 'text', text: '.' },
    ]);
    assert.deepEqual(inlinePieces('<img src=x onerror=alert(1)> javascript:alert(1)'), [
      { type: 'text', text: '<img src=x onerror=alert(1)> javascript:alert(1)' },
    ]);
  });
});

describe('the SSE reader', () => {
  const body = (pieces: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    });

  it('reads events split anywhere, JSON data parsed, comments skipped, any line ending; an event cut off is dropped', async () => {
    const events: [string, unknown][] = [];
    await readEvents(
      body([
        ': keep-alive\n\nevent: text-del',
        'ta\ndata: {"text":"hé',
        'llo"}\n\n',
        'event: done\r\ndata: {"a":1}\r\n\r\n',
        'data: line one\ndata: line two\n\n',
        'event: last\ndata: {"b":2}',
      ]),
      (type, data) => events.push([type, data]),
    );
    assert.deepEqual(events, [
      ['text-delta', { text: 'héllo' }],
      ['done', { a: 1 }],
      ['message', 'line one\nline two'],
    ]);
  });

  it('refuses a line longer than its cap instead of buffering it', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    await assert.rejects(
      readEvents(body(['data: ', ...Array.from({ length: 5 }, () => huge)]), () => {}),
      /longer than/,
    );
  });
});
