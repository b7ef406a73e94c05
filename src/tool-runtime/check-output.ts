import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';

// A tool's `output` schema, checked against the `structured` value of each successful result
// (decision 027). JSON Schema 2020-12, as MCP's `outputSchema` is; Ajv loads on first use.

type Ajv2020 = InstanceType<typeof import('ajv/dist/2020.js').Ajv2020>;
const require = createRequire(import.meta.url);
let ajv: Ajv2020 | undefined;

function validator(): Ajv2020 {
  if (ajv === undefined) {
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: true });
  }
  return ajv;
}

/** `$schema` names a draft: 2020-12 is what this validator speaks, so it is taken as that; `$id` left out, so that compiling twice is no clash. */
function withoutDraft(schema: object): object {
  const { $schema: _draft, $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** Why `schema` cannot be used as a JSON Schema (Ajv's words); undefined when it compiles. */
export function schemaCompileProblem(schema: object): string | undefined {
  const checked = withoutDraft(schema);
  try {
    validator().compile(checked);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    // Ajv's own cache would keep every schema (and reloaded tool) alive.
    validator().removeSchema(checked);
  }
}

export type OutputCheck = (structured: unknown) => string | undefined;

/** A check of `structured` against `schema`: undefined when it matches, else what does not (paths and Ajv's words). */
export function outputChecker(schema: object): OutputCheck {
  let validate: ValidateFunction | string | undefined;
  return (structured) => {
    if (validate === undefined) {
      try {
        const checked = withoutDraft(schema);
        validate = validator().compile(checked);
        validator().removeSchema(checked);
      } catch (error) {
        validate = `the output schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (typeof validate === 'string') return validate;
    if (validate(structured)) return undefined;
    return describe(validate.errors ?? []);
  };
}

function describe(errors: readonly ErrorObject[]): string {
  const lines = errors
    .slice(0, 5)
    .map((error) => `${error.instancePath === '' ? '(the value)' : error.instancePath} ${error.message ?? 'is wrong'}`);
  return `${lines.join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}`;
}
