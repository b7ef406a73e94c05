import type { WireRequestBody } from '../providers/openai/openai-wire-types.ts';

/**
 * The rules OpenAI's Chat Completions enforces on a conversation that a wrong translation would
 * break (the pairing of calls and results, where pictures may stand), with messages worded like its
 * own; undefined when the body passes. For the test server.
 */
export function checkOpenAIRequest(body: WireRequestBody): string | undefined {
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  let open: string[] = [];
  let calls: string[] = [];
  for (const [i, message] of body.messages.entries()) {
    if (message.role === 'tool') {
      if (!calls.includes(message.tool_call_id ?? ''))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      if (Array.isArray(message.content))
        for (const [j, part] of (message.content as { type?: unknown }[]).entries())
          if (part.type !== 'text')
            return `Invalid value: '${String(part.type)}'. Supported values are: 'text'. (messages[${i}].content[${j}].type)`;
      open = open.filter((id) => id !== message.tool_call_id);
      continue;
    }
    if (open.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
    calls = message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id ?? '') : [];
    open = [...calls];
    if (Array.isArray(message.content) && message.role !== 'user')
      for (const [j, part] of (message.content as { type?: unknown }[]).entries())
        if (part.type !== 'text')
          return `Invalid value: '${String(part.type)}'. Supported values are: 'text'. (messages[${i}].content[${j}].type)`;
  }
  if (open.length > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
  return undefined;
}
