import type { MessageImage } from '../models/chat-message.ts';
import type { ImagePart } from '../tools/content-part.ts';
import type { ToolResult } from '../tools/tool-result.ts';
import type { ToolCallRecord } from './turn-events.ts';

/** A call's result as the model reads it in the conversation: its data, or its error marked as one. */
export function resultContent(result: { success: boolean; data: string; error?: string | undefined }): {
  content: string;
  isError?: boolean;
} {
  return result.success
    ? { content: result.data }
    : { content: `Error: ${result.error ?? 'the tool failed'}`, isError: true };
}

/**
 * A call's result as a tool message or a text-protocol result says it: the tool's name, its
 * content, and the pictures among its parts (the parts themselves, not copies: each adapter
 * encodes their bytes once, into its request). A model that cannot see gets a description of
 * them instead, when it is asked (ask-model.ts).
 */
export function toolOutput(record: ToolCallRecord): {
  name: string;
  content: string;
  isError?: boolean;
  images?: MessageImage[];
} {
  const images = resultImages(record.result);
  return { name: record.tool, ...resultContent(record.result), ...(images.length === 0 ? {} : { images }) };
}

/** The image parts of a result, in order. */
function resultImages(result: ToolResult): ImagePart[] {
  return (result.content ?? []).filter((part): part is ImagePart => part.type === 'image');
}
