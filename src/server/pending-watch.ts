import type { ApprovalRecord, QuestionRecord } from '../store/store-records.ts';
import type { Store } from '../store/store.ts';
import { shownQuestion } from '../assistant/approvals.ts';
import type { ServerEvents } from './server-events.ts';

/** How often the store's pending approvals and questions are read: one asked on another replica shows within this. */
const WATCH_MS = 500;

/** One kind of request that waits in the store for a person: how it is read, and the events that tell of it. */
interface WatchedKind<R extends { id: string; sessionId: string }> {
  pending(): Promise<R[]>;
  get(id: string): Promise<R | undefined>;
  asked: { event: string; data: (record: R, session: string | undefined) => Record<string, unknown> };
  settled: { event: string; data: (seen: R, now: R | undefined) => Record<string, unknown> };
}

/**
 * Every approval and question waiting in the store, whichever replica's turn (or task) asked it,
 * on this replica's `/api/events`: `approval-request` when one appears, `approval-answered` when it
 * is settled (by an answer given to any replica, or its time limit); `question-request` and
 * `question-answered` likewise. The store is the one thing replicas share, so it is read (one
 * indexed query per kind per WATCH_MS) rather than told: a person watching replica B sees, and can
 * answer, the call a turn on replica A waits on.
 */
export class PendingWatch {
  readonly #store: Store;
  readonly #events: ServerEvents;
  readonly #timer: NodeJS.Timeout;
  readonly #kinds: Array<{
    kind: WatchedKind<{ id: string; sessionId: string }>;
    seen: Map<string, { id: string; sessionId: string }>;
  }>;
  #looking = false;

  constructor(store: Store, events: ServerEvents, watchMs = WATCH_MS) {
    this.#store = store;
    this.#events = events;
    this.#kinds = [approvalKind(store), questionKind(store)].map((kind) => ({
      kind: kind as unknown as WatchedKind<{ id: string; sessionId: string }>,
      seen: new Map(),
    }));
    this.#timer = setInterval(() => {
      // A slow store: one look at a time.
      if (this.#looking) return;
      this.#looking = true;
      void this.look().finally(() => (this.#looking = false));
    }, watchMs);
    this.#timer.unref();
  }

  /** Reads what is pending and publishes what changed since the last look. */
  async look(): Promise<void> {
    for (const watched of this.#kinds) {
      const { kind, seen } = watched;
      let pending: { id: string; sessionId: string }[];
      try {
        pending = await kind.pending();
      } catch {
        continue; // the store is failing or closed: the next look tries again
      }
      const now = new Map(pending.map((record) => [record.id, record]));
      for (const [id, record] of now)
        if (!seen.has(id) && this.#events.size > 0)
          this.#events.publish(kind.asked.event, kind.asked.data(record, await this.#sessionName(record.sessionId)));
      for (const [id, record] of seen) {
        if (now.has(id) || this.#events.size === 0) continue;
        const settled = await kind.get(id).catch(() => undefined);
        this.#events.publish(kind.settled.event, kind.settled.data(record, settled));
      }
      watched.seen = now;
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #sessionName(sessionId: string): Promise<string | undefined> {
    const sessions = await this.#store.listSessions().catch(() => []);
    return sessions.find((session) => session.id === sessionId)?.name;
  }
}

function approvalKind(store: Store): WatchedKind<ApprovalRecord> {
  return {
    pending: () => store.approvals.pending(),
    get: (id) => store.approvals.get(id),
    asked: {
      event: 'approval-request',
      data: (record, session) => ({
        approvalId: record.id,
        sessionId: record.sessionId,
        session,
        callId: record.callId,
        tool: record.tool,
        params: record.params,
        expiresAt: record.expiresAt,
      }),
    },
    settled: {
      event: 'approval-answered',
      data: (seen, now) => ({
        approvalId: seen.id,
        sessionId: seen.sessionId,
        callId: seen.callId,
        tool: seen.tool,
        decision: decisionOf(now),
      }),
    },
  };
}

function questionKind(store: Store): WatchedKind<QuestionRecord> {
  return {
    pending: () => store.questions.pending(),
    get: (id) => store.questions.get(id),
    asked: {
      event: 'question-request',
      data: (record, session) => {
        const { kind: _, id, ...shown } = shownQuestion(record);
        return { questionId: id, session, ...shown };
      },
    },
    settled: {
      event: 'question-answered',
      data: (seen, now) => ({
        questionId: seen.id,
        sessionId: seen.sessionId,
        callId: seen.callId,
        tool: seen.tool,
        answered: now?.status === 'answered',
        status: now?.status ?? 'ended',
      }),
    },
  };
}

/** The decision as the chat's `approval-answered` names it. */
function decisionOf(record: ApprovalRecord | undefined): string {
  if (record?.status === 'approved') return record.always ? 'always' : 'approved';
  if (record?.status === 'timed-out') return 'approval-timeout';
  return record?.status ?? 'denied';
}
