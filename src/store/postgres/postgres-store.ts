import type { Language } from '../../core/language.ts';
import type { TraceContext } from '../../core/trace-context.ts';
import type { ChatMessage } from '../../models/chat-message.ts';
import type { ContentPart } from '../../tools/content-part.ts';
import { handRunTrace } from '../hand-run-trace.ts';
import {
  DEFAULT_TRACE_RETENTION,
  type SessionInfo,
  type SessionSummary,
  type StoredTrace,
  type ToolCallQuery,
  type TraceQuery,
} from '../store-records.ts';
import type { QuestionRepository, Store, StoreOptions, TaskInputRepository } from '../store.ts';
import type { ToolCallTrace } from '../tool-call-trace.ts';
import type { ToolStats, ToolStatsQuery } from '../tool-call-stats.ts';
import type { HandRunVia, TurnTrace } from '../turn-trace.ts';
import { PgApprovals } from './pg-approvals.ts';
import { QuestionTable } from '../question-store.ts';
import { TaskInputTable } from '../task-input-store.ts';
import { pgPortableSql } from './pg-portable-sql.ts';
import type { PgDatabase } from './pg-database.ts';
import { PgEvents } from './pg-events.ts';
import { PgOAuthTokens } from './pg-oauth-tokens.ts';
import { PgRunningTurns } from './pg-running-turns.ts';
import { pgSharedSecret } from './pg-shared-secret.ts';
import { redactUrl } from './pg-pool.ts';
import { PgResponses } from './pg-responses.ts';
import { HAND_RUNS_ID, PgSessions } from './pg-sessions.ts';
import { PgTasks } from './pg-tasks.ts';
import { PgToolCalls, toolCallRow } from './pg-tool-calls.ts';
import { PgToolSwitches } from './pg-tool-switches.ts';
import { PgTurnTraces } from './pg-turn-traces.ts';

/**
 * The store in a PostgreSQL database shared by replicas: the parts, one file each, over one bounded
 * pool (pg-pool.ts). Opened, migrated and waited for by `openPostgresStore`. Every call that reaches
 * the database fails, when it does, with the StoreError a turn maps to `store-failed`; the pool
 * makes new connections when the database returns.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly where: string;
  readonly approvals: PgApprovals;
  readonly questions: QuestionRepository;
  readonly taskInputs: TaskInputRepository;
  readonly responses: PgResponses;
  readonly turnTraces: PgTurnTraces;
  readonly tasks: PgTasks;
  readonly toolSwitches: PgToolSwitches;
  readonly oauth: PgOAuthTokens;
  readonly events: PgEvents;
  readonly runningTurns: PgRunningTurns;
  readonly #db: PgDatabase;
  readonly #sessions: PgSessions;
  readonly #toolCalls: PgToolCalls;
  #closing: Promise<void> | undefined;

  constructor(db: PgDatabase, url: string, options: StoreOptions = {}) {
    this.#db = db;
    this.where = redactUrl(url);
    this.#sessions = new PgSessions(db);
    this.#toolCalls = new PgToolCalls(db, HAND_RUNS_ID);
    this.approvals = new PgApprovals(db);
    const portable = pgPortableSql(db);
    this.questions = new QuestionTable(portable);
    this.taskInputs = new TaskInputTable(portable);
    this.responses = new PgResponses(db);
    this.tasks = new PgTasks(db);
    this.events = new PgEvents(db, url);
    this.toolSwitches = new PgToolSwitches(db, this.events);
    this.oauth = new PgOAuthTokens(db);
    this.runningTurns = new PgRunningTurns(db);
    this.turnTraces = new PgTurnTraces({
      db,
      handRunsId: HAND_RUNS_ID,
      retention: { ...DEFAULT_TRACE_RETENTION, ...options.traceRetention },
      onSessionGone: () => this.#sessions.forgetIds(),
      ...(options.onTraceError === undefined ? {} : { onError: options.onTraceError }),
      ...(options.traceBatchMs === undefined ? {} : { batchMs: options.traceBatchMs }),
    });
  }

  session(name: string): Promise<SessionInfo> {
    return this.#sessions.session(name);
  }

  sessionId(name: string): Promise<string> {
    return this.#sessions.sessionId(name);
  }

  findSession(name: string): Promise<SessionInfo | undefined> {
    return this.#sessions.findSession(name);
  }

  listSessions(): Promise<SessionSummary[]> {
    return this.#sessions.listSessions();
  }

  renameSession(from: string, to: string): Promise<SessionInfo | undefined> {
    return this.#sessions.renameSession(from, to);
  }

  deleteSession(name: string): Promise<boolean> {
    return this.#sessions.deleteSession(name);
  }

  setLanguage(sessionId: string, language: Language | undefined): Promise<void> {
    return this.#sessions.setLanguage(sessionId, language);
  }

  sharedSecret(name: string): Promise<Buffer> {
    return pgSharedSecret(this.#db, name);
  }

  appendMessages(sessionId: string, messages: readonly ChatMessage[], turnId?: string): Promise<void> {
    return this.#sessions.appendMessages(sessionId, messages, turnId);
  }

  messages(sessionId: string): Promise<ChatMessage[]> {
    return this.#sessions.messages(sessionId);
  }

  messageTurns(sessionId: string): Promise<(string | null)[]> {
    return this.#sessions.messageTurns(sessionId);
  }

  async recordToolCall(trace: ToolCallTrace): Promise<void> {
    // What a turn queued is written first: the calls' rows stay in the order they ran.
    await this.turnTraces.flush();
    await this.#toolCalls.record(trace);
  }

  queueToolCall(trace: ToolCallTrace): void {
    this.turnTraces.queueToolCall(toolCallRow(trace));
  }

  async recordHandRun(
    trace: Omit<ToolCallTrace, 'sessionId'>,
    via: HandRunVia = 'api',
    content?: readonly ContentPart[],
    parent?: TraceContext,
  ): Promise<TurnTrace> {
    await this.#sessions.ensureHandRuns();
    await this.recordToolCall({ ...trace, sessionId: HAND_RUNS_ID });
    const turn = handRunTrace({ ...trace, sessionId: HAND_RUNS_ID }, via, content, parent);
    this.turnTraces.queue(turn);
    return turn;
  }

  async toolCalls(sessionId: string, options: ToolCallQuery = {}): Promise<ToolCallTrace[]> {
    await this.turnTraces.flush();
    return await this.#toolCalls.ofSession(sessionId, options);
  }

  async toolStats(query: ToolStatsQuery = {}): Promise<ToolStats> {
    await this.turnTraces.flush();
    return await this.#toolCalls.stats(query);
  }

  async traces(query: TraceQuery = {}): Promise<StoredTrace[]> {
    await this.turnTraces.flush();
    return await this.#toolCalls.traces(query);
  }

  /** Writes what is queued, stops listening, and ends the pool; a second call waits for the first. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.turnTraces.close();
      await this.events.close();
      await this.#db.close();
    })();
    return this.#closing;
  }
}
