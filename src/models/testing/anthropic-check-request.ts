import type {
  AnthropicBlock,
  AnthropicImageBlock,
  AnthropicRequestBody,
} from '../providers/anthropic/anthropic-wire-types.ts';

/**
 * The rules Anthropic's Messages API enforces on a request body that a wrong translation would
 * break, with messages worded like its own; undefined when the body passes. For the test server.
 */
export function checkAnthropicRequest(body: AnthropicRequestBody): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
  if (body.system !== undefined && typeof body.system !== 'string') return 'system: Input should be a valid string';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  for (const [i, tool] of (body.tools ?? []).entries()) {
    const schema = tool.input_schema as { type?: unknown } | undefined;
    if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
      return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (schema?.type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`;
  }
  const toolBlocks = body.messages.some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some((block) => block.type === 'tool_use' || block.type === 'tool_result'),
  );
  if (toolBlocks && (body.tools === undefined || body.tools.length === 0))
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  let previousUses: string[] = [];
  for (const [i, message] of body.messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (i > 0 && body.messages[i - 1]!.role === message.role)
      return 'messages: roles must alternate between "user" and "assistant", but found multiple consecutive messages with the same role';
    const blocks: AnthropicBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(blocks) || blocks.length === 0) return `messages.${i}: all messages must have non-empty content`;
    const results: string[] = [];
    const uses: string[] = [];
    for (const [j, block] of blocks.entries()) {
      const where = `messages.${i}.content.${j}`;
      if (block.type === 'text') {
        if (typeof block.text !== 'string' || block.text.trim() === '')
          return `${where}: text content blocks must contain non-whitespace text`;
      } else if (block.type === 'tool_use') {
        if (message.role !== 'assistant') return `${where}: tool_use blocks may only appear in assistant messages`;
        if (block.input === null || typeof block.input !== 'object' || Array.isArray(block.input))
          return `${where}.tool_use.input: Input should be a valid dictionary`;
        uses.push(block.id);
      } else if (block.type === 'image') {
        if (message.role !== 'user') return `${where}: image blocks may only appear in user messages`;
        const problem = imageProblem(block, where);
        if (problem !== undefined) return problem;
      } else if (block.type === 'tool_result') {
        if (message.role !== 'user') return `${where}: tool_result blocks may only appear in user messages`;
        if (block.is_error !== undefined && typeof block.is_error !== 'boolean')
          return `${where}.tool_result.is_error: Input should be a valid boolean`;
        const problem = resultContentProblem(block.content as unknown, `${where}.tool_result.content`);
        if (problem !== undefined) return problem;
        if (j > results.length)
          return `${where}: tool_result blocks must come first in the user message, before any other content`;
        results.push(block.tool_use_id);
      } else {
        return `${where}.type: unexpected block type ${JSON.stringify((block as { type: unknown }).type)}`;
      }
    }
    const unexpected = results.filter((id) => !previousUses.includes(id));
    if (unexpected.length > 0) {
      return `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const unanswered = previousUses.filter((id) => !results.includes(id));
    if (unanswered.length > 0) {
      return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    previousUses = uses;
  }
  if (previousUses.length > 0) {
    return `messages.${body.messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${previousUses.join(', ')}.`;
  }
  return undefined;
}

/** Anthropic's rule for a tool result's content: a string, or text and image blocks. */
function resultContentProblem(content: unknown, where: string): string | undefined {
  if (content === undefined || typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `${where}: Input should be a valid string or list`;
  for (const [k, block] of (content as AnthropicBlock[]).entries()) {
    if (block.type === 'text') {
      if (typeof block.text !== 'string' || block.text.trim() === '')
        return `${where}.${k}: text content blocks must contain non-whitespace text`;
    } else if (block.type === 'image') {
      const problem = imageProblem(block, `${where}.${k}`);
      if (problem !== undefined) return problem;
    } else return `${where}.${k}.type: Input should be 'text' or 'image'`;
  }
  return undefined;
}

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** An image block's source as Anthropic checks it: base64 of a type it reads, or an http(s) URL. */
function imageProblem(block: AnthropicImageBlock, where: string): string | undefined {
  const source = block.source as { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown } | undefined;
  if (source?.type === 'base64') {
    if (typeof source.media_type !== 'string' || !MEDIA_TYPES.includes(source.media_type))
      return `${where}.image.source.base64.media_type: Input should be ${MEDIA_TYPES.map((type) => `'${type}'`).join(', ')}`;
    if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(source.data))
      return `${where}.image.source.base64.data: The image data is not valid base64`;
    return undefined;
  }
  if (source?.type === 'url')
    return typeof source.url === 'string' && /^https?:\/\//.test(source.url)
      ? undefined
      : `${where}.image.source.url.url: Input should be a valid URL`;
  return `${where}.image.source: Input tag does not match any of the expected tags: 'base64', 'url'`;
}
