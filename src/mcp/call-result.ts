import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import { ToolFailure, type ToolResult } from '../tools/tool-result.ts';

/**
 * An MCP tool's answer as a ToolResult: text content becomes `data` (parts joined by lines),
 * structured content is kept as JSON beside it (unless a text part already is that JSON, or the
 * text already holds its every value and they are all text: a file's contents are not sent twice), and
 * other content — images, audio, resources — is described, not dropped. `isError` makes the call
 * fail with code `mcp-tool-error` and that text as the error, for the model to read.
 */
export function toToolResult(tool: string, result: CallToolResult): ToolResult {
  const parts = (Array.isArray(result.content) ? result.content : []).map(describeContent);
  const structured = result.structuredContent;
  if (structured !== undefined && structured !== null) {
    const json = JSON.stringify(structured);
    if (!parts.some((part) => sameJson(part, structured)) && !saidAlready(structured, parts.join('\n')))
      parts.push(json);
  }
  const text = parts.join('\n');
  if (result.isError === true)
    throw new ToolFailure(
      'mcp-tool-error',
      text === '' ? `${tool} reported an error without saying what went wrong.` : text,
    );
  return { success: true, data: text };
}

function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${sizeOf(block.data)}]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType === undefined ? '' : ` (${block.mimeType})`}]${block.description === undefined ? '' : ` ${block.description}`}`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource <${resource.uri}>${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}]\n${resource.text}`;
      return `[resource <${resource.uri}>: ${resource.mimeType ?? 'binary'}, ${'blob' in resource && typeof resource.blob === 'string' ? sizeOf(resource.blob) : 'no data'}]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

/** The size of base64 data once decoded. */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} kB`;
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
