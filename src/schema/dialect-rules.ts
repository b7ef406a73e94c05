import type { SchemaNode } from './schema-node.ts';
import type { ValueEncoding } from './value-encoding.ts';

/**
 * One provider's subset of JSON Schema, in one place: how a schema is compiled to it, how values
 * travel in it, and the rules a compiled schema keeps. A provider whose rules differ from every
 * dialect here brings one file that exports one of these, named in `dialect.ts`.
 */
export interface DialectRules {
  /** A normalized schema in this dialect. The result may share parts with its input: treat it as read-only. */
  compile(root: SchemaNode): SchemaNode;
  /** How a value of a normalized node travels (see ValueEncoding); the compiler and normalizeArguments both ask. */
  encoding(node: SchemaNode): ValueEncoding;
  /**
   * True when every property is required on the wire (optional ones made nullable), so that a null
   * stands for a parameter the model left out, even where the original schema takes null.
   */
  readonly nullMeansOmitted: boolean;
  /** The rules a compiled schema keeps, which checkDialect applies. */
  readonly check: DialectCheck;
}

/** What checkDialect reads of a node before the dialect's own rules look at it. */
export interface NodeFacts {
  /** The node's path for messages: `top`, `a.b`, `a[]`. */
  at: string;
  types: unknown[];
  /** Its declared property names. */
  names: string[];
  required: unknown[];
}

/** Sums over the whole schema, for dialects with size limits. */
export interface SchemaTotals {
  properties: number;
  enumValues: number;
  /** Characters of property names, enum values and consts. */
  stringChars: number;
  /** How deep objects nest. */
  depth: number;
}

interface DialectCheck {
  /** The keywords a node may carry. */
  keywords: ReadonlySet<string>;
  /** Problems of the top node beyond "must be an object". */
  top?(schema: Record<string, unknown>, problems: string[]): void;
  /** Problems of one node beyond the ones every dialect has (unknown keywords and types, empty enums, bad patterns, required names that are not properties). */
  node?(node: Record<string, unknown>, facts: NodeFacts, problems: string[]): void;
  /** Problems of the whole schema's size. */
  totals?(totals: SchemaTotals, problems: string[]): void;
}

// Draft-07 keywords (the ones Ajv reads by default), for the dialects that take standard JSON Schema.
export const STANDARD_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$ref',
  '$comment',
  'definitions',
  'type',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'dependencies',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'contentMediaType',
  'contentEncoding',
]);

/** OpenAI and Gemini answer 400 to an array schema without `items`. */
export function checkArrayItems(node: Record<string, unknown>, facts: NodeFacts, problems: string[]): void {
  if (facts.types.includes('array') && node.items === undefined) problems.push(`${facts.at}: an array needs items`);
}
