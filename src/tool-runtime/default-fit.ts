import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { specSchema } from './parameter-schema.ts';
import type { ParameterSpec } from '../tools/tool-manifest.ts';

type AjvClass = typeof import('ajv').Ajv;
const require = createRequire(import.meta.url);
let ajv: InstanceType<AjvClass> | undefined;

/**
 * Why a list or object `default` does not fit its own parameter (a field its `properties` require,
 * an item outside its `items` enum…), or undefined when it fits. Such a default would be filled in
 * on every call that leaves the parameter out, and the call then rejected. Checked exactly: no
 * coercion, no defaults of its own. The validator loads on first need, so loading a tool file
 * without such a default does not pay for it.
 */
export function defaultMisfit(spec: ParameterSpec): string | undefined {
  if (ajv === undefined) {
    // Not `new (require('ajv') as …).Ajv()`: tsc 7 drops those parentheses when it emits the package.
    const { Ajv } = require('ajv') as { Ajv: AjvClass };
    ajv = new Ajv({ allErrors: true, strict: false });
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(specSchema(spec));
  } catch {
    return undefined; // a spec the other checks reject already
  }
  const fits = validate(structuredClone(spec.default));
  ajv.removeSchema();
  if (fits) return undefined;
  return (validate.errors ?? []).map(describe).join('; ');
}

function describe(error: ErrorObject): string {
  const segments = error.instancePath.slice(1).replaceAll('/', '.');
  const path = /^\d+$/.test(segments) ? `item ${segments}` : segments;
  const where = path === '' ? '' : ` in ${path}`;
  switch (error.keyword) {
    case 'required':
      return `missing required field "${String(error.params.missingProperty)}"${where}`;
    case 'additionalProperties':
      return `unknown field "${String(error.params.additionalProperty)}"${where}`;
    case 'enum':
      return `${path === '' ? 'the value' : path} must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return `${path === '' ? 'the value' : path} ${error.message ?? 'is invalid'}`;
  }
}
