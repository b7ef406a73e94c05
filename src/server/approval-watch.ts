import type { ApprovalRecord } from '../store/approval-store.ts';
import type { SessionStore } from '../store/session-store.ts';
import type { ServerEvents } from './server-events.ts';

/** How often the store's pending approvals are read: an approval asked on another replica shows within this. */
const WATCH_MS = 500;

/**
 * Every approval waiting in the store, whichever replica's turn asked it, on this replica's
 * `/api/events`: `approval-request` when one appears, `approval-answered` when it is settled (by
 * an answer given to any replica, or its time limit). The store is the one thing replicas share,
 * so it is read (one indexed query per WATCH_MS) rather than told: a person watching replica B
 * sees, and can answer, the call a turn on replica A waits on.
 */
export class ApprovalWatch {
  readonly #store: SessionStore;
  readonly #events: ServerEvents;
  readonly #timer: NodeJS.Timeout;
  /** The pending approvals seen at the last look, by id. */
  #seen = new Map<string, ApprovalRecord>();

  constructor(store: SessionStore, events: ServerEvents, watchMs = WATCH_MS) {
    this.#store = store;
    this.#events = events;
    this.#timer = setInterval(() => this.look(), watchMs);
    this.#timer.unref();
  }

  /** Reads the pending approvals and publishes what changed since the last look. */
  look(): void {
    let pending: ApprovalRecord[];
    try {
      pending = this.#store.approvals.pending();
    } catch {
      return; // the store is failing or closed: the next look tries again
    }
    const now = new Map(pending.map((record) => [record.id, record]));
    for (const [id, record] of now)
      if (!this.#seen.has(id) && this.#events.size > 0)
        this.#events.publish('approval-request', {
          approvalId: id,
          sessionId: record.sessionId,
          session: this.#sessionName(record.sessionId),
          callId: record.callId,
          tool: record.tool,
          params: record.params,
          expiresAt: record.expiresAt,
        });
    for (const [id, record] of this.#seen) {
      if (now.has(id) || this.#events.size === 0) continue;
      const settled = this.#get(id);
      this.#events.publish('approval-answered', {
        approvalId: id,
        sessionId: record.sessionId,
        callId: record.callId,
        tool: record.tool,
        decision: decisionOf(settled),
      });
    }
    this.#seen = now;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #get(id: string): ApprovalRecord | undefined {
    try {
      return this.#store.approvals.get(id);
    } catch {
      return undefined;
    }
  }

  #sessionName(sessionId: string): string | undefined {
    try {
      return this.#store.listSessions().find((session) => session.id === sessionId)?.name;
    } catch {
      return undefined;
    }
  }
}

/** The decision as the chat's `approval-answered` names it. */
function decisionOf(record: ApprovalRecord | undefined): string {
  if (record?.status === 'approved') return record.always ? 'always' : 'approved';
  if (record?.status === 'timed-out') return 'approval-timeout';
  return record?.status ?? 'denied';
}
