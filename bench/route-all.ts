// Benchmark: the tool router over the seven retrieval benchmarks' dev sets (../shared/bench/retrieval,
// or BENCH_RETRIEVAL), each in a fresh `riverse bench route --json` process so that every index is
// built cold, as at start-up; then one catalog of 5,000 tools for the build time at that size.
// Then the k-fold figures (bench/route-folds.ts): the router's weights learned on four fifths of
// the dev requests and measured on the fifth, folds over requests and over tools (issue 26).
// BENCH_BASELINE=<another checkout> runs that checkout's router in the same run, for its speed
// and figures beside these (the machine's load changes from run to run). Prints figures; it is
// not a test. Run with `npm run bench:route` (BENCH_FOLDS=0 leaves the folds out).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteBenchmark } from '../src/routing/route-benchmark.ts';
import { foldReport, formatFoldReport } from './route-folds.ts';

const ROOT = process.env.BENCH_RETRIEVAL ?? fileURLToPath(new URL('../../shared/bench/retrieval/', import.meta.url));
const SETS = ['metatool', 'hammerbench_zh', 'hammerbench_en', 'bfcl_pool', 'seal_tools', 'acebench_zh', 'acebench_en'];
const KS = ['1', '3', '5', '10', '20'];
const MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const BASELINE = process.env.BENCH_BASELINE;

if (!existsSync(join(ROOT, 'metatool', 'tools.jsonl'))) {
  console.error(`No benchmark data in ${ROOT}; set BENCH_RETRIEVAL to the folder that holds metatool/, seal_tools/, …`);
  process.exit(2);
}

function bench(tools: string, queries: string, main = MAIN): RouteBenchmark {
  const out = execFileSync(
    process.execPath,
    [main, 'bench', 'route', '--tools', tools, '--queries', queries, '--k', KS.join(','), '--json', '--lang', 'en'],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  return JSON.parse(out) as RouteBenchmark;
}

const cell = (value: number | undefined) => (value ?? 0).toFixed(3);
const rows: string[][] = [
  [
    'dataset',
    'lang',
    'requests',
    'tools',
    ...KS.map((k) => `hit@${k}`),
    ...KS.map((k) => `rec@${k}`),
    'index_ms',
    'p50_ms',
    'p95_ms',
    'tok@10',
  ],
];
const macro = KS.map(() => 0);
const baselineMacro = KS.map(() => 0);
for (const set of SETS) {
  if (BASELINE !== undefined) {
    const before = bench(
      join(ROOT, set, 'tools.jsonl'),
      join(ROOT, set, 'dev.jsonl'),
      join(BASELINE, 'src/cli/main.ts'),
    );
    for (const [at, k] of KS.entries()) baselineMacro[at]! += (before.recall[k] ?? 0) / SETS.length;
    rows.push([
      `${set} (baseline)`,
      'all',
      String(before.requests),
      String(before.tools),
      ...KS.map((k) => cell(before.hit[k])),
      ...KS.map((k) => cell(before.recall[k])),
      before.index_ms.toFixed(0),
      before.p50_ms.toFixed(2),
      before.p95_ms.toFixed(2),
      `${((100 * (before.tokens.at_k['10'] ?? 0)) / before.tokens.catalog).toFixed(1)}%`,
    ]);
  }
  const result = bench(join(ROOT, set, 'tools.jsonl'), join(ROOT, set, 'dev.jsonl'));
  for (const [at, k] of KS.entries()) macro[at]! += (result.recall[k] ?? 0) / SETS.length;
  const share = `${((100 * (result.tokens.at_k['10'] ?? 0)) / result.tokens.catalog).toFixed(1)}%`;
  rows.push([
    set,
    'all',
    String(result.requests),
    String(result.tools),
    ...KS.map((k) => cell(result.hit[k])),
    ...KS.map((k) => cell(result.recall[k])),
    result.index_ms.toFixed(0),
    result.p50_ms.toFixed(2),
    result.p95_ms.toFixed(2),
    share,
  ]);
  const languages = Object.entries(result.by_lang);
  if (languages.length > 1)
    for (const [language, figures] of languages)
      rows.push([
        '',
        language,
        String(figures.requests),
        '',
        ...KS.map((k) => cell(figures.hit[k])),
        ...KS.map((k) => cell(figures.recall[k])),
        '',
        '',
        '',
        '',
      ]);
}
if (BASELINE !== undefined)
  rows.push(['macro mean (baseline)', '', '', '', ...KS.map(() => ''), ...baselineMacro.map(cell), '', '', '', '']);
rows.push(['macro mean', '', '', '', ...KS.map(() => ''), ...macro.map(cell), '', '', '', '']);
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
console.log(
  rows
    .map((row) =>
      row
        .map((value, column) => (column < 2 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!)))
        .join('  '),
    )
    .join('\n'),
);

// 5,000 tools: Seal-Tools' catalog topped up with ACEBench's, asked Seal-Tools' requests.
const dir = mkdtempSync(join(tmpdir(), 'riverse-route-'));
try {
  const lines = [
    ...readFileSync(join(ROOT, 'seal_tools', 'tools.jsonl'), 'utf8')
      .trim()
      .split('\n'),
    ...readFileSync(join(ROOT, 'acebench_en', 'tools.jsonl'), 'utf8')
      .trim()
      .split('\n'),
  ];
  const seen = new Set<string>();
  const unique = lines.filter((line) => {
    const name = (JSON.parse(line) as { name: string }).name;
    return !seen.has(name) && seen.add(name);
  });
  const tools = join(dir, 'tools.jsonl');
  writeFileSync(tools, unique.slice(0, 5000).join('\n'));
  const line = (label: string, result: RouteBenchmark) =>
    console.log(
      `${label}${result.tools} tools: index ${result.index_ms.toFixed(0)} ms, p50 ${result.p50_ms.toFixed(2)} ms, p95 ${result.p95_ms.toFixed(2)} ms, recall@10 ${cell(result.recall['10'])} (Seal-Tools requests)`,
    );
  console.log('');
  if (BASELINE !== undefined)
    line('baseline: ', bench(tools, join(ROOT, 'seal_tools', 'dev.jsonl'), join(BASELINE, 'src/cli/main.ts')));
  line('', bench(tools, join(ROOT, 'seal_tools', 'dev.jsonl')));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The feedback and sibling weights stay 0: learning them did not raise the fold figures (014).
if (process.env.BENCH_FOLDS !== '0')
  console.log(`\n${formatFoldReport(foldReport(ROOT, SETS, undefined, undefined, ['feedback', 'sibling']))}`);
