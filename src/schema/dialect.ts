/** The schema dialects providers are given: each takes a different subset of JSON Schema. */
export const DIALECTS = ['json', 'openai', 'openai-strict', 'anthropic', 'gemini'] as const;
export type Dialect = (typeof DIALECTS)[number];

export function isDialect(value: unknown): value is Dialect {
  return (DIALECTS as readonly unknown[]).includes(value);
}
