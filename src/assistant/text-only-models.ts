import type { ChatModel } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';

/**
 * The models that refused native tools (a 400 saying they have no function calling): their turns
 * use the text protocol from then on, unless `toolCalling` is set. Kept by whoever owns the turns
 * (each Assistant has one), so that one owner's finding does not change another's turns.
 */
export class TextOnlyModels {
  readonly #ids = new Set<string>();

  has(model: ChatModel): boolean {
    return this.#ids.has(model.id);
  }

  add(model: ChatModel): void {
    this.#ids.add(model.id);
  }

  /**
   * For a turn run without one: the memory of the model object itself, so that its next turn
   * does not ask in vain again, and which goes with the object.
   */
  static of(model: ChatModel): TextOnlyModels {
    let memory = ofModel.get(model);
    if (memory === undefined) ofModel.set(model, (memory = new TextOnlyModels()));
    return memory;
  }
}

const ofModel = new WeakMap<ChatModel, TextOnlyModels>();

/** Servers say this in a 400 when a model has no function calling (Ollama: "… does not support tools"). */
export function rejectsNativeTools(error: unknown): boolean {
  return (
    error instanceof ModelError &&
    error.code === 'bad-request' &&
    /does not support tools|tools? (?:is|are) not supported|function calling is not (?:supported|enabled)/i.test(
      error.message,
    )
  );
}
