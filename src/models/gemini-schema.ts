/*
 * JSON Schema → the OpenAPI subset Gemini accepts for function parameters. Deliberately small:
 * it keeps type, description, enum, items, properties and required, and reshapes what Gemini
 * answers 400 to (unknown keywords such as additionalProperties, `type` arrays, an object without
 * properties, an array without items, an enum on a non-string). A full dialect compiler may
 * replace it.
 */

type Schema = Record<string, unknown>;

/** `parameters` of a function declaration; undefined for a tool that takes none (Gemini rejects an empty object). */
export function geminiParameters(schema: unknown): Schema | undefined {
  if (isRecord(schema) && (schema.type === undefined || schema.type === 'object') && !hasKeys(schema.properties)) return undefined;
  return geminiSchema(schema);
}

export function geminiSchema(input: unknown): Schema {
  if (!isRecord(input)) return { type: 'string' };
  const description = typeof input.description === 'string' && input.description !== '' ? input.description : undefined;

  // A union with null is a nullable schema; other unions become anyOf.
  const union = Array.isArray(input.anyOf) ? input.anyOf : Array.isArray(input.oneOf) ? input.oneOf : undefined;
  if (union !== undefined) {
    const members = union.filter((member) => !(isRecord(member) && member.type === 'null'));
    const nullable = members.length < union.length;
    const out: Schema =
      members.length <= 1 ? geminiSchema(members[0]) : { anyOf: members.map((member) => geminiSchema(member)) };
    return finish(out, description, nullable);
  }

  let nullable = input.nullable === true;
  let type = input.type;
  if (Array.isArray(type)) {
    const types = type.filter((name) => name !== 'null');
    if (types.length < type.length) nullable = true;
    if (types.length > 1) return finish({ anyOf: types.map((name) => geminiSchema({ ...input, type: name, description: undefined })) }, description, nullable);
    type = types[0];
  }
  if (type === undefined) type = hasKeys(input.properties) ? 'object' : input.items !== undefined ? 'array' : 'string';
  if (type === 'null') return finish({ type: 'string' }, description, true);

  const out: Schema = { type };
  if (type === 'object') {
    // Gemini has no free-form object: ask for JSON text (the tool's parameter check parses it).
    if (!hasKeys(input.properties)) return finish({ type: 'string' }, description === undefined ? '(a JSON object)' : `${description} (a JSON object)`, nullable);
    const properties: Record<string, Schema> = {};
    for (const [name, property] of Object.entries(input.properties)) properties[name] = geminiSchema(property);
    out.properties = properties;
    const required = Array.isArray(input.required) ? input.required.filter((name) => typeof name === 'string' && name in properties) : [];
    if (required.length > 0) out.required = required;
  } else if (type === 'array') {
    out.items = input.items === undefined ? { type: 'string' } : geminiSchema(input.items);
  }
  if (Array.isArray(input.enum) && type !== 'object' && type !== 'array') {
    const values = input.enum.filter((value) => value !== null);
    if (values.length < input.enum.length) nullable = true;
    // Gemini takes enums of strings only; the parameter check turns "2" back into 2.
    if (values.length > 0) {
      out.type = 'string';
      out.enum = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
    }
  }
  return finish(out, description, nullable);
}

function finish(schema: Schema, description: string | undefined, nullable: boolean): Schema {
  if (description !== undefined) schema.description = description;
  if (nullable) schema.nullable = true;
  return schema;
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasKeys(value: unknown): value is Schema {
  return isRecord(value) && Object.keys(value).length > 0;
}
