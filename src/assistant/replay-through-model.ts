import type { ChatModel, ModelRequest } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { LANGUAGES, type Language, type LocalizedList } from '../core/language.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { detectLanguage } from './detect-language.ts';
import { OfferedTools, type TurnRouting } from './offered-tools.ts';
import { requestModel } from './request-model.ts';
import { textProtocolInstructions } from './text-protocol/instructions.ts';
import { parseTextToolCalls } from './text-protocol/parse-tool-calls.ts';

interface ModelMiss {
  tool: string;
  example: string;
  /** The tools the model called instead (none: it answered without a tool). */
  reached: string[];
  /** Why the model could not be asked, when it could not. */
  error?: string;
}

export interface ModelReplay {
  model: string;
  examples: number;
  misses: ModelMiss[];
}

/**
 * Sends every tool's examples to the model as a user's first message, with the tools a turn would
 * offer for it (routed as a turn routes them), and keeps those the model does not answer with a
 * call to the example's tool. Nothing is run: only the model's choice is looked at.
 */
export async function replayThroughModel(
  model: ChatModel,
  registry: ToolRegistry,
  routing: TurnRouting | undefined,
  signal?: AbortSignal,
): Promise<ModelReplay> {
  const misses: ModelMiss[] = [];
  let examples = 0;
  for (const tool of registry.tools()) {
    for (const example of examplesOf(tool.manifest.examples)) {
      examples++;
      const language = detectLanguage(example);
      try {
        const offered = await OfferedTools.choose(
          registry,
          language,
          routing,
          { latest: example, earlier: [] },
          signal,
        );
        const reached = await calledTools(model, offered, language, example, signal);
        if (!reached.includes(tool.name)) misses.push({ tool: tool.name, example, reached });
      } catch (error) {
        if (!(error instanceof ModelError) || signal?.aborted === true) throw error;
        misses.push({ tool: tool.name, example, reached: [], error: error.message });
      }
    }
  }
  return { model: model.id, examples, misses };
}

/** Every language's examples of a manifest, each once. */
function examplesOf(examples: LocalizedList | undefined): string[] {
  if (examples === undefined || Array.isArray(examples)) return examples ?? [];
  return [...new Set(LANGUAGES.flatMap((language) => examples[language] ?? []))];
}

async function calledTools(
  model: ChatModel,
  offered: OfferedTools,
  language: Language,
  example: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const text = ASSISTANT_TEXT[language];
  const native = model.toolCalling === 'native';
  const definitions = offered.definitions(native ? model.dialect : undefined);
  const system = text.systemPrompt(new Date().toISOString().slice(0, 10));
  const request: ModelRequest = {
    system: native ? system : `${system}\n\n${textProtocolInstructions(definitions, language)}`,
    messages: [{ role: 'user', content: example }],
    stream: false,
    ...(native ? { tools: definitions } : {}),
    ...(signal === undefined ? {} : { signal }),
  };
  const reply = await requestModel(
    model,
    request,
    () => {},
    false,
    () => {},
  );
  if (native) return reply.calls.map((call) => call.name);
  const parsed = parseTextToolCalls(reply.text);
  return parsed.kind === 'calls' ? parsed.calls.map((call) => call.name) : [];
}
