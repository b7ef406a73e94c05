import type { ToolDefinition } from '../models/chat-model.ts';
import { parametersSchema } from '../tools/parameter-schema.ts';
import type { RegisteredTool } from '../tools/registered-tool.ts';
import { localize, localizeList, type Language } from '../tools/tool-manifest.ts';

const EXAMPLES_LABEL: Record<Language, string> = { en: 'Examples', zh: '示例', ja: '例' };

/**
 * The tools as a model is given them: the description in the user's language with the examples
 * appended (so they reach every provider), and the parameters' JSON Schema.
 */
export function toolDefinitions(tools: readonly RegisteredTool[], language: Language): ToolDefinition[] {
  return tools.map((tool) => {
    const description = localize(tool.manifest.description, language);
    const examples = localizeList(tool.manifest.examples, language);
    return {
      name: tool.name,
      description: examples.length === 0 ? description : `${description}\n${EXAMPLES_LABEL[language]}: ${examples.map((example) => JSON.stringify(example)).join('; ')}`,
      parameters: language === 'en' ? tool.schema : parametersSchema(tool.manifest, language),
    };
  });
}

const cache = new WeakMap<object, Map<Language, ToolDefinition[]>>();

/**
 * The definitions for a registry, built once per registry and language. A registry never changes
 * (a reload makes a new one), and the same array object lets adapters reuse its serialized form.
 */
export function cachedToolDefinitions(registry: { tools(): RegisteredTool[] }, language: Language): ToolDefinition[] {
  let byLanguage = cache.get(registry);
  if (byLanguage === undefined) cache.set(registry, (byLanguage = new Map()));
  let definitions = byLanguage.get(language);
  if (definitions === undefined) byLanguage.set(language, (definitions = toolDefinitions(registry.tools(), language)));
  return definitions;
}
