import type { ToolErrorCode } from '../tools/tool-result.ts';

/** One tool call as it ran: what was asked, what came back, and how long it took. */
export interface ToolCallTrace {
  sessionId: string;
  /** The turn the call belongs to; the caller creates it (e.g. `crypto.randomUUID()`). */
  turnId: string;
  /** The model's id for the call (ToolCallRequest.id). */
  callId: string;
  tool: string;
  /** The arguments as the tool received them; must be JSON-serializable. */
  params: unknown;
  success: boolean;
  data: string;
  error?: string;
  code?: ToolErrorCode;
  durationMs: number;
  /** ISO 8601. */
  startedAt: string;
}
