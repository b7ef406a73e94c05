import { switchesToApply, withToolSwitches } from '../config/tool-switches.ts';
import type { RiverseConfig } from '../config/riverse-config.ts';
import type { Store } from '../store/store.ts';
import type { LiveToolRegistry } from '../tool-runtime/live-registry.ts';

/**
 * The dashboard's tool switches, the same on every replica: a switch set here is stored, then
 * applied; one set on another replica is heard from the store (`toolSwitches.watch`: a NOTIFY on
 * PostgreSQL, the file's data version on SQLite), read, and applied the same way — only those
 * tools' files reload (live-registry.ts), and the reload reaches this replica's `/api/events` as
 * `tools-changed`. One change at a time, so that two at once lose neither. A switch cleared in the
 * store (no route clears one) holds here until the next start.
 */
export class ToolSwitchSync {
  readonly #store: Store;
  readonly #tools: LiveToolRegistry;
  readonly #config: { config: RiverseConfig };
  readonly #onError: (error: unknown) => void;
  readonly #watching: Promise<(() => void) | undefined>;
  #editing: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** `config`: the service's, whose `config` this replaces with each switch applied. */
  constructor(
    store: Store,
    tools: LiveToolRegistry,
    config: { config: RiverseConfig },
    onError: (error: unknown) => void,
    pollMs?: number,
  ) {
    this.#store = store;
    this.#tools = tools;
    this.#config = config;
    this.#onError = onError;
    this.#watching = store.toolSwitches
      .watch(() => void this.follow(), pollMs)
      .then(
        (stop) => {
          if (this.#closed) stop();
          // What was switched between the start's read and the watch's beginning is not missed.
          else void this.follow();
          return stop;
        },
        (error: unknown) => {
          this.#onError(error);
          return undefined;
        },
      );
  }

  /** Stores one tool's switch and applies it here (the other replicas hear it from the store). */
  set(name: string, enabled: boolean): Promise<void> {
    return this.#serially(async () => {
      await this.#store.toolSwitches.set(name, enabled);
      await this.#apply(new Map([[name, enabled]]));
    });
  }

  /** Reads the stored switches and applies those this replica does not carry yet. */
  follow(): Promise<void> {
    return this.#serially(async () => this.#apply(await this.#store.toolSwitches.all())).catch(this.#onError);
  }

  async close(): Promise<void> {
    this.#closed = true;
    (await this.#watching)?.();
  }

  async #apply(switches: ReadonlyMap<string, boolean>): Promise<void> {
    const changed = switchesToApply(this.#config.config, switches);
    if (changed.size === 0 || this.#closed) return;
    const config = withToolSwitches(this.#config.config, changed);
    this.#config.config = config;
    await this.#tools.reconfigure(config);
  }

  #serially(edit: () => Promise<void>): Promise<void> {
    const next = this.#editing.then(edit);
    this.#editing = next.catch(() => {});
    return next;
  }
}
