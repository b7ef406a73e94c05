// Test support for the turn-loop tests (not a test itself): the real local OpenAI-protocol server,
// a real local server answering like wttr.in, and real tool files in temporary folders.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ChatModel } from '../models/chat-model.ts';
import {
  createOpenAICompatibleModel,
  type OpenAICompatibleOptions,
} from '../models/providers/openai/openai-compatible.ts';
import {
  startOpenAITestServer,
  type OpenAITestServer,
  type RecordedRequest,
  type ReplyHandler,
  type ReplySpec,
} from '../models/testing/openai-wire.ts';
import type { WireMessage } from '../models/providers/openai/openai-wire-types.ts';
import type { AppConfig } from '../tools/app-config.ts';
import type { Language } from '../core/language.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { TurnEvent } from './turn-events.ts';

/** Anything with `after()`: the TestContext of `test()`/`it()`. */
export interface Cleanup {
  after(fn: () => unknown): void;
}

/** A Cleanup for fixtures shared by a file's tests: register `run` with the file's `after()`. */
export function sharedCleanup(): Cleanup & { run(): Promise<void> } {
  const fns: Array<() => unknown> = [];
  return {
    after: (fn) => void fns.push(fn),
    run: async () => {
      for (const fn of fns.reverse()) await fn();
    },
  };
}

/** The seed's own tool folder (weather.ts). */
export const AGENT_TOOLS = fileURLToPath(new URL('../../agent/tools/', import.meta.url));

/** The OpenAI-protocol server, closed when the test ends. */
export async function modelServer(t: Cleanup, handler: ReplyHandler | ReplySpec): Promise<OpenAITestServer> {
  const server = await startOpenAITestServer(handler);
  t.after(() => server.close());
  return server;
}

/** A model on the test server; quick retries so that fault tests stay fast. */
export function testModel(server: OpenAITestServer, options: Partial<OpenAICompatibleOptions> = {}): ChatModel {
  return createOpenAICompatibleModel({
    model: 'test-model',
    baseUrl: server.url,
    apiKey: 'k',
    maxRetries: 2,
    retryDelayMs: 5,
    timeoutMs: 10_000,
    ...options,
  });
}

/** Descriptions as wttr.in gives them: `weatherDesc` in English, `lang_xx` for the rest. */
export const SKY = { en: 'Partly cloudy', zh: '局部多云', ja: '所により曇り' } as const;

/** The weather conversation in each language: what the user asks, what the model and the tool say. */
export const WEATHER_CONVERSATIONS: Record<
  Language,
  {
    input: string;
    city: string;
    answer: string;
    system: string;
    description: string;
    cityDescription: string;
    toolSays: string;
  }
> = {
  en: {
    input: "What's the weather in Tokyo today?",
    city: 'Tokyo',
    answer: 'It is partly cloudy and 16 °C in Tokyo right now.',
    system: 'You are Riverse',
    description: 'Get the current weather for a city',
    cityDescription: 'City name, e.g. Tokyo, London',
    toolSays: `Tokyo: ${SKY.en}, 16°C (feels like 14°C), humidity 63%, wind 11 km/h`,
  },
  zh: {
    input: '东京今天天气怎么样？',
    city: '东京',
    answer: '东京现在局部多云，气温 16°C。',
    system: '你是 Riverse',
    description: '查询指定城市的当前天气',
    cityDescription: '城市名，例如 东京、伦敦',
    toolSays: `东京：${SKY.zh}，16°C（体感 14°C），湿度 63%，风速 11 km/h`,
  },
  ja: {
    input: '東京の今日の天気は？',
    city: '東京',
    answer: '東京は今、所により曇りで 16°C です。',
    system: 'あなたは Riverse',
    description: '指定した都市の現在の天気を調べる',
    cityDescription: '都市名。例：東京、ロンドン',
    toolSays: `東京：${SKY.ja}、16°C（体感 14°C）、湿度 63%、風速 11 km/h`,
  },
};

/** The turn events of one round of tool calls, in order, streamed and not. */
export const STREAMED_ORDER = [
  'messages',
  'tool-call-delta',
  'messages',
  'tool-call',
  'tool-result',
  'messages',
  'text-delta',
  'messages',
  'done',
];
export const UNSTREAMED_ORDER = [
  'messages',
  'messages',
  'tool-call',
  'tool-result',
  'messages',
  'text-delta',
  'messages',
  'done',
];

export interface WttrServer {
  url: string;
  /** City and `lang` of every request, in order. */
  requests: Array<{ city: string; lang: string | null }>;
}

/**
 * A local server answering like wttr.in's `?format=j1`: 16 °C everywhere, except that "Atlantis"
 * is unknown (404) and "Slowtown" takes `slowMs` to answer.
 */
export async function wttrServer(t: Cleanup, slowMs = 0): Promise<WttrServer> {
  const requests: WttrServer['requests'] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const city = decodeURIComponent(url.pathname.slice(1));
    const lang = url.searchParams.get('lang');
    requests.push({ city, lang });
    if (city === 'Atlantis') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Unknown location');
      return;
    }
    const send = () => {
      open.delete(response);
      if (response.destroyed) return;
      const sky = SKY[(lang ?? 'en') as keyof typeof SKY] ?? SKY.en;
      const now = {
        temp_C: '16',
        FeelsLikeC: '14',
        humidity: '63',
        windspeedKmph: '11',
        weatherDesc: [{ value: SKY.en }],
        ...(lang !== 'en' ? { [`lang_${lang}`]: [{ value: sky }] } : {}),
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ current_condition: [now] }));
    };
    open.add(response);
    if (city === 'Slowtown') setTimeout(send, slowMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A fresh folder under the OS temp folder, removed when the test ends. */
export async function tempDir(t: Cleanup, prefix = 'riverse-turn-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

/**
 * Tools loaded from real files: the seed's weather tool from agent/tools (pointed at `wttrUrl`,
 * alone: the other built-ins there are not what these turns are about) and/or `files` written to
 * a temp folder.
 */
export async function loadRegistry(
  t: Cleanup,
  options: { wttrUrl?: string; files?: Record<string, string>; config?: AppConfig } = {},
): Promise<ToolRegistry> {
  const folders: string[] = [];
  if (options.wttrUrl !== undefined) {
    const seed = await tempDir(t, 'riverse-turn-weather-');
    await writeFile(join(seed, 'weather.ts'), readFileSync(join(AGENT_TOOLS, 'weather.ts')));
    folders.push(seed);
  }
  if (options.files !== undefined) {
    const dir = await tempDir(t, 'riverse-turn-tools-');
    await writeFiles(dir, options.files);
    folders.push(dir);
  }
  const config: AppConfig = {
    ...options.config,
    tools: {
      ...options.config?.tools,
      ...(options.wttrUrl === undefined ? {} : { weather: { base_url: options.wttrUrl } }),
    },
  };
  const registry = await ToolRegistry.load({ folders, config });
  assert.deepEqual(
    registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
    [],
    'the test tools load without errors',
  );
  return registry;
}

// Tool files, written as a user writes them. Results that carry times use Date.now() (ms).

/** `name(ms)`: sleeps, then answers `{"tool", "start", "end"}`. */
export function napTool(name: string, options: { exclusive?: boolean } = {}): string {
  const className = `${name.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Tool`;
  return `import { BaseTool, ToolResult } from 'riverse';

export class ${className} extends BaseTool {
  manifest() {
    return {
      name: ${JSON.stringify(name)},
      description: 'Waits a while, then says when it started and ended',
      parameters: { ms: { type: 'integer', required: true, description: 'How long to wait, in milliseconds' } },
      examples: ['Wait a bit', 'Take a short nap'],
      ${options.exclusive === true ? 'exclusive: true,' : ''}
    };
  }

  async execute(params) {
    const start = Date.now();
    await new Promise((resolve) => setTimeout(resolve, params.ms));
    return ToolResult.ok(JSON.stringify({ tool: ${JSON.stringify(name)}, start, end: Date.now() }));
  }
}
`;
}

// Tools may run in worker threads: they report to the test through files named in their config
// section (`tools.<name>.log_file`), never through globals.

/** `explode()`: throws; appends a line to `tools.explode.log_file` on every run. */
export const EXPLODE_TOOL = `import { appendFileSync } from 'node:fs';
import { BaseTool } from 'riverse';

export class ExplodeTool extends BaseTool {
  manifest() {
    return { name: 'explode', description: 'Always throws', parameters: { what: 'What to blow up' }, examples: ['Blow it up', 'Explode'] };
  }

  async execute(params, context) {
    appendFileSync(context.config.log_file, 'ran\\n');
    throw new Error('the fuse was lit');
  }
}
`;

/** `wait_for_cancel()`: runs until cancelled; appends "started", then "aborted" when its signal fires, to `tools.wait_for_cancel.log_file`. */
export const WAIT_FOR_CANCEL_TOOL = `import { appendFileSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class WaitForCancelTool extends BaseTool {
  manifest() {
    return { name: 'wait_for_cancel', description: 'Works until it is cancelled', examples: ['Do the long job', 'Take your time'], timeoutMs: 60000 };
  }

  async execute(_params, context) {
    const log = context.config.log_file;
    await new Promise((resolve) => {
      context.signal.addEventListener('abort', () => {
        appendFileSync(log, 'aborted\\n');
        resolve(undefined);
      });
      appendFileSync(log, 'started\\n');
    });
    return ToolResult.ok('stopped');
  }
}
`;

/** The lines a tool appended to its log file so far. */
export function logLines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

/** Resolves once `condition()` holds; fails after `timeoutMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// Reading what the model was sent.

export function systemOf(request: RecordedRequest): string {
  const first = request.body.messages[0];
  assert.equal(first?.role, 'system', 'the request starts with the system prompt');
  return String(first.content);
}

export function messagesOf(request: RecordedRequest): WireMessage[] {
  return request.body.messages.filter((message) => message.role !== 'system');
}

export function toolMessagesOf(request: RecordedRequest): WireMessage[] {
  return request.body.messages.filter((message) => message.role === 'tool');
}

/** The description the model was given for a tool. */
export function toolDescription(request: RecordedRequest, name: string): string | undefined {
  return request.body.tools?.find((tool) => tool.function?.name === name)?.function?.description;
}

/** Every tool call of an assistant message is answered by a tool message, right after it, in order. */
export function assertWellFormed(messages: readonly ChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'tool')
      assert.fail(`message ${i} is a tool result without the call before it: ${JSON.stringify(message)}`);
    if (message.role !== 'assistant' || message.toolCalls === undefined) continue;
    for (const call of message.toolCalls) {
      const answer = messages[++i];
      assert.ok(
        answer?.role === 'tool' && answer.toolCallId === call.id,
        `call ${call.id} (${call.name}) is followed by its result, got ${JSON.stringify(answer)}`,
      );
    }
  }
}

/** Event types in order, with each run of deltas collapsed into one (their number varies). */
export function eventOrder(events: readonly TurnEvent[]): string[] {
  const order: string[] = [];
  for (const event of events)
    if (!(event.type.endsWith('-delta') && order.at(-1) === event.type)) order.push(event.type);
  return order;
}

export function textDeltas(events: readonly TurnEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
}
