// Validators kept on disk as Ajv's standalone code: they check, coerce, fill in defaults and word
// their errors exactly as validators compiled in memory; a process that finds them loads no Ajv;
// a kept file that is broken is compiled anew. Real files, a real child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { SchemaNode } from '../schema/schema-node.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import { checkParamsAgainst, createParamsChecker } from './check-params.ts';
import { keepValidatorsIn } from './kept-validators.ts';
import { parametersSchema } from './parameter-schema.ts';
import { tempDir } from './test-support.ts';

const MANIFEST: ToolManifest = {
  name: 'forecast',
  description: 'Weather forecast for a city',
  parameters: {
    city: { type: 'string', required: true, description: 'City name' },
    days: { type: 'integer', default: 1, description: 'How many days' },
    metric: { type: 'boolean', description: 'Metric units' },
    tags: { type: 'array', items: 'a tag', description: 'Tags' },
    units: { type: 'string', enum: ['metric', 'imperial'], description: 'Unit system' },
    location: {
      type: 'object',
      description: 'Exact position',
      properties: { lat: { type: 'number', required: true }, lon: { type: 'number', required: true } },
    },
  },
};

const CALLS: unknown[] = [
  { city: 'Oslo' },
  { city: 'Oslo', days: '3', metric: 'true', tags: 'rain' },
  { city: 42, days: 'many', units: 'kelvin' },
  { days: 2, wind: true },
  { city: 'Oslo', location: { lat: '59.9' } },
  'not an object',
];

/** What every call gives: through a fresh schema object each time, so that nothing is reused in memory. */
function outcomes(): unknown[] {
  return CALLS.map((call) => {
    const schema = parametersSchema(MANIFEST);
    const usual = createParamsChecker(MANIFEST, structuredClone(schema), { madeHere: true })(structuredClone(call));
    const shown = checkParamsAgainst(MANIFEST, structuredClone(schema) as SchemaNode, structuredClone(call));
    return { usual, shown };
  });
}

test('a kept validator answers every call as one compiled in memory: coerced, defaulted, and the same errors', async (t) => {
  const dir = await tempDir(t);
  t.after(() => keepValidatorsIn(undefined));
  keepValidatorsIn(undefined);
  const inMemory = outcomes();
  keepValidatorsIn(dir);
  const written = outcomes();
  assert.ok(readdirSync(dir).length >= 2, 'the usual and the shown validator were written');
  const read = outcomes();
  assert.deepEqual(written, inMemory);
  assert.deepEqual(read, inMemory);
  assert.deepEqual((inMemory[1] as { usual: unknown }).usual, {
    ok: true,
    params: { city: 'Oslo', days: 3, metric: true, tags: ['rain'] },
  });

  // A kept file that is broken (cut short, tampered with) is compiled again and written anew.
  for (const name of readdirSync(dir)) writeFileSync(join(dir, name), 'module.exports = {');
  assert.deepEqual(outcomes(), inMemory);
  assert.deepEqual(outcomes(), inMemory);
});

test('a process whose validators were kept checks its calls without loading Ajv', async (t) => {
  const dir = await tempDir(t);
  const script = join(dir, 'check.ts');
  const url = (file: string) => JSON.stringify(pathToFileURL(join(import.meta.dirname, file)).href);
  writeFileSync(
    script,
    `import { createRequire } from 'node:module';
const { createParamsChecker } = await import(${url('check-params.ts')});
const { keepValidatorsIn } = await import(${url('kept-validators.ts')});
const { parametersSchema } = await import(${url('parameter-schema.ts')});
keepValidatorsIn(${JSON.stringify(join(dir, 'validators'))});
const manifest = ${JSON.stringify(MANIFEST)};
const check = createParamsChecker(manifest, parametersSchema(manifest), { madeHere: true })({ city: 'Oslo', days: '2' });
const ajv = Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/ajv/dist/core.js'));
console.log(JSON.stringify({ check, ajv }));
`,
  );
  const run = () => {
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout) as { check: unknown; ajv: boolean };
  };
  const first = run();
  const second = run();
  assert.equal(first.ajv, true, 'the first process compiles');
  assert.equal(second.ajv, false, 'the second reads what the first kept');
  assert.deepEqual(second.check, { ok: true, params: { city: 'Oslo', days: 2 } });
  assert.deepEqual(second.check, first.check);
});
