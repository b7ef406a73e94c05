import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import type { Usage } from '../models/chat-model.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import type { TurnErrorCode } from './turn-error-codes.ts';
import type { ReportLevel } from '../tools/call-report.ts';

/** One tool call as it ran in a turn: what was asked, what came back, how long it took. */
export interface ToolCallRecord {
  callId: string;
  tool: string;
  /** The arguments as parsed from the model (before coercion); the raw text when it was not JSON. */
  params: unknown;
  result: CheckedToolResult;
  durationMs: number;
  startedAt: string;
  /** The task the call became (a `long_running` tool, or a call the deadline handed over): `result` is its handle. */
  taskId?: string;
}

export type TurnEvent =
  | { type: 'text-delta'; text: string }
  /** The model is writing a tool call's arguments (streaming). */
  | { type: 'tool-call-delta'; index: number; name?: string; argumentsDelta: string }
  | { type: 'tool-call'; callId: string; tool: string; params: unknown }
  | { type: 'tool-result'; call: ToolCallRecord }
  /** A running call says how far it is (`context.progress`, or an MCP server's progress): throttled to ten a second. */
  | { type: 'tool-progress'; callId: string; tool: string; progress: number; total?: number; message?: string }
  /** A running call logs a line (`context.log`); `level` is MCP's (`warning`, not `warn`). */
  | { type: 'tool-log'; callId: string; tool: string; level: ReportLevel; message: string }
  /**
   * A call waits for a person's approval: answer with `Approvals.answer(approvalId, …)` (the
   * terminal's prompt, the dashboard's card, `POST /api/approvals/:id`) before `expiresAt`.
   */
  | {
      type: 'approval-request';
      approvalId: string;
      callId: string;
      tool: string;
      params: Record<string, unknown>;
      expiresAt: string;
    }
  /** How the approval ended: the call runs (`approved`, `always`) or not (`denied`, `approval-timeout`, `aborted`). */
  | {
      type: 'approval-answered';
      approvalId: string;
      callId: string;
      tool: string;
      decision: 'approved' | 'always' | 'denied' | 'approval-timeout' | 'aborted';
      reason?: string;
    }
  /** A running tool asks the person something (ask_user): answer with `Approvals.reply(questionId, text)`. */
  | {
      type: 'question';
      questionId: string;
      callId: string;
      tool: string;
      question: string;
      choices?: string[];
      expiresAt: string;
    }
  /** The question was answered, or ended without an answer (`answered: false`: its time limit, or the call stopped). */
  | { type: 'question-ended'; questionId: string; callId: string; tool: string; answered: boolean }
  /** Messages that are now part of the conversation (for storing as the turn goes). */
  | { type: 'messages'; messages: ChatMessage[] }
  /** The model's reply so far is discarded (a broken stream being retried, or a text-protocol repair). */
  | { type: 'retry'; reason: string }
  /** A model request failed before any reply came (429, 5xx, network, timeout) and is sent again after `delayMs`. */
  | { type: 'model-retry'; attempt: number; delayMs: number; error: { code: string; message: string } }
  /** Nothing has come from the model for `seconds` (to a tenth; told every few seconds while that lasts, retries included). */
  | { type: 'model-waiting'; seconds: number }
  | { type: 'done'; result: TurnResult };

/**
 * `timeout`: the turn's deadline passed (`error.code` is `turn-timeout`). `tool-calls`: the model
 * called the caller's own tools (`clientCalls`), which the caller runs to continue the turn.
 */
export type StopReason = 'answer' | 'round-limit' | 'loop-stopped' | 'tool-calls' | 'error' | 'aborted' | 'timeout';

/** The turn ended without an answer: an error, cancellation or the deadline. */
export function turnFailed(result: Pick<TurnResult, 'stopReason'>): boolean {
  return result.stopReason === 'error' || result.stopReason === 'aborted' || result.stopReason === 'timeout';
}

export interface TurnResult {
  /** The final reply shown to the user. */
  text: string;
  stopReason: StopReason;
  /** Every message this turn added to the conversation, the user's first. */
  messages: ChatMessage[];
  toolCalls: ToolCallRecord[];
  /** Model requests sent, retries included. */
  requests: number;
  usage: Usage;
  /** With `tool-calls`: the calls for the caller to run (also in the last assistant message). */
  clientCalls?: ToolCallRequest[];
  /**
   * What went wrong when `stopReason` is 'error', 'aborted' or 'timeout': a ModelError's code, or
   * one of the turn's own (TURN_ERROR_CODES; the table of docs/server-api.md says what each means).
   */
  error?: { code: TurnErrorCode; message: string };
}
