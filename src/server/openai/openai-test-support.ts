// Test support for the /v1 tests (not a test itself): the real local OpenAI-protocol server as the
// model, the service with one drop-in tool in front of it, and an openai client pointed at it.
import OpenAI from 'openai';
import {
  createOpenAICompatibleModel,
  type OpenAICompatibleOptions,
} from '../../models/providers/openai/openai-compatible.ts';
import {
  startOpenAITestServer,
  type OpenAITestServer,
  type ReplyHandler,
  type ReplySpec,
} from '../../models/testing/openai-wire.ts';
import type { Cleanup } from '../../tool-runtime/test-support.ts';
import { startTestService, type TestService, type TestServiceOptions } from '../server-test-support.ts';

/** `lookup(word)`: answers "found: <word>". */
export const LOOKUP_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class LookupTool extends BaseTool {
  manifest() {
    return { name: 'lookup', description: 'Looks a word up', parameters: { word: { type: 'string', required: true, description: 'The word' } }, examples: ['Look up river'] };
  }
  async execute(params) {
    return ToolResult.ok('found: ' + params.word);
  }
}
`;

/** The model server, the service with `lookup` and that model, and an openai client for it. */
export async function openaiService(
  t: Cleanup,
  handler: ReplyHandler | ReplySpec,
  options: TestServiceOptions = {},
  adapter: Partial<OpenAICompatibleOptions> = {},
): Promise<{ model: OpenAITestServer; service: TestService; client: OpenAI }> {
  const model = await startOpenAITestServer(handler);
  t.after(() => model.close());
  const service = await startTestService(t, {
    files: { 'lookup.ts': LOOKUP_TOOL },
    model: createOpenAICompatibleModel({
      model: 'test-model',
      baseUrl: model.url,
      apiKey: 'k',
      maxRetries: 0,
      timeoutMs: 10_000,
      ...adapter,
    }),
    ...options,
  });
  return { model, service, client: new OpenAI({ baseURL: `${service.url}v1`, apiKey: 'unused', maxRetries: 0 }) };
}
