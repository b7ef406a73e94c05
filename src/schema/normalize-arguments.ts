import { dialectRules, valueEncoding, type Dialect } from './dialect.ts';
import { normalizedSchema } from './normalize-schema.ts';
import { allowsNull, isRecord, setField, type SchemaNode } from './schema-node.ts';

/**
 * Maps arguments a model produced against `compileSchema(originalSchema, dialect)` back to what
 * `originalSchema` expects, so that the tool never sees the dialect: a null sent for an optional
 * property is dropped (strict sends one for every parameter it leaves out; other models send them
 * too, and there it is dropped unless the original takes null), JSON text is parsed back, and a
 * Gemini enum's text becomes its value again. Anything else passes through unchanged.
 */
export function normalizeArguments(args: unknown, originalSchema: unknown, dialect: Dialect): unknown {
  return restoreObject(args, normalizedSchema(originalSchema), dialect);
}

function restoreObject(value: unknown, node: SchemaNode, dialect: Dialect): unknown {
  if (!isRecord(value) || node.properties === undefined) return value;
  const required = new Set(node.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const child = Object.hasOwn(node.properties, name) ? node.properties[name] : undefined;
    if (child === undefined) setField(out, name, item);
    else if (item !== null || required.has(name) || (!dialectRules(dialect).nullMeansOmitted && allowsNull(child)))
      setField(out, name, restore(item, child, dialect));
  }
  return out;
}

function restore(value: unknown, node: SchemaNode, dialect: Dialect): unknown {
  if (value === null || value === undefined) return value;
  const encoding = valueEncoding(node, dialect);
  if (encoding === 'json-text') return typeof value === 'string' ? parseJson(value) : value;
  if (encoding === 'enum-text') return typeof value === 'string' ? enumValue(value, node.enum ?? []) : value;
  if (Array.isArray(value)) return value.map((item) => restore(item, node.items ?? {}, dialect));
  return restoreObject(value, node, dialect);
}

/** Text that is not JSON stays text: the original schema's check then says what is wrong. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function enumValue(text: string, values: unknown[]): unknown {
  if (values.includes(text)) return text;
  return values.find((value) => typeof value !== 'string' && JSON.stringify(value) === text) ?? text;
}
