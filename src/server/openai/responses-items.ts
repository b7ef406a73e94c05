import { randomBytes } from 'node:crypto';
import type { TurnResult } from '../../assistant/turn-events.ts';
import type { ChatMessage, ToolCallRequest } from '../../models/chat-message.ts';
import { ApiError } from '../api-error.ts';
import type { InputItem } from './responses-request.ts';

/*
 * Items ↔ messages. In: a request's items joined to the conversation before them (a stored chain,
 * or nothing), as a turn takes it — an assistant's text and its function calls one message, each
 * call answered right after it. Out: the turn as output items, a message with its text and then
 * the client's function calls (our own calls ran server-side and are not the client's to see).
 */

const invalid = (param: string, message: string) => new ApiError(400, 'invalid-request', message, param);

/** The calls of the conversation's last assistant message that no tool message answers yet. */
function openCalls(conversation: readonly ChatMessage[]): Map<string, ToolCallRequest> {
  const open = new Map<string, ToolCallRequest>();
  for (const message of conversation) {
    if (message.role === 'assistant') {
      open.clear();
      for (const call of message.toolCalls ?? []) open.set(call.id, call);
    } else if (message.role === 'tool') open.delete(message.toolCallId);
    else open.clear();
  }
  return open;
}

/**
 * The request's items as messages, checked against what comes before them (`before`: the stored
 * chain): every call answered by a `function_call_output` before the next message, no output
 * without its call, and the whole ending with the user's message or with results.
 */
export function itemsToMessages(items: readonly InputItem[], before: readonly ChatMessage[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let open = openCalls(before);
  let openAt = before.length > 0 ? 'previous_response_id' : '';
  /** The assistant message being built from consecutive assistant items. */
  let assistant: { content: string; toolCalls: ToolCallRequest[] } | undefined;
  const endAssistant = () => {
    if (assistant === undefined) return;
    messages.push(
      assistant.toolCalls.length === 0
        ? { role: 'assistant', content: assistant.content }
        : { role: 'assistant', content: assistant.content, toolCalls: assistant.toolCalls },
    );
    assistant = undefined;
  };
  const closeOpen = (at: string) => {
    if (open.size === 0) return;
    throw invalid(
      openAt,
      `${openAt} calls ${[...open.keys()].join(', ')}, which got no result: each function_call needs a "function_call_output" with its call_id before ${at}.`,
    );
  };
  for (const item of items) {
    // Resolved before (resolveReferences) where responses are kept.
    if (item.kind === 'reference') throw unresolved(item);
    if (item.kind === 'output') {
      endAssistant();
      const call = open.get(item.callId);
      if (call === undefined)
        throw invalid(
          `${item.at}.call_id`,
          `${item.at} answers "${item.callId.slice(0, 100)}", which is not a function_call just before it (or was answered already).`,
        );
      open.delete(item.callId);
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: item.text });
      continue;
    }
    // An assistant's text and the calls after it are one message; anything else ends it.
    const joins =
      assistant !== undefined &&
      (item.kind === 'call' || (item.role === 'assistant' && assistant.toolCalls.length === 0));
    if (!joins) {
      endAssistant();
      closeOpen(item.at);
    }
    if (item.kind === 'message' && item.role === 'user') {
      messages.push(
        item.images === undefined
          ? { role: 'user', content: item.text }
          : { role: 'user', content: item.text, images: item.images },
      );
      continue;
    }
    if (assistant === undefined) {
      assistant = { content: '', toolCalls: [] };
      open = new Map();
      openAt = item.at;
    }
    if (item.kind === 'message')
      assistant.content = assistant.content === '' ? item.text : `${assistant.content}\n\n${item.text}`;
    else {
      if (open.has(item.call.id))
        throw invalid(`${item.at}.call_id`, `${item.at}: two calls have the call_id "${item.call.id.slice(0, 100)}".`);
      assistant.toolCalls.push(item.call);
      open.set(item.call.id, item.call);
    }
  }
  endAssistant();
  closeOpen('the end of "input"');
  const last = messages.at(-1);
  if (last === undefined || last.role === 'assistant')
    throw invalid(
      'input',
      '"input" must end with the user\'s message, or with the results ("function_call_output") of the calls the response before asked for: that is what the assistant answers.',
    );
  return messages;
}

/**
 * `msg_…`, `fc_…`: an output item's id, as OpenAI's look. It begins with its response's own hex, so
 * that an `item_reference` to it (the AI SDK sends one for each item of a stored response it gives
 * back) finds the response it is kept in without an index.
 */
export const itemId = (prefix: string, responseId: string) =>
  `${prefix}_${responseId.slice('resp_'.length)}${randomBytes(4).toString('hex')}`;

const unresolved = (item: { id: string; at: string }) =>
  invalid(
    `${item.at}.id`,
    `${item.at} refers to the item "${item.id.slice(0, 100)}", which no response kept here has (a response made with "store": false keeps nothing): send the item itself, or continue with "previous_response_id".`,
  );

/** The response an output item of ours belongs to (`resp_…`), from its id; none for an id not of this form. */
function responseOfItem(id: string): string | undefined {
  const match = /^(?:msg|fc)_([0-9a-f]{48})[0-9a-f]{8}$/.exec(id);
  return match === null ? undefined : `resp_${match[1]}`;
}

/**
 * The request's `item_reference`s replaced by the items they name: an assistant message's text, or
 * a function call, as the stored response (`find` gives its output items) gave them. One that is
 * not kept (`store: false`, deleted, another service's) is a 400 naming it.
 */
export async function resolveReferences(
  items: readonly InputItem[],
  find: (responseId: string) => Promise<readonly unknown[] | undefined>,
): Promise<InputItem[]> {
  const outputs = new Map<string, readonly unknown[] | undefined>();
  for (const item of items) {
    const response = item.kind === 'reference' ? responseOfItem(item.id) : undefined;
    if (response !== undefined && !outputs.has(response)) outputs.set(response, await find(response));
  }
  return items.map((item) => {
    if (item.kind !== 'reference') return item;
    const response = responseOfItem(item.id);
    const found = (response === undefined ? undefined : outputs.get(response))?.find(
      (output) => typeof output === 'object' && output !== null && (output as { id?: unknown }).id === item.id,
    ) as
      | { type?: string; content?: { text?: unknown }[]; call_id?: string; name?: string; arguments?: string }
      | undefined;
    if (found?.type === 'message')
      return {
        kind: 'message',
        role: 'assistant',
        text: (found.content ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join(''),
        at: item.at,
      };
    if (found?.type === 'function_call')
      return {
        kind: 'call',
        call: { id: found.call_id ?? '', name: found.name ?? '', arguments: found.arguments ?? '' },
        at: item.at,
      };
    throw unresolved(item);
  });
}

export interface OutputMessage {
  id: string;
  type: 'message';
  status: 'completed';
  role: 'assistant';
  content: { type: 'output_text'; text: string; annotations: []; logprobs: [] }[];
}

export interface OutputCall {
  id: string;
  type: 'function_call';
  status: 'completed';
  call_id: string;
  name: string;
  arguments: string;
}

/** The answer's output: its text as one message (left out when there is none and calls follow), then the client's calls. */
export function outputItems(responseId: string, text: string, result: TurnResult): (OutputMessage | OutputCall)[] {
  const calls = result.clientCalls ?? [];
  const output: (OutputMessage | OutputCall)[] = [];
  if (text !== '' || calls.length === 0) output.push(outputMessage(itemId('msg', responseId), text));
  for (const call of calls) output.push(outputCall(itemId('fc', responseId), call));
  return output;
}

export const outputMessage = (id: string, text: string): OutputMessage => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

export const outputCall = (id: string, call: ToolCallRequest): OutputCall => ({
  id,
  type: 'function_call',
  status: 'completed',
  call_id: call.id,
  name: call.name,
  arguments: call.arguments,
});
