import type { ToolDefinition } from '../models/chat-model.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import type { Dialect } from '../schema/dialect.ts';
import { parametersSchema, type JsonSchema } from '../tool-runtime/parameter-schema.ts';
import type { RegisteredTool } from '../tool-runtime/registered-tool.ts';
import { localize, localizeList, type Language } from '../core/language.ts';

const EXAMPLES_LABEL: Record<Language, string> = { en: 'Examples', zh: '示例', ja: '例' };

/**
 * The tools as a model is given them: the description in the user's language with the examples
 * appended (so they reach every provider), and the parameters' JSON Schema compiled to the
 * provider's dialect (plain JSON Schema without one) — the schema the arguments are checked against.
 */
function toolDefinitions(tools: readonly RegisteredTool[], language: Language, dialect?: Dialect): ToolDefinition[] {
  return tools.map((tool) => toolDefinition(tool, language, dialect));
}

/**
 * One tool's definition; a registered tool's English schema comes from the registry's cache (the
 * very object its arguments are checked against), anything else is compiled here.
 */
export function toolDefinition(
  tool: Pick<RegisteredTool, 'name' | 'manifest'> &
    Partial<Pick<RegisteredTool, 'schema' | 'schemaFor' | 'schemaGiven'>>,
  language: Language,
  dialect?: Dialect,
): ToolDefinition {
  const description = localize(tool.manifest.description, language);
  const examples = localizeList(tool.manifest.examples, language);
  // An MCP server's schema is the one in every language (compiling its manifest summary would lose what it says).
  const cached = language === 'en' || tool.schemaGiven === true ? tool : undefined;
  const schema = cached?.schema ?? parametersSchema(tool.manifest, language);
  return {
    name: tool.name,
    description:
      examples.length === 0
        ? description
        : `${description}\n${EXAMPLES_LABEL[language]}: ${examples.map((example) => JSON.stringify(example)).join('; ')}`,
    parameters:
      dialect === undefined ? schema : ((cached?.schemaFor?.(dialect) ?? compileSchema(schema, dialect)) as JsonSchema),
  };
}

const cache = new WeakMap<object, Map<string, ToolDefinition[]>>();

/**
 * The definitions for a registry, built once per registry, language and dialect. A registry never
 * changes (a reload makes a new one), and the same array object lets adapters reuse its serialized form.
 */
export function cachedToolDefinitions(
  registry: { tools(): RegisteredTool[] },
  language: Language,
  dialect?: Dialect,
): ToolDefinition[] {
  let byKey = cache.get(registry);
  if (byKey === undefined) cache.set(registry, (byKey = new Map()));
  const key = `${language}:${dialect ?? ''}`;
  let definitions = byKey.get(key);
  if (definitions === undefined) byKey.set(key, (definitions = toolDefinitions(registry.tools(), language, dialect)));
  return definitions;
}
