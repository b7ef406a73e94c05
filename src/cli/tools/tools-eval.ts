import { replayThroughModel, type ModelReplay } from '../../assistant/replay-through-model.ts';
import { replayExamples } from '../../routing/replay-examples.ts';
import { routeDocOf } from '../../routing/route-doc.ts';
import { ToolRouter } from '../../routing/tool-router.ts';
import { createAssistant } from '../create-assistant.ts';
import { printJson } from '../format.ts';
import { loadTools, type GlobalOptions } from '../load-tools.ts';
import { ROUTE_TEXT } from '../route-text.ts';

/** Where a tool must rank for its example to pass: within what a model is shown first of a large catalog. */
export const EVAL_K = 3;

/**
 * `riverse tools eval`: every available tool's examples replayed through the router and, with
 * `--model`, through the configured model; the ones that do not reach their tool are listed with
 * what they reached. Exit 1 on a miss, for CI.
 */
export async function toolsEval(
  options: GlobalOptions & { json?: boolean; k?: number; model?: boolean },
): Promise<number> {
  const text = ROUTE_TEXT[options.language];
  let model: ModelReplay | undefined;
  let registry;
  if (options.model === true) {
    const { assistant, tools, config } = await createAssistant({ ...options, persist: false, watch: false });
    try {
      registry = tools.current;
      model = await replayThroughModel(assistant.model, registry, {
        router: new ToolRouter(),
        settings: config.config.routing ?? null,
      });
    } finally {
      await tools.close();
    }
  } else registry = (await loadTools(options)).registry;
  const result = replayExamples(
    registry.tools().map((tool) => routeDocOf(tool.manifest)),
    options.k ?? EVAL_K,
  );
  const misses = result.misses.length + (model?.misses.length ?? 0);
  if (options.json === true) printJson(model === undefined ? result : { ...result, model });
  else if (result.examples === 0) console.log(text.evalNoExamples);
  else {
    for (const miss of result.misses) console.log(text.evalMiss(miss.tool, miss.example, miss.reached));
    if (result.misses.length > 0) console.log('');
    console.log(text.evalSummary(result.examples, result.tools, result.misses.length, result.k));
    if (model !== undefined) {
      console.log('');
      for (const miss of model.misses)
        console.log(text.evalModelMiss(miss.tool, miss.example, miss.reached, miss.error));
      if (model.misses.length > 0) console.log('');
      console.log(text.evalModelSummary(model.model, model.examples, model.misses.length));
    }
  }
  return misses === 0 ? 0 : 1;
}
