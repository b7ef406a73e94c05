import type { LocalizedText } from '../core/language.ts';
import { toolSection, turnedOff, type AppConfig } from './app-config.ts';
import type { ToolContext } from './tool-context.ts';
import type { ToolManifest } from './tool-manifest.ts';
import type { ToolResult } from './tool-result.ts';

/** Marks the base class; found through the prototype chain, so it works across copies of the package. */
const BASE_TOOL = Symbol.for('riverse.BaseTool');
/** Marks the default isAvailable(), which reads only the config: a tool that keeps it can be cached with the config as key. */
const DEFAULT_AVAILABILITY = Symbol.for('riverse.BaseTool.defaultIsAvailable');

/**
 * A drop-in tool. Extend it in a file in `agent/tools/`, export the class, and the registry
 * finds it: nothing else registers it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a tool without a Params type reads its parameters untyped, as the seed does
export abstract class BaseTool<Params extends object = Record<string, any>> {
  static readonly [BASE_TOOL] = true;
  readonly config: AppConfig;
  #unavailableReason: LocalizedText | undefined;

  constructor(config: AppConfig) {
    this.config = config;
  }

  abstract manifest(): ToolManifest;

  abstract execute(params: Params, context: ToolContext): ToolResult | Promise<ToolResult>;

  /** False keeps the tool out of the registry. By default: unless `tools.<name>.enabled` is false. */
  isAvailable(): boolean | Promise<boolean> {
    return !turnedOff(toolSection(this.config, this.manifest().name));
  }

  static {
    Object.defineProperty(BaseTool.prototype.isAvailable, DEFAULT_AVAILABILITY, { value: true });
  }

  /**
   * Call from `isAvailable()` to say why the tool is off: `return this.unavailable('set tools.x.key')`,
   * or one text per language (`{ en, zh, ja }`), shown in the reader's.
   */
  protected unavailable(reason: LocalizedText): false {
    this.#unavailableReason = reason;
    return false;
  }

  /** The reason given to `unavailable()`, if any. */
  get unavailableReason(): LocalizedText | undefined {
    return this.#unavailableReason;
  }
}

export type ToolClass = new (config: AppConfig) => BaseTool;

/** True for a class that extends BaseTool (any copy of it), but not for BaseTool itself. */
export function isToolClass(value: unknown): value is ToolClass {
  return (
    typeof value === 'function' &&
    (value as unknown as Record<symbol, unknown>)[BASE_TOOL] === true &&
    !Object.hasOwn(value, BASE_TOOL)
  );
}

/** True when the tool decides its availability with code of its own (not only from the config). */
export function hasOwnAvailability(tool: BaseTool): boolean {
  return (tool.isAvailable as unknown as Record<symbol, unknown>)[DEFAULT_AVAILABILITY] !== true;
}
