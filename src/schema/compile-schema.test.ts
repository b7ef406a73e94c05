import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkCatalog, type CatalogTool } from './testing/golden-check.ts';

// The tool catalogs of seven public benchmarks (10,919 real schemas), beside the repository.
const BENCH = new URL('../../../shared/bench/retrieval/', import.meta.url);
const datasets = existsSync(BENCH)
  ? readdirSync(BENCH)
      .filter((name) => existsSync(new URL(`${name}/tools.jsonl`, BENCH)))
      .sort()
  : [];

// Compiling with Ajv takes milliseconds a schema, too slow for all of them: every tool is checked
// with the small validator, and Ajv checks the first tool to show each new feature, and every 97th.
const featuresSeen = new Set<string>();
function crossCheck(features: Set<string>, index: number): boolean {
  const fresh = [...features].filter((feature) => !featuresSeen.has(feature));
  for (const feature of fresh) featuresSeen.add(feature);
  return fresh.length > 0 || index % 97 === 0;
}

describe('golden: every benchmark tool schema in every dialect', () => {
  if (datasets.length === 0) {
    test('benchmark tool schemas', (t) =>
      t.skip(`no tool catalogs at ${fileURLToPath(BENCH)} (shared/bench/retrieval beside the repository)`));
    return;
  }
  for (const dataset of datasets) {
    test(dataset, (t) => {
      const started = performance.now();
      const tools = readFileSync(new URL(`${dataset}/tools.jsonl`, BENCH), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as CatalogTool);
      const report = checkCatalog(tools, crossCheck);
      t.diagnostic(
        `${dataset}: ${report.tools} tools (${report.withParameters} with parameters), compiled to 5 dialects, all rules kept; ` +
          `${report.samples} samples, ${report.roundTrips} dialect round trips; JSON-text fields: strict ${report.jsonText['openai-strict']}, gemini ${report.jsonText.gemini}; ` +
          `Gemini enum text ${report.enumText}; Ajv cross-checked ${report.ajvTools} tools (${report.ajvSchemas} schemas); ${Math.round(performance.now() - started)} ms`,
      );
      assert.equal(
        report.failures.length,
        0,
        `${report.failures.length} failures, first ones:\n${report.failures.slice(0, 15).join('\n')}`,
      );
      assert.equal(report.roundTrips, report.samples * 5);
    });
  }
});
