import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { Language } from '../core/language.ts';
import type { ChatMessage } from '../models/chat-message.ts';
import type { AskFields, FormValues } from '../tools/ask-form.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';
import type { TurnTrace } from './turn-trace.ts';

/**
 * The plain data a Store takes and gives (store.ts), apart from any database: both the SQLite and
 * the PostgreSQL store import these, neither imports the other.
 */

export interface SessionInfo {
  id: string;
  /** What users type with `--session NAME`; unique. */
  name: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the last time messages were added or the language set. */
  updatedAt: string;
  language?: Language;
}

export interface SessionSummary extends SessionInfo {
  messageCount: number;
}

export interface ToolCallQuery {
  /** Only the calls of this turn. */
  turnId?: string;
  /** Only the last `limit` calls (still returned oldest first). */
  limit?: number;
}

/** Traces across sessions (`traces()`); every filter is optional. */
export interface TraceQuery {
  tool?: string;
  outcome?: 'success' | 'failure';
  /** A session's name. */
  session?: string;
  /** ISO 8601 times: calls started at or after `since`, and before `until`. */
  since?: string;
  until?: string;
  /** At most this many (100; at most MAX_TRACES). */
  limit?: number;
}

/** A trace as `traces()` returns it: with its row id and its session's name. */
export interface StoredTrace extends ToolCallTrace {
  id: number;
  /** The session's name; empty for a run by hand. */
  session: string;
  /** Run by a person from the dashboard's tools page (`recordHandRun`), in no session. */
  byHand?: true;
}

export const MAX_TRACES = 1_000;

/** `renameSession` to a name another session has. */
export class SessionNameTakenError extends Error {
  override name = 'SessionNameTakenError';
  readonly code = 'session-exists';
  constructor(name: string) {
    super(`There is already a session called ${JSON.stringify(name)}; pick another name, or delete that one first.`);
  }
}

/** A session's turn in progress and the replica running it (decision 039). */
export interface RunningTurn {
  sessionId: string;
  /** The replica id of the process running it (`host:pid:random`). */
  replica: string;
  /** Epoch milliseconds. */
  startedAt: number;
  /** The last time its replica said it is alive (epoch milliseconds). */
  heartbeatAt: number;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'timed-out';

/** Where the run of an approved call is: not begun, begun (Riverse may have stopped during it), finished. */
export type ApprovalRun = 'not-started' | 'started' | 'done';

/** One call waiting for (or given) a person's answer, bound to the exact call: tool, checked parameters, call id. */
export interface ApprovalRecord {
  id: string;
  sessionId: string;
  turnId: string;
  callId: string;
  tool: string;
  /** The parameters as the tool will get them (checked and coerced): what the person is shown. */
  params: Record<string, unknown>;
  status: ApprovalStatus;
  /** Approved for every call of this tool in this session from now on. */
  always: boolean;
  /** The person's reason, with a denial. */
  reason?: string;
  createdAt: string;
  /** When a pending approval counts as a denial (`timed-out`). */
  expiresAt: string;
  decidedAt?: string;
  run: ApprovalRun;
}

/** What `approvals.add` takes: the rest starts pending, not run, not always. */
export type NewApproval = Omit<ApprovalRecord, 'status' | 'always' | 'run' | 'reason' | 'decidedAt'>;

/** Where a question a tool asked the person is: waiting, answered, declined by the person, or ended unanswered (time, cancel, its turn gone). */
export type QuestionStatus = 'pending' | 'answered' | 'declined' | 'ended';

/** A question a tool asks the person (`context.ask`, ask_user, a form), kept so that any replica can show and answer it. */
export interface QuestionRecord {
  id: string;
  sessionId: string;
  /** The turn whose call asked (`task:<id>` for a task's). */
  turnId: string;
  callId: string;
  tool: string;
  question: string;
  choices?: string[];
  /** A form's fields: it is answered with values, not text. */
  fields?: AskFields;
  required?: string[];
  createdAt: string;
  /** When the asking call stops waiting. */
  expiresAt: string;
  status: QuestionStatus;
  /** The answer in words (a form's as its text). */
  answer?: string;
  /** A form's values, checked against its fields. */
  values?: FormValues;
  decidedAt?: string;
}

/** What `questions.add` takes: the rest starts pending. */
export type NewQuestion = Omit<QuestionRecord, 'status' | 'answer' | 'values' | 'decidedAt'>;

/** How a pending question is settled. */
export type QuestionSettlement =
  | { status: 'answered'; answer: string; values?: FormValues }
  | { status: 'declined' }
  | { status: 'ended' };

/** Where a task's input request is: waiting, answered (its response stored), or ended unanswered (time, cancel, its task gone). */
export type TaskInputStatus = 'pending' | 'answered' | 'ended';

/**
 * An input request a task asks its MCP client (an elicitation, as MCP's tasks extension puts it in
 * `inputRequests`), kept so that `tasks/get` and `tasks/update` on any replica see and answer it.
 */
export interface TaskInputRecord {
  taskId: string;
  /** The key of `inputRequests` (and of `tasks/update`'s `inputResponses`). */
  key: string;
  /** The input request as the wire carries it (JSON). */
  request: Record<string, unknown>;
  status: TaskInputStatus;
  /** The client's response, once answered (JSON, as it came). */
  response?: Record<string, unknown>;
  createdAt: string;
  /** When the asking call stops waiting. */
  expiresAt: string;
  decidedAt?: string;
}

/** What `taskInputs.add` takes: the rest starts pending. */
export type NewTaskInput = Omit<TaskInputRecord, 'status' | 'response' | 'decidedAt'>;

/** One response of `/v1/responses` as kept for `previous_response_id` and `GET /v1/responses/:id`. */
export interface StoredResponse {
  /** `resp_…`. */
  id: string;
  /** The session its tool calls are traced under: the response goes when that session is deleted. */
  sessionId: string;
  /** The response it continued, if any. */
  previousId?: string;
  /** What this response added to the conversation: the request's own input, then the turn's messages. */
  messages: ChatMessage[];
  /** The response object as the client got it (JSON). */
  body: string;
  /** ISO 8601. */
  createdAt: string;
}

/** How long traces stay, and how many (the oldest go first): small enough for a person's machine. */
export interface TraceRetention {
  /** Days a trace is kept (default 14). */
  maxAgeDays: number;
  /** Traces kept at most (default 2,000). */
  maxCount: number;
}

export const DEFAULT_TRACE_RETENTION: TraceRetention = { maxAgeDays: 14, maxCount: 2_000 };
export const MAX_TURN_TRACES = 1_000;

/** Turn traces across sessions (`list()`); every filter is optional. */
export interface TurnTraceQuery {
  /** One turn's id. */
  turn?: string;
  /** A session's name. */
  session?: string;
  /** Traces in which this tool was called. */
  tool?: string;
  outcome?: 'success' | 'failure';
  /** ISO 8601: turns started at or after `since`, and before `until`. */
  since?: string;
  until?: string;
  /** Only runs by hand (true) or only turns (false). */
  byHand?: boolean;
  /** At most this many, newest first (default 50; at most MAX_TURN_TRACES). */
  limit?: number;
}

/** A trace in a list: everything but its spans, with its session's name and the figures a list shows. */
export interface TurnTraceSummary extends Omit<TurnTrace, 'spans'> {
  /** The session's name; empty for a run by hand. */
  session: string;
  modelRequests: number;
  toolCalls: number;
}

/** A whole turn trace with its session's name (empty for a run by hand). */
export type StoredTurnTrace = TurnTrace & { session: string };

/** How long an ended task is kept when it names no `ttlMs` of its own, and how many ended tasks at most. */
export interface TaskRetention {
  ttlMs: number;
  maxEnded: number;
}

/** Tokens as kept: the server's, with when they were saved and (from `expires_in`) when they expire. */
export interface KeptTokens {
  tokens: StoredOAuthTokens;
  savedAt: number;
  /** Milliseconds since the epoch; absent when the server gave no `expires_in`. */
  expiresAt?: number;
}

export type OAuthClient = StoredOAuthClientInformation;
