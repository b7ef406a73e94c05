import type { ToolDefinition } from '../models/chat-model.ts';
import type { Dialect } from '../schema/dialect.ts';
import type { ClientToolSet } from './client-tools.ts';
import type { OfferedTools } from './offered-tools.ts';

/** The tools a turn shows the model: ours (OfferedTools), then the caller's. */
export class TurnTools {
  readonly offered: OfferedTools;
  readonly client: ClientToolSet | undefined;
  #definitions: readonly ToolDefinition[];
  /** Ours as last read: the same array every round until find_tools adds to it. */
  #offered: readonly ToolDefinition[];

  constructor(offered: OfferedTools, dialect: Dialect | undefined, client: ClientToolSet | undefined) {
    this.offered = offered;
    this.client = client;
    this.#offered = offered.definitions(dialect);
    this.#definitions = client === undefined ? this.#offered : [...this.#offered, ...client.definitions];
  }

  /** What the model is shown. */
  get definitions(): readonly ToolDefinition[] {
    return this.#definitions;
  }

  get any(): boolean {
    return this.#definitions.length > 0;
  }

  /** Read before every request: the same tools every round, unless find_tools found more (or the mode changed). */
  refresh(dialect: Dialect | undefined): void {
    const current = this.offered.definitions(dialect);
    if (current === this.#offered) return;
    this.#offered = current;
    this.#definitions = this.client === undefined ? current : [...current, ...this.client.definitions];
  }
}
