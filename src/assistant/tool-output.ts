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

/** A call's result as a tool message or a text-protocol result says it: the tool's name and its content. */
export function toolOutput(record: ToolCallRecord): { name: string; content: string; isError?: boolean } {
  return { name: record.tool, ...resultContent(record.result) };
}
