import { readFile } from 'node:fs/promises';
import { estimateTokens } from '../../assistant/trim-history.ts';
import {
  BenchFormatError,
  parseBenchQueries,
  parseBenchTools,
  runRouteBenchmark,
  type BenchTool,
  type RouteBenchmark,
} from '../../routing/route-benchmark.ts';
import type { Language } from '../../core/language.ts';
import { printJson, table } from '../format.ts';
import { ROUTE_TEXT } from '../route-text.ts';
import { UsageError } from '../usage-error.ts';

export interface BenchRouteOptions {
  language: Language;
  tools: string;
  queries: string;
  k?: string;
  json?: boolean;
}

export const DEFAULT_KS = [1, 3, 5, 10, 20];

/** `riverse bench route`: the router over a benchmark's tools and requests, its figures printed. */
export async function benchRoute(options: BenchRouteOptions): Promise<number> {
  const ks = options.k === undefined ? DEFAULT_KS : parseKs(options.k, options.language);
  const [tools, queries] = await Promise.all([
    read(options.tools, parseBenchTools, options.language),
    read(options.queries, parseBenchQueries, options.language),
  ]);
  const result = runRouteBenchmark(tools, queries, ks, definitionTokens);
  if (options.json === true) printJson(result);
  else console.log(formatRouteBenchmark(result, ks, options.language));
  return 0;
}

/** What one tool's definition costs as a model is sent it: name, description with examples, parameters. */
export function definitionTokens(tool: BenchTool): number {
  const description =
    tool.examples.length === 0
      ? tool.description
      : `${tool.description}\nExamples: ${tool.examples.map((example) => JSON.stringify(example)).join('; ')}`;
  return estimateTokens(
    JSON.stringify({ type: 'function', function: { name: tool.name, description, parameters: tool.parameters ?? {} } }),
  );
}

export function parseKs(value: string, language: Language): number[] {
  const ks = value.split(',').map((part) => Number(part.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k <= 0 || k > 1000))
    throw new UsageError(ROUTE_TEXT[language].badK(value));
  return [...new Set(ks)].sort((a, b) => a - b);
}

async function read<T>(file: string, parse: (text: string, file: string) => T, language: Language): Promise<T> {
  const text = ROUTE_TEXT[language];
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(text.unreadable(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message));
  }
  try {
    return parse(content, file);
  } catch (error) {
    if (error instanceof BenchFormatError) throw new UsageError(text.problem(error.where, error.problem));
    throw error;
  }
}

/** The figures as a table: hit and recall at each k, overall and per language, then time and tokens. */
export function formatRouteBenchmark(result: RouteBenchmark, ks: readonly number[], language: Language): string {
  const text = ROUTE_TEXT[language];
  const languages = Object.entries(result.by_lang)
    .map(([name, figures]) => `${name} ${figures.requests}`)
    .join(', ');
  const row = (label: string, values: Record<string, number>) => [
    label,
    ...ks.map((k) => (values[String(k)] ?? 0).toFixed(3)),
  ];
  const rows = [['', ...ks.map((k) => `@${k}`)], row(text.hit, result.hit), row(text.recall, result.recall)];
  if (Object.keys(result.by_lang).length > 1) {
    for (const [name, figures] of Object.entries(result.by_lang))
      rows.push(row(`${text.hit} ${name}`, figures.hit), row(`${text.recall} ${name}`, figures.recall));
  }
  const percent = (tokens: number) => `${((100 * tokens) / Math.max(result.tokens.catalog, 1)).toFixed(1)}%`;
  return [
    text.summary(result.requests, result.tools, languages),
    '',
    table(rows),
    '',
    text.timing(result.index_ms, result.p50_ms, result.p95_ms),
    text.tokens(result.tokens.catalog),
    ...ks.map((k) => text.tokensAt(k, result.tokens.at_k[String(k)] ?? 0, percent(result.tokens.at_k[String(k)] ?? 0))),
  ].join('\n');
}
