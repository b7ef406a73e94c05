import { PARAMETER_TYPES, type ParameterSpec, type ParameterType } from '../tools/tool-manifest.ts';

/** Nesting shown in a manifest; the schema itself is kept whole. */
const MAX_DEPTH = 6;

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An MCP tool's input schema as manifest parameters: what `tools show`, the dashboard and an
 * invalid call's explanation print. It is a summary (a union shows its first type); arguments are
 * checked against the schema itself.
 */
export function schemaParameters(schema: unknown): Record<string, ParameterSpec> {
  return isNode(schema) ? fields(schema, 0) : {};
}

function fields(schema: Node, depth: number): Record<string, ParameterSpec> {
  const properties = isNode(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, ParameterSpec> = {};
  for (const [name, value] of Object.entries(properties)) {
    out[name] = {
      ...spec(isNode(value) ? value : {}, depth + 1),
      ...(required.includes(name) ? { required: true } : {}),
    };
  }
  return out;
}

function spec(node: Node, depth: number): ParameterSpec {
  const shape = firstMember(node);
  const type = typeOf(shape);
  const description =
    typeof node.description === 'string'
      ? node.description
      : typeof shape.description === 'string'
        ? shape.description
        : undefined;
  const values = Array.isArray(shape.enum)
    ? shape.enum.filter((value) => ['string', 'number', 'boolean'].includes(typeof value))
    : 'const' in shape
      ? [shape.const]
      : undefined;
  const result: ParameterSpec = {
    ...(type === undefined ? {} : { type }),
    ...(description === undefined ? {} : { description }),
  };
  if (values !== undefined && values.length > 0) result.enum = values as (string | number | boolean)[];
  if (shape.default !== undefined) result.default = shape.default;
  if (depth < MAX_DEPTH && type === 'array' && isNode(shape.items)) result.items = spec(shape.items, depth + 1);
  if (depth < MAX_DEPTH && type === 'object' && isNode(shape.properties)) result.properties = fields(shape, depth);
  return result;
}

/** A union's first member that is not null (`anyOf: [{type: string}, {type: null}]` reads as a string). */
function firstMember(node: Node): Node {
  for (const key of ['anyOf', 'oneOf']) {
    const members = node[key];
    if (Array.isArray(members)) {
      const member = members.find((item) => isNode(item) && item.type !== 'null');
      if (isNode(member))
        return { ...member, ...(node.description === undefined ? {} : { description: node.description }) };
    }
  }
  return node;
}

function typeOf(node: Node): ParameterType | undefined {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const found = types.find((type): type is ParameterType => (PARAMETER_TYPES as readonly unknown[]).includes(type));
  if (found !== undefined) return found;
  if (isNode(node.properties)) return 'object';
  if (node.items !== undefined) return 'array';
  return undefined;
}
