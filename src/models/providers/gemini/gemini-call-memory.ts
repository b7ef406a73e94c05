/**
 * What a Gemini function call came with that a ChatMessage has no field for: its thought
 * signature (Gemini 3 rejects history whose calls lost theirs) and whether its id was the
 * server's (then it goes back on the call and its response). Kept by call id for one model
 * object, the most recent `limit` calls.
 */
export class GeminiCallMemory {
  #calls = new Map<string, { signature: string | undefined; serverId: boolean }>();
  #limit: number;

  constructor(limit = 1000) {
    this.#limit = limit;
  }

  remember(id: string, signature: string | undefined, serverId: boolean): void {
    this.#calls.delete(id);
    this.#calls.set(id, { signature, serverId });
    if (this.#calls.size > this.#limit) this.#calls.delete(this.#calls.keys().next().value!);
  }

  /** The call came from this model object (and is still remembered). */
  has(id: string): boolean {
    return this.#calls.has(id);
  }

  signature(id: string): string | undefined {
    return this.#calls.get(id)?.signature;
  }

  isServerId(id: string): boolean {
    return this.#calls.get(id)?.serverId === true;
  }
}
