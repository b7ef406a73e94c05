// Test support for the golden test: checks one catalog of real tool schemas in every dialect and
// counts what it saw.
import { Ajv, type ValidateFunction } from 'ajv';
import { isDeepStrictEqual } from 'node:util';
import { checkDialect } from '../check-dialect.ts';
import { compileSchema } from '../compile-schema.ts';
import { DIALECTS, valueEncoding, type Dialect } from '../dialect.ts';
import { normalizeArguments } from '../normalize-arguments.ts';
import { normalizeSchema } from '../normalize-schema.ts';
import type { SchemaNode } from '../schema-node.ts';
import { encodeArguments, sampleArguments } from './sample-arguments.ts';
import { validate } from './schema-validator.ts';

export interface CatalogTool {
  name: string;
  parameters: unknown;
}

export interface CatalogReport {
  tools: number;
  withParameters: number;
  samples: number;
  roundTrips: number;
  jsonText: Record<'openai-strict' | 'gemini', number>;
  enumText: number;
  ajvTools: number;
  ajvSchemas: number;
  failures: string[];
}

// Meta-schema checks for every schema; full strict-mode compiles (slow: milliseconds apiece) for a sample.
const meta = new Ajv({ strict: false, validateFormats: false });
const strictAjv = new Ajv({ strict: true, allowUnionTypes: true, validateFormats: false });

/** `crossCheck` says, from a tool's features, whether to also compile it with Ajv and compare verdicts. */
export function checkCatalog(
  tools: CatalogTool[],
  crossCheck: (features: Set<string>, index: number) => boolean,
): CatalogReport {
  const report: CatalogReport = {
    tools: 0,
    withParameters: 0,
    samples: 0,
    roundTrips: 0,
    jsonText: { 'openai-strict': 0, gemini: 0 },
    enumText: 0,
    ajvTools: 0,
    ajvSchemas: 0,
    failures: [],
  };
  tools.forEach((tool, index) => {
    const fail = (why: string) => report.failures.push(`${tool.name}: ${why}`);
    report.tools++;
    if (tool.parameters !== null && tool.parameters !== undefined) report.withParameters++;
    const original = normalizeSchema(tool.parameters);
    if (!isDeepStrictEqual(normalizeSchema(original), original)) fail('normalizeSchema is not idempotent');
    const compiled = Object.fromEntries(
      DIALECTS.map((dialect) => [dialect, compileSchema(tool.parameters, dialect)]),
    ) as Record<Dialect, SchemaNode>;
    const seen = new Set<SchemaNode>();
    for (const dialect of DIALECTS) {
      for (const problem of checkDialect(compiled[dialect], dialect)) fail(`${dialect}: ${problem}`);
      // An adapter may compile what it is given: compiling a compiled schema again changes nothing.
      if (!isDeepStrictEqual(asJson(compileSchema(compiled[dialect], dialect)), asJson(compiled[dialect])))
        fail(`${dialect}: compiling twice changes the schema`);
      // json and anthropic share one result.
      if (!seen.has(compiled[dialect]) && !meta.validateSchema(compiled[dialect]))
        fail(`${dialect}: not valid JSON Schema: ${meta.errorsText(meta.errors)}`);
      seen.add(compiled[dialect]);
    }
    const features = new Set<string>();
    countNodes(original, (node) => {
      for (const dialect of ['openai-strict', 'gemini'] as const) {
        const encoding = valueEncoding(node, dialect);
        features.add(`${dialect}:${encoding}`);
        if (encoding === 'json-text') report.jsonText[dialect]++;
        if (encoding === 'enum-text') report.enumText++;
      }
    });
    countNodes(
      original,
      (node) => {
        const type = Array.isArray(node.type) ? node.type.join('|') : String(node.type);
        for (const key in node) features.add(`${key}:${type}`);
      },
      true,
    );

    const samples = [sampleArguments(original, false), sampleArguments(original, true)].filter(
      (sample, i, all) => i === 0 || !isDeepStrictEqual(sample, all[0]),
    );
    const probes = new Map<SchemaNode, unknown[]>([
      [original, []],
      ...DIALECTS.map((dialect): [SchemaNode, unknown[]] => [compiled[dialect], []]),
    ]);
    for (const sample of samples) {
      report.samples++;
      const invalid = validate(sample, original);
      if (invalid.length > 0) {
        fail(`sample ${JSON.stringify(sample)} does not fit the original: ${invalid.join('; ')}`);
        continue;
      }
      probes.get(original)!.push(sample);
      for (const dialect of DIALECTS) {
        const sent = encodeArguments(sample, original, dialect);
        probes.get(compiled[dialect])!.push(sent);
        const errors = validate(sent, compiled[dialect]);
        if (errors.length > 0)
          fail(`${dialect}: ${JSON.stringify(sent)} does not fit the compiled schema: ${errors.join('; ')}`);
        const back = normalizeArguments(sent, tool.parameters, dialect);
        if (!isDeepStrictEqual(back, sample))
          fail(`${dialect}: ${JSON.stringify(sample)} came back as ${JSON.stringify(back)}`);
        else report.roundTrips++;
      }
    }
    if (crossCheck(features, index)) {
      report.ajvTools++;
      report.ajvSchemas += crossCheckAjv(probes, fail);
    }
  });
  return report;
}

/** Compiles each distinct schema with Ajv in strict mode and checks it agrees with the small validator on the probes and on broken copies of them. */
function crossCheckAjv(probes: Map<SchemaNode, unknown[]>, fail: (why: string) => void): number {
  const done = new Set<string>();
  for (const [schema, values] of probes) {
    const key = JSON.stringify(schema);
    if (done.has(key)) continue;
    done.add(key);
    let validateWithAjv: ValidateFunction;
    try {
      validateWithAjv = strictAjv.compile(structuredClone(schema));
    } catch (error) {
      fail(`Ajv (strict mode) rejects ${key}: ${(error as Error).message}`);
      continue;
    }
    for (const value of values.flatMap((value) => [value, ...broken(value as Record<string, unknown>, schema)])) {
      const ours = validate(value, schema).length === 0;
      if (validateWithAjv(structuredClone(value)) !== ours)
        fail(
          `the test validator says ${ours ? 'valid' : 'invalid'} but Ajv does not, for ${JSON.stringify(value)} against ${key}`,
        );
    }
  }
  return done.size;
}

/** Copies of `value` with a required field missing, a field of the wrong type and an unknown field. */
function broken(value: Record<string, unknown>, schema: SchemaNode): unknown[] {
  const out: unknown[] = [{ ...value, unknown_field: 1 }];
  const [required] = schema.required ?? [];
  if (required !== undefined) {
    const { [required]: _gone, ...rest } = value;
    out.push(rest);
  }
  for (const name of Object.keys(value).slice(0, 2))
    out.push({ ...value, [name]: typeof value[name] === 'string' ? 12.5 : 'text' });
  return out;
}

/** Calls `visit` on every node below the top (and the top too with `top`). */
function countNodes(node: SchemaNode, visit: (node: SchemaNode) => void, top = false): void {
  if (top) visit(node);
  const children = [
    ...Object.values(node.properties ?? {}),
    ...Object.values(node.patternProperties ?? {}),
    ...(node.anyOf ?? []),
  ];
  if (node.items !== undefined) children.push(node.items);
  if (typeof node.additionalProperties === 'object') children.push(node.additionalProperties);
  for (const child of children) countNodes(child, visit, true);
}

/** What goes on the wire (keys whose value is undefined dropped). */
function asJson(schema: SchemaNode): unknown {
  return JSON.parse(JSON.stringify(schema));
}
