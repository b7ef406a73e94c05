/** A tool call as the model asked for it; `arguments` is the raw JSON text it sent. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

/** The provider-neutral conversation every adapter translates to its own wire format. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };
