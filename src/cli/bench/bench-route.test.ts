import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProject, parseJson, show, type TempProject } from '../cli-test-support.ts';

const TOOLS = [
  {
    name: 'get_weather',
    description: 'Current weather and forecast for a city',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
    examples: ['Will it rain in Paris?'],
  },
  {
    name: 'send_email',
    description: 'Send an email to a recipient',
    parameters: { type: 'dict', properties: { to: { type: 'string', description: 'Address' } } },
    examples: [],
  },
  {
    name: 'book_flight',
    description: 'Book a flight between two airports',
    parameters: null,
    examples: ['Fly me to Osaka'],
  },
];
const QUERIES = [
  { id: 'q1', query: 'what is the forecast for Rome', lang: 'en', gold: ['get_weather'] },
  { id: 'q2', query: 'メールを送って', lang: 'ja', gold: ['send_email'] },
  { id: 'q3', query: 'email Ann and book a flight', lang: 'en', gold: ['send_email', 'book_flight'] },
  { id: 'q4', query: 'zzyzx', lang: 'en', gold: ['book_flight'] },
];
const jsonl = (values: unknown[]) => `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;

describe('riverse bench route', { concurrency: 4 }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'tools.jsonl': jsonl(TOOLS),
      'queries.jsonl': jsonl(QUERIES),
      'bad.jsonl': `${JSON.stringify(QUERIES[0])}\n{"query": "no gold"}\n`,
    });
  });
  after(() => project?.remove());

  test('--json: one object with hit and recall keyed by k, by_lang, index_ms, p50_ms, p95_ms and tokens', async () => {
    const result = await project.run([
      'bench',
      'route',
      '--tools',
      'tools.jsonl',
      '--queries',
      'queries.jsonl',
      '--k',
      '1,3',
      '--json',
    ]);
    assert.equal(result.code, 0, show(result));
    const figures = parseJson(result);
    for (const key of ['hit', 'recall', 'by_lang', 'index_ms', 'p50_ms', 'p95_ms', 'tokens'])
      assert.ok(key in figures, `${key} in ${result.stdout}`);
    assert.deepEqual(Object.keys(figures.hit), ['1', '3']);
    // q1 and q2 hit at 1; q3 finds both its tools within 3 (one at 1); q4 finds nothing.
    assert.equal(figures.hit['3'], 0.75);
    assert.equal(figures.recall['3'], 0.75);
    assert.equal(figures.recall['1'], (1 + 1 + 0.5 + 0) / 4);
    assert.deepEqual(Object.keys(figures.by_lang), ['en', 'ja']);
    assert.equal(figures.by_lang.ja.requests, 1);
    assert.equal(figures.by_lang.ja.hit['1'], 1);
    assert.ok(figures.tokens.catalog > 0);
    assert.ok(
      figures.tokens.at_k['1'] < figures.tokens.at_k['3'] && figures.tokens.at_k['3'] <= figures.tokens.catalog,
      result.stdout,
    );
    assert.ok(figures.p50_ms <= figures.p95_ms);
  });

  test('prints hit@k and recall@k overall and per language, build time, p50 and p95, and tokens against the catalog', async () => {
    const result = await project.run(['bench', 'route', '--tools', 'tools.jsonl', '--queries', 'queries.jsonl']);
    assert.equal(result.code, 0, show(result));
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], '4 requests (en 3, ja 1) against 3 tools');
    assert.deepEqual(lines[2]!.trim().split(/\s+/), ['@1', '@3', '@5', '@10', '@20']);
    for (const label of ['hit', 'recall', 'hit en', 'recall en', 'hit ja', 'recall ja'])
      assert.ok(
        lines.some((line) => line.startsWith(`${label} `)),
        `${label}:\n${result.stdout}`,
      );
    assert.match(result.stdout, /index built in [\d.]+ ms; per request p50 [\d.]+ ms, p95 [\d.]+ ms/);
    assert.match(result.stdout, /top 10: \d+ tokens \([\d.]+% of the catalog\)/);
  });

  test('speaks the language asked for', async () => {
    const result = await project.run([
      'bench',
      'route',
      '--tools',
      'tools.jsonl',
      '--queries',
      'queries.jsonl',
      '--lang',
      'zh',
    ]);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /^4 条请求/);
    assert.match(result.stdout, /召回/);
  });

  test('a bad line, a missing file, a bad --k or a missing option is a usage error saying where and what (exit 2)', async () => {
    const bad = await project.run(['bench', 'route', '--tools', 'tools.jsonl', '--queries', 'bad.jsonl']);
    assert.equal(bad.code, 2, show(bad));
    assert.match(bad.stderr, /bad\.jsonl:2: "gold" is missing/);
    const missing = await project.run(['bench', 'route', '--tools', 'nope.jsonl', '--queries', 'queries.jsonl']);
    assert.equal(missing.code, 2, show(missing));
    assert.match(missing.stderr, /cannot read nope\.jsonl: ENOENT/);
    const k = await project.run([
      'bench',
      'route',
      '--tools',
      'tools.jsonl',
      '--queries',
      'queries.jsonl',
      '--k',
      '5,x',
    ]);
    assert.equal(k.code, 2, show(k));
    assert.match(k.stderr, /--k takes positive whole numbers/);
    const option = await project.run(['bench', 'route', '--tools', 'tools.jsonl']);
    assert.equal(option.code, 2, show(option));
    assert.match(option.stderr, /option '--queries <file>' is required/);
  });
});
