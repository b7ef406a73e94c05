import { createParamsChecker, type ParamsChecker } from './check-params.ts';
import type { LoadedTool } from './load-tool-file.ts';
import { parametersSchema, type JsonSchema } from './parameter-schema.ts';
import { createToolLogger, type ToolLogger } from './tool-context.ts';

/** An available tool in the registry, with the schema its arguments are checked against. */
export interface RegisteredTool extends LoadedTool {
  /** The parameters' JSON Schema (English descriptions), as models are given it. */
  readonly schema: JsonSchema;
  /** Validates and coerces arguments; compiled on first use so that loading stays fast. */
  checkParams: ParamsChecker;
  /** The logger its calls get unless the caller passes one. */
  readonly logger: ToolLogger;
}

export function registerTool(loaded: LoadedTool): RegisteredTool {
  const schema = parametersSchema(loaded.manifest);
  let checker: ParamsChecker | undefined;
  return {
    ...loaded,
    schema,
    logger: createToolLogger(loaded.name),
    checkParams: (params) => (checker ??= createParamsChecker(loaded.manifest, schema))(params),
  };
}
