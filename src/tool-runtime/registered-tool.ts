import type { AppConfig } from '../tools/app-config.ts';
import { createParamsChecker, type ParamsChecker } from './check-params.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import type { Dialect } from '../schema/dialect.ts';
import type { SchemaNode } from '../schema/schema-node.ts';
import { givenSchema, parametersSchema, type JsonSchema } from './parameter-schema.ts';
import { schemaParameters } from './schema-parameters.ts';
import { inlineRefs } from '../schema/inline-refs.ts';
import { createToolLogger, type ToolContext, type ToolLogger } from '../tools/tool-context.ts';
import type { Isolation } from '../tools/app-config.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';

/** Runs a call with parameters already checked: in this thread, or in the tool's worker. */
export type ToolRunner = (params: Record<string, unknown>, context: ToolContext) => unknown;

/** An available tool in the registry, with the schema its arguments are checked against. */
export interface RegisteredTool {
  readonly name: string;
  readonly file: string;
  readonly manifest: ToolManifest;
  /** The app config the tool was loaded with; its own section is `context.config`. */
  readonly config: AppConfig;
  /** True when calls run in a child process or worker thread; false for in-process (trusted) tools. */
  readonly isolated: boolean;
  /** Where its calls run. */
  readonly isolation: Isolation;
  /** The parameters' JSON Schema (English descriptions), as models are given it. */
  readonly schema: JsonSchema;
  /** @internal True when the schema was given whole (an MCP server's), not compiled from the manifest: it is the same in every language. */
  readonly schemaGiven?: boolean;
  /** @internal The parameters' schema as a provider's dialect takes it (see compileSchema); compiled once per dialect. */
  schemaFor(dialect: Dialect): SchemaNode;
  /** @internal Validates and coerces arguments; compiled on first use so that loading stays fast. */
  checkParams: ParamsChecker;
  /** The logger its calls get unless the caller passes one. */
  readonly logger: ToolLogger;
  /** @internal Runs a checked call; callers go through ToolRegistry.execute, which checks and limits it. */
  run: ToolRunner;
}

export interface ToolEntry {
  name: string;
  file: string;
  manifest: ToolManifest;
}

/**
 * A tool ready to run. Its arguments' schema is compiled from the manifest's parameters, unless
 * `schema` gives it whole (an MCP server's tool, whose JSON Schema is kept as the server wrote it).
 */
export function registerTool(
  entry: ToolEntry,
  config: AppConfig,
  run: ToolRunner,
  isolation: Isolation,
  given?: JsonSchema,
): RegisteredTool {
  // A manifest's full JSON Schema (inputSchema) is given whole too; its parameters, summarized from it, are what is shown.
  const written = given === undefined ? givenSchema(entry.manifest) : undefined;
  const manifest: ToolManifest =
    written !== undefined && entry.manifest.parameters === undefined
      ? { ...entry.manifest, parameters: schemaParameters(inlineRefs(written)) }
      : entry.manifest;
  // Built on first use: listing a thousand tools needs none of it.
  let schema: JsonSchema | undefined = given;
  const schemaOf = () => (schema ??= parametersSchema(entry.manifest));
  let checker: ParamsChecker | undefined;
  let logger: ToolLogger | undefined;
  const dialects = new Map<Dialect, SchemaNode>();
  return {
    name: entry.name,
    file: entry.file,
    manifest,
    config,
    isolated: isolation !== 'none',
    isolation,
    get schema() {
      return schemaOf();
    },
    ...(given === undefined ? {} : { schemaGiven: true }),
    schemaFor: (dialect) => {
      let compiled = dialects.get(dialect);
      if (compiled === undefined) dialects.set(dialect, (compiled = compileSchema(schemaOf(), dialect)));
      return compiled;
    },
    get logger() {
      return (logger ??= createToolLogger(entry.name));
    },
    checkParams: (params) =>
      (checker ??= createParamsChecker(manifest, schemaOf(), { madeHere: given === undefined }))(params),
    run,
  };
}
