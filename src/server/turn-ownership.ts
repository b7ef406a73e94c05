import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RunningTurn } from '../store/store-records.ts';
import type { Store } from '../store/store.ts';
import { traceHex } from '../store/turn-trace.ts';

/** How often a replica tells the store it is alive, and looks for the turns of replicas that are not. */
const HEARTBEAT_MS = 2_000;
/** A replica silent this long is taken for dead: five heartbeats missed (a pause of the event loop is not a death). */
const STALE_MS = 10_000;

/** This process's replica id: host, pid and a random part (a pid is reused; a restart is a new replica). */
function newReplicaId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface TurnOwnershipOptions {
  id?: string;
  heartbeatMs?: number;
  staleMs?: number;
  /** Told of each turn this replica marked interrupted (its replica died), for the service's log. */
  onInterrupted?: (turn: RunningTurn, reason: string) => void;
  /** A store failure of the heartbeat or the sweep (the next beat tries again). */
  onError?: (error: unknown) => void;
}

/**
 * Which replica runs which session's turn, when several `riverse serve` share one store. A turn
 * claims its session before it starts (one turn per session across every replica: the claim is a
 * row of `running_turns`) and releases it when it ends; while it runs, its replica's heartbeat keeps
 * the row fresh. Every replica sweeps: a turn whose replica stopped beating for `staleMs` (or, on
 * this host, whose process is gone) is taken by exactly one sweeper and marked interrupted — its
 * calls left without a result get a trace saying so, which the conversation reads when it goes on
 * (from any replica), its questions end, and the turn gets a failed trace with the reason. Nothing is run again.
 */
export class TurnOwnership {
  readonly id: string;
  readonly #store: Store;
  readonly #staleMs: number;
  readonly #options: TurnOwnershipOptions;
  readonly #mine = new Set<string>();
  /** Claims whose release failed (the store was down): released at the next beat. */
  readonly #unreleased = new Set<string>();
  readonly #timer: NodeJS.Timeout;
  readonly #first: Promise<void>;

  constructor(store: Store, options: TurnOwnershipOptions = {}) {
    this.#store = store;
    this.#options = options;
    this.id = options.id ?? newReplicaId();
    this.#staleMs = options.staleMs ?? STALE_MS;
    // The turns a killed process of this host left are ended at once (no need to wait for staleness).
    this.#first = this.#tick();
    this.#timer = setInterval(() => void this.#tick(), options.heartbeatMs ?? HEARTBEAT_MS);
    this.#timer.unref();
  }

  /** Claims `sessionId` for a turn here; false when a turn of it runs already (here or on another replica). */
  async claim(sessionId: string): Promise<boolean> {
    const turns = this.#store.runningTurns;
    if (!(await turns.claim(sessionId, this.id))) {
      // A dead replica's claim does not keep the session busy longer than its sweep.
      const owner = await turns.owner(sessionId);
      if (owner === undefined) return false;
      // A claim of this replica whose release failed (the store was down when its turn ended) is void.
      const stale = owner.replica === this.id && !this.#mine.has(sessionId);
      if (stale) {
        if (!(await turns.take(owner))) return false;
      } else if (this.#alive(owner) || !(await this.#interrupt(owner))) return false;
      if (!(await turns.claim(sessionId, this.id))) return false;
      this.#unreleased.delete(sessionId);
    }
    this.#mine.add(sessionId);
    return true;
  }

  /** The turn has ended: its claim goes. Never throws: a release the store refused is tried again with the next beat. */
  async release(sessionId: string): Promise<void> {
    this.#mine.delete(sessionId);
    try {
      await this.#store.runningTurns.release(sessionId, this.id);
      this.#unreleased.delete(sessionId);
    } catch {
      this.#unreleased.add(sessionId);
    }
  }

  /** Whether `sessionId`'s turn runs on another replica that is alive (its approvals are answered there). */
  async runsElsewhere(sessionId: string): Promise<boolean> {
    const owner = await this.#store.runningTurns.owner(sessionId);
    return owner !== undefined && owner.replica !== this.id && this.#alive(owner);
  }

  /** Marks every dead replica's turn interrupted now; the turns it took. */
  async sweep(): Promise<RunningTurn[]> {
    const taken: RunningTurn[] = [];
    for (const turn of await this.#store.runningTurns.list())
      if (!this.#alive(turn) && (await this.#interrupt(turn))) taken.push(turn);
    return taken;
  }

  /** Stops the heartbeat and gives up this replica's claims (its turns are ending with the service). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    for (const sessionId of [...this.#mine]) await this.release(sessionId);
  }

  /** Resolves once the sweep at start is done (the turns a killed process of this host left are interrupted). */
  get started(): Promise<void> {
    return this.#first;
  }

  async #tick(): Promise<void> {
    try {
      if (this.#mine.size > 0) await this.#store.runningTurns.beat(this.id);
      for (const sessionId of [...this.#unreleased]) if (!this.#mine.has(sessionId)) await this.release(sessionId);
      await this.sweep();
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  #alive(turn: RunningTurn): boolean {
    if (turn.replica === this.id) return true;
    const [host, pid] = turn.replica.split(':');
    if (host === hostname() && pid !== undefined && !processRuns(Number(pid))) return false;
    return Date.now() - turn.heartbeatAt < this.#staleMs;
  }

  /** Takes `turn` from its dead replica and records why it ended; false when another replica took it first. */
  async #interrupt(turn: RunningTurn): Promise<boolean> {
    const store = this.#store;
    if (!(await store.runningTurns.take(turn))) return false;
    const reason = `The replica running this turn (${turn.replica}) stopped mid-turn, last heard from at ${new Date(turn.heartbeatAt).toISOString()}; the turn was interrupted and nothing of it was run again.`;
    const turnId = await store.runningTurns.turnOf(turn);
    if (turnId !== undefined) {
      // Its questions wait for no one now: no replica takes an answer the turn will never read.
      await store.questions.endTurn(turn.sessionId, turnId);
      const now = Date.now();
      for (const call of await openCalls(store, turn.sessionId, turnId))
        await store.recordToolCall({
          sessionId: turn.sessionId,
          turnId,
          callId: call.id,
          tool: call.name,
          params: parsed(call.arguments),
          success: false,
          data: '',
          error: `${reason} Whether this call to ${call.name} ran is unknown; do not assume it did, and ask the person before trying it again.`,
          code: 'aborted',
          durationMs: 0,
          startedAt: new Date(now).toISOString(),
        });
      store.turnTraces.queue({
        id: turnId,
        traceId: traceHex(16),
        sessionId: turn.sessionId,
        startedAt: new Date(turn.startedAt).toISOString(),
        durationMs: Math.max(0, turn.heartbeatAt - turn.startedAt),
        outcome: 'failure',
        stopReason: 'interrupted',
        tools: [],
        spans: [
          {
            spanId: traceHex(8),
            kind: 'turn',
            name: 'invoke_agent',
            startMs: turn.startedAt,
            endMs: Math.max(turn.startedAt, turn.heartbeatAt),
            status: 'error',
            errorCode: 'replica-stopped',
            attributes: { 'riverse.replica': turn.replica, 'riverse.interrupted.reason': reason },
          },
        ],
      });
    }
    this.#options.onInterrupted?.(turn, reason);
    return true;
  }
}

/**
 * The calls of `turnId` the model asked for that have neither a result message nor a trace, nor an
 * approval still pending (that one can still be answered, and its trace then says what happened).
 */
async function openCalls(store: Store, sessionId: string, turnId: string) {
  const messages = await store.messages(sessionId);
  const turns = await store.messageTurns(sessionId);
  const answered = new Set((await store.toolCalls(sessionId, { turnId })).map((trace) => trace.callId));
  for (const approval of await store.approvals.pending())
    if (approval.turnId === turnId && approval.sessionId === sessionId) answered.add(approval.callId);
  const asked = [];
  for (const [index, message] of messages.entries()) {
    if (turns[index] !== turnId) continue;
    if (message.role === 'tool') answered.add(message.toolCallId);
    if (message.role === 'assistant' && message.toolCalls !== undefined) asked.push(...message.toolCalls);
  }
  return asked.filter((call) => !answered.has(call.id));
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
