import type { ApprovalRecord } from '../store/store-records.ts';
import type { Store } from '../store/store.ts';
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
  readonly #store: Store;
  readonly #events: ServerEvents;
  readonly #timer: NodeJS.Timeout;
  /** The pending approvals seen at the last look, by id. */
  #seen = new Map<string, ApprovalRecord>();

  #looking = false;

  constructor(store: Store, events: ServerEvents, watchMs = WATCH_MS) {
    this.#store = store;
    this.#events = events;
    this.#timer = setInterval(() => {
      // A slow store: one look at a time.
      if (this.#looking) return;
      this.#looking = true;
      void this.look().finally(() => (this.#looking = false));
    }, watchMs);
    this.#timer.unref();
  }

  /** Reads the pending approvals and publishes what changed since the last look. */
  async look(): Promise<void> {
    let pending: ApprovalRecord[];
    try {
      pending = await this.#store.approvals.pending();
    } catch {
      return; // the store is failing or closed: the next look tries again
    }
    const now = new Map(pending.map((record) => [record.id, record]));
    for (const [id, record] of now)
      if (!this.#seen.has(id) && this.#events.size > 0)
        this.#events.publish('approval-request', {
          approvalId: id,
          sessionId: record.sessionId,
          session: await this.#sessionName(record.sessionId),
          callId: record.callId,
          tool: record.tool,
          params: record.params,
          expiresAt: record.expiresAt,
        });
    for (const [id, record] of this.#seen) {
      if (now.has(id) || this.#events.size === 0) continue;
      const settled = await this.#get(id);
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

  async #get(id: string): Promise<ApprovalRecord | undefined> {
    return this.#store.approvals.get(id).catch(() => undefined);
  }

  async #sessionName(sessionId: string): Promise<string | undefined> {
    const sessions = await this.#store.listSessions().catch(() => []);
    return sessions.find((session) => session.id === sessionId)?.name;
  }
}

/** The decision as the chat's `approval-answered` names it. */
function decisionOf(record: ApprovalRecord | undefined): string {
  if (record?.status === 'approved') return record.always ? 'always' : 'approved';
  if (record?.status === 'timed-out') return 'approval-timeout';
  return record?.status ?? 'denied';
}
