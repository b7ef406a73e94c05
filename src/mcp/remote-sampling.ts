import { ProtocolError, ProtocolErrorCode, type CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { renderPhrase, type Phrase } from '../core/phrase.ts';
import { checkSampleRequest, type SampleResult } from '../tools/sample-request.ts';
import type { RootsList } from '../tools/client-roots.ts';
import { cut, type ElicitationChannel } from './elicitation.ts';
import { mcpPhrase } from './mcp-client-text.ts';

// A remote server's `sampling/createMessage` and `roots/list`, answered by Riverse's client
// (decision 040): the model of the call the request came with, and only once the person allowed
// it (the approval channels: the terminal, the dashboard's card, the API's event); the roots of that
// call, or the folders Riverse works in.

/** MCP's code for a sampling request the person (or the client for them) refused. */
const REFUSED = -1;

/**
 * The person is asked whether the server may use the model (what it asks, how many tokens);
 * allowed, the call's model answers. Declined, unanswered, or where no one can be asked: refused
 * with an error saying so, and the model is not asked.
 */
export async function answerSampling(
  server: string,
  params: CreateMessageRequestParams,
  channel: ElicitationChannel | undefined,
): Promise<SampleResult> {
  const language = channel?.language ?? 'en';
  const say = (phrase: Phrase) => renderPhrase(phrase, language)!;
  if (channel?.sample === undefined) throw new ProtocolError(REFUSED, say(mcpPhrase('mcp.sample.nobody', { server })));
  const { messages, maxTokens, systemPrompt, temperature, stopSequences, modelPreferences } = params;
  const request = checkSampleRequest(
    Object.fromEntries(
      Object.entries({ messages, maxTokens, systemPrompt, temperature, stopSequences, modelPreferences }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
  );
  if (typeof request === 'string')
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      request.replace('context.sample()', 'sampling/createMessage'),
    );
  const allow = say(mcpPhrase('mcp.sample.allow'));
  const decline = say(mcpPhrase('mcp.elicit.choice.decline'));
  const answer = await channel.ask(
    say(
      mcpPhrase('mcp.sample.ask', {
        server,
        prompt: cut(promptText(request.messages), 600),
        system: cut(request.systemPrompt ?? '', 300),
        maxTokens: request.maxTokens,
      }),
    ),
    { choices: [allow, decline] },
  );
  const allowed = answer.answered && [allow.toLowerCase(), 'allow', 'yes'].includes(answer.text.trim().toLowerCase());
  if (!allowed)
    throw new ProtocolError(
      REFUSED,
      say(
        answer.answered || answer.reason === 'cancelled'
          ? mcpPhrase('mcp.sample.declined', { server })
          : answer.reason === 'timeout'
            ? mcpPhrase('mcp.sample.timeout', { server })
            : mcpPhrase('mcp.sample.nobody', { server }),
      ),
    );
  return channel.sample(request);
}

/** The call's roots, else the folders Riverse works in. */
export async function answerRoots(
  channel: ElicitationChannel | undefined,
  fallback: () => RootsList,
): Promise<{ roots: RootsList['roots'] }> {
  const list = channel?.roots === undefined ? fallback() : await channel.roots();
  return { roots: list.roots };
}

/** What the server asks the model, in words: its messages' text, a picture named. */
function promptText(messages: ReadonlyArray<{ role: string; content: unknown }>): string {
  return messages
    .map((message) => {
      const parts = (Array.isArray(message.content) ? message.content : [message.content]) as Array<{
        type: string;
        text?: string;
      }>;
      return `${message.role}: ${parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ')}`;
    })
    .join('\n');
}
