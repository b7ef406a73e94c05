import { replayExamples } from '../routing/replay-examples.ts';
import { routeDocOf } from '../routing/route-doc.ts';
import { printJson } from './format.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';
import { ROUTE_TEXT } from './route-text.ts';

/** Where a tool must rank for its example to pass: within what a model is shown first of a large catalog. */
export const EVAL_K = 3;

/**
 * `riverse tools eval`: every available tool's examples replayed through the router; the ones
 * that do not reach their tool are listed with what they reached. Exit 1 on a miss, for CI.
 */
export async function toolsEval(options: GlobalOptions & { json?: boolean; k?: number }): Promise<number> {
  const { registry } = await loadTools(options);
  const text = ROUTE_TEXT[options.language];
  const docs = registry.tools().map((tool) => routeDocOf(tool.manifest));
  const result = replayExamples(docs, options.k ?? EVAL_K);
  if (options.json === true) printJson(result);
  else if (result.examples === 0) console.log(text.evalNoExamples);
  else {
    for (const miss of result.misses) console.log(text.evalMiss(miss.tool, miss.example, miss.reached));
    if (result.misses.length > 0) console.log('');
    console.log(text.evalSummary(result.examples, result.tools, result.misses.length, result.k));
  }
  return result.misses.length === 0 ? 0 : 1;
}
