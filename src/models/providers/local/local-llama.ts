// A ChatModel running a GGUF model in this process with llama.cpp (through node-llama-cpp, an
// optional package loaded on first use). Tool calls are native as far as the turn loop can tell:
// when tools are offered, a grammar built from their schemas constrains the reply to one valid call
// or an answer, so even a small model cannot send a malformed call.
import { availableParallelism, homedir } from 'node:os';
import { basename, join } from 'node:path';
import { AsyncChannel } from '../../async-channel.ts';
import type {
  ChatModel,
  FinishReason,
  ModelEvent,
  ModelRequest,
  ResponseFormat,
  ToolChoice,
  ToolDefinition,
} from '../../chat-model.ts';
import { AnswerStream } from './local-llama-answer-stream.ts';
import { readGrammarReply, replySchema } from './local-llama-grammar.ts';
import { chatHistory, LOCAL_TOOLS } from './local-llama-prompt.ts';
import {
  isModelReference,
  loadModelFile,
  loadRuntime,
  resolveModelReference,
  type LlamaChat,
  type LlamaContext,
  type LlamaGrammar,
} from './local-llama-runtime.ts';
import { ModelError } from '../../model-error.ts';
import { callIdSource } from '../../call-ids.ts';

export interface LocalModelOptions {
  /** A .gguf file, or a reference to download (`hf:user/repo/file.gguf`) into `modelsDirectory`. */
  modelPath: string;
  /** Where referenced models are downloaded (default: node-llama-cpp's own models folder). */
  modelsDirectory?: string;
  /**
   * CPU threads per evaluation (default: all, `os.availableParallelism()`; node-llama-cpp's own
   * default of 4 oversubscribes small machines, which makes llama.cpp's threads wait on each other).
   */
  threads?: number;
  /** Tokens of context (default: what fits in memory, up to the model's own length and 8192). */
  contextSize?: number;
  /** Sampling seed, for repeatable replies. */
  seed?: number;
  /** The longest reply, in tokens (default 2048). */
  maxTokens?: number;
  /** Sampling temperature (default 0.7; 0 always takes the likeliest token). */
  temperature?: number;
}

/** A model from a GGUF file; nothing loads until the first request. */
/** node-llama-cpp's own default folder for downloaded models. */
const DEFAULT_MODELS_DIRECTORY = join(homedir(), '.node-llama-cpp', 'models');

export function createLocalModel(options: LocalModelOptions): ChatModel {
  const name = basename(options.modelPath);
  const id = `local:${name}`;
  const maxTokens = options.maxTokens ?? 2048;
  const nextCallId = callIdSource();
  let session: Promise<LlamaChat> | undefined;
  // Per catalog, one grammar per tool choice ('auto', 'required', or a tool's name).
  const grammars = new WeakMap<readonly ToolDefinition[], Map<string, Promise<LlamaGrammar>>>();
  const formats = new WeakMap<ResponseFormat, Promise<LlamaGrammar | undefined>>();
  // One sequence, so one generation at a time; the others wait their turn.
  let queue: Promise<unknown> = Promise.resolve();

  const openSession = (): Promise<LlamaChat> => {
    session ??= (async () => {
      const file = isModelReference(options.modelPath)
        ? await resolveModelReference(options.modelPath, options.modelsDirectory ?? DEFAULT_MODELS_DIRECTORY)
        : options.modelPath;
      const [{ LlamaChat }, model] = await Promise.all([loadRuntime(), loadModelFile(file)]);
      let context: LlamaContext;
      try {
        context = await model.createContext({
          contextSize: options.contextSize ?? { max: 8192 },
          threads: options.threads ?? availableParallelism(),
        });
      } catch (error) {
        throw new ModelError(
          'not-configured',
          `${id}: could not make a context for it (${message(error)}); try a smaller contextSize.`,
          { cause: error },
        );
      }
      return new LlamaChat({ contextSequence: context.getSequence() });
    })().catch((error: unknown) => {
      session = undefined;
      throw error;
    });
    return session;
  };

  const grammarFor = (tools: readonly ToolDefinition[], choice: ToolChoice | undefined): Promise<LlamaGrammar> => {
    const key =
      choice === undefined || choice === 'none' ? 'auto' : typeof choice === 'string' ? choice : `=${choice.name}`;
    let byChoice = grammars.get(tools);
    if (byChoice === undefined) grammars.set(tools, (byChoice = new Map()));
    let grammar = byChoice.get(key);
    if (grammar === undefined) {
      grammar = loadRuntime().then(({ llama }) => llama.createGrammarForJsonSchema(replySchema(tools, choice)));
      byChoice.set(key, grammar);
      grammar.catch(() => byChoice.delete(key));
    }
    return grammar;
  };

  /**
   * The answer's own grammar when JSON is asked for (a request without tools): the schema's, or any
   * JSON. A schema node-llama-cpp cannot make a grammar of goes without: the turn checks the answer.
   */
  const formatGrammar = (format: ResponseFormat): Promise<LlamaGrammar | undefined> => {
    let grammar = formats.get(format);
    if (grammar === undefined) {
      grammar = loadRuntime()
        .then(({ llama }) => {
          if (format.type === 'json_object') return llama.getGrammarFor('json');
          const { $schema: _draft, ...schema } = format.schema;
          return llama.createGrammarForJsonSchema(schema);
        })
        .catch(() => undefined);
      formats.set(format, grammar);
    }
    return grammar;
  };

  const generate = async (request: ModelRequest, signal: AbortSignal, out: AsyncChannel<ModelEvent>): Promise<void> => {
    if (signal.aborted) throw aborted(id);
    const tools =
      request.tools !== undefined && request.tools.length > 0 && request.toolChoice !== 'none'
        ? request.tools
        : undefined;
    const format = request.responseFormat;
    const [chat, grammar] = await Promise.all([
      openSession(),
      tools !== undefined
        ? grammarFor(tools, request.toolChoice)
        : format !== undefined
          ? formatGrammar(format)
          : undefined,
    ]);
    const sampling = request.sampling ?? {};
    const penalties =
      sampling.presencePenalty === undefined && sampling.frequencyPenalty === undefined
        ? undefined
        : {
            ...(sampling.presencePenalty === undefined ? {} : { presencePenalty: sampling.presencePenalty }),
            ...(sampling.frequencyPenalty === undefined ? {} : { frequencyPenalty: sampling.frequencyPenalty }),
          };
    const seed = sampling.seed ?? options.seed;
    const answer = new AnswerStream();
    let shown = '';
    let outputTokens = 0;
    let result: Awaited<ReturnType<LlamaChat['generateResponse']>>;
    try {
      result = await chat.generateResponse(chatHistory(request.system, request.messages, tools), {
        ...(grammar === undefined ? {} : { grammar }),
        maxTokens: sampling.maxTokens ?? maxTokens,
        temperature: sampling.temperature ?? options.temperature ?? 0.7,
        ...(sampling.topP === undefined ? {} : { topP: sampling.topP }),
        ...(seed === undefined ? {} : { seed }),
        ...(sampling.stop === undefined ? {} : { customStopTriggers: sampling.stop }),
        ...(penalties === undefined ? {} : { repeatPenalty: penalties }),
        signal,
        onTextChunk: (chunk) => {
          // The tools' grammar wraps the answer in {"answer": …}; an answer's own grammar is the answer.
          const text = tools === undefined ? chunk : answer.push(chunk);
          if (text === '') return;
          shown += text;
          out.push({ type: 'text-delta', text });
        },
        onToken: (tokens) => void (outputTokens += tokens.length),
      });
    } catch (error) {
      if (signal.aborted) throw aborted(id);
      throw new ModelError('server-error', `${id}: generation failed: ${message(error)}`, { cause: error });
    }
    if (result.metadata.stopReason === 'abort') throw aborted(id);
    const usage = { outputTokens };
    const cut = result.metadata.stopReason === 'maxTokens';
    if (tools === undefined) {
      out.push({ type: 'finish', reason: cut ? 'length' : 'stop', usage });
      return;
    }
    const reply = readGrammarReply(result.response, tools);
    let reason: FinishReason;
    if (reply?.kind === 'call') {
      out.push({ type: 'tool-call', call: { id: nextCallId(), name: reply.name, arguments: reply.arguments } });
      reason = 'tool-calls';
    } else if (reply?.kind === 'answer') {
      // The streamed text is the answer already; this only guards against a decoding slip.
      if (reply.text !== shown && reply.text.startsWith(shown))
        out.push({ type: 'text-delta', text: reply.text.slice(shown.length) });
      reason = 'stop';
    } else if (shown !== '' || !/"tool"/.test(result.response)) {
      reason = 'length'; // an answer cut short: what came is still worth showing
    } else {
      throw new ModelError(
        'bad-response',
        `${id}: the reply reached the limit of ${maxTokens} tokens before its tool call was complete; raise maxTokens.`,
      );
    }
    out.push({ type: 'finish', reason, usage });
  };

  return {
    id,
    toolCalling: 'native',
    dialect: LOCAL_TOOLS.dialect,
    async *stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
      if (request.signal?.aborted === true) throw aborted(id);
      // Our own signal too: a reader that stops early stops the generation.
      const left = new AbortController();
      const signal = request.signal === undefined ? left.signal : AbortSignal.any([request.signal, left.signal]);
      const out = new AsyncChannel<ModelEvent>();
      const run = queue.then(() => generate(request, signal, out));
      queue = run.catch(() => {});
      run.then(
        () => out.end(),
        (error: unknown) => out.fail(error),
      );
      try {
        yield* out;
      } finally {
        left.abort();
        await run.catch(() => {}); // the generation has stopped before the caller goes on
      }
    },
  };
}

function aborted(id: string): ModelError {
  return new ModelError('aborted', `${id}: the request was cancelled`);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
