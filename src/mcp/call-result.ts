import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import type { ContentPart } from '../tools/content-part.ts';
import { base64, byteLength, formatSize } from '../tools/result-content.ts';
import { ToolFailure, type CheckedToolResult } from '../tools/tool-result.ts';
import { mimeTypeOf } from './resource-mime.ts';

// A result both ways between Riverse's ToolResult and MCP's CallToolResult, one to one (decision
// 027): parts are content blocks, `structured` is `structuredContent`, `data` is the text.

/**
 * An MCP tool's answer as a ToolResult, lossless: every content block becomes a part (text,
 * image, audio, an embedded resource; a resource link is described in text), the text blocks (and
 * embedded text resources) joined by lines are `data`, and `structuredContent` is `structured`. The model's text also holds the
 * structured content as JSON unless a text block already is that JSON, or the text already holds
 * its every value and they are all text (a file's contents are not sent twice). `isError` makes the
 * call fail with code `mcp-tool-error` and that text as the error, for the model to read.
 */
export function toToolResult(tool: string, result: CallToolResult): CheckedToolResult {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const content = blocks.map(toPart);
  // The text a model reads: the text blocks, and an embedded text resource with its name; an image,
  // a sound or a binary file travels as its part, which each model is given in the form it takes.
  const texts = content.flatMap((part) =>
    part.type === 'text'
      ? [part.text]
      : part.type === 'resource' && part.text !== undefined
        ? [describePart(part)]
        : [],
  );
  const structured = result.structuredContent;
  if (structured !== undefined && structured !== null) {
    if (!texts.some((text) => sameJson(text, structured)) && !saidAlready(structured, texts.join('\n')))
      texts.push(JSON.stringify(structured));
  }
  const text = texts.join('\n');
  if (result.isError === true)
    throw new ToolFailure(
      'mcp-tool-error',
      text === '' ? `${tool} reported an error without saying what went wrong.` : text,
    );
  const rich = content.some((part) => part.type !== 'text');
  return {
    success: true,
    data: text,
    ...(rich ? { content } : {}),
    ...(structured === undefined || structured === null ? {} : { structured }),
  };
}

function toPart(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, data: block.data, mimeType: block.mimeType };
    case 'resource': {
      const resource = block.resource;
      return {
        type: 'resource',
        uri: resource.uri,
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        ...('text' in resource && typeof resource.text === 'string'
          ? { text: resource.text }
          : { blob: 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '' }),
      };
    }
    case 'resource_link':
      return {
        type: 'text',
        text: `[resource link: ${block.name} <${block.uri}>${block.mimeType === undefined ? '' : ` (${block.mimeType})`}]${block.description === undefined ? '' : ` ${block.description}`}`,
      };
    default:
      return { type: 'text', text: `[${String((block as { type?: unknown }).type)} content]` };
  }
}

/** A part as a line of text: what a model that cannot see or hear it reads. */
function describePart(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mimeType}, ${formatSize(byteLength(part.data))}]`;
    default:
      if (part.text !== undefined)
        return `[resource <${part.uri}>${part.mimeType === undefined ? '' : ` (${part.mimeType})`}]\n${part.text}`;
      return `[resource <${part.uri}>: ${part.mimeType ?? 'binary'}, ${part.blob === undefined ? 'no data' : formatSize(byteLength(part.blob))}]`;
  }
}

/**
 * A Riverse result as MCP's CallToolResult: its parts as content blocks (bytes as base64, a
 * resource's MIME type from its URI when the tool gave none), `data` as a text block ahead of them
 * when no part is text, and `structured` as `structuredContent` when it is an object (MCP's is
 * one), also written as JSON text when nothing else says it. A failure is `isError` with the error.
 */
export function toCallToolResult(result: CheckedToolResult): CallToolResult {
  if (!result.success) {
    const error =
      result.code === undefined ? (result.error ?? 'failed') : `${result.error ?? 'failed'} (${result.code})`;
    return {
      content: [{ type: 'text', text: result.data === '' ? error : `${error}\n${result.data}` }],
      isError: true,
    };
  }
  const parts = result.content ?? [];
  const blocks: ContentBlock[] = parts.map(toBlock);
  const structured = isObject(result.structured) ? result.structured : undefined;
  const text =
    result.data !== '' ? result.data : result.structured !== undefined ? JSON.stringify(result.structured) : '';
  if (!parts.some((part) => part.type === 'text') && (text !== '' || blocks.length === 0))
    blocks.unshift({ type: 'text', text });
  return { content: blocks, ...(structured === undefined ? {} : { structuredContent: structured }) };
}

function toBlock(part: ContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return { type: part.type, data: base64(part.data), mimeType: part.mimeType };
    default: {
      const blob = part.blob;
      if (blob !== undefined)
        return {
          type: 'resource',
          resource: {
            uri: part.uri,
            mimeType: part.mimeType ?? mimeTypeOf(part.uri, 'application/octet-stream'),
            blob: base64(blob),
          },
        };
      return {
        type: 'resource',
        resource: {
          uri: part.uri,
          mimeType: part.mimeType ?? mimeTypeOf(part.uri, 'text/plain'),
          text: part.text ?? '',
        },
      };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** True when every leaf of `value` is a string the text holds already. */
function saidAlready(value: unknown, text: string): boolean {
  const leaves: unknown[] = [];
  const walk = (item: unknown, depth: number): void => {
    if (depth > 8) {
      leaves.push(undefined);
      return;
    }
    if (Array.isArray(item)) for (const entry of item) walk(entry, depth + 1);
    else if (typeof item === 'object' && item !== null) for (const entry of Object.values(item)) walk(entry, depth + 1);
    else leaves.push(item);
  };
  walk(value, 0);
  return leaves.length > 0 && leaves.every((leaf) => typeof leaf === 'string' && text.includes(leaf));
}
