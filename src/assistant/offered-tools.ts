import type { ToolDefinition } from '../models/chat-model.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import type { Dialect } from '../schema/dialect.ts';
import { DEFAULT_MAX_TOOL_TOKENS, DEFAULT_MAX_TOOLS, type RoutingSettings } from '../routing/routing-settings.ts';
import { fitsWhole, selectTools, type Budget, type Priced } from '../routing/select-tools.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import type { JsonSchema } from '../tool-runtime/parameter-schema.ts';
import type { RegisteredTool } from '../tool-runtime/registered-tool.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import type { Language } from '../core/language.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { cachedToolDefinitions, toolDefinition } from './tool-definitions.ts';
import { estimateTokens } from './trim-history.ts';

/** The router a turn uses, and its budget (riverse.yaml `routing:`). */
export interface TurnRouting {
  /** The router, or how to get it: made on the first turn that routes (a catalog that fits whole needs none). */
  router: ToolRouter | (() => Promise<ToolRouter>);
  settings?: RoutingSettings | null;
}

/** The built-in tool a routed turn offers, to search the whole catalog when nothing offered fits. */
export const FIND_TOOLS = 'find_tools';
/** Tools one find_tools call adds at most: the best few, not a second catalog. */
const FOUND_PER_CALL = 5;
/** A search longer than this is cut: the words that matter come first. */
const MAX_QUERY_CHARS = 1_000;

/**
 * The tools one turn offers the model. A catalog within the budget (`routing.max_tool_tokens`,
 * `routing.max_tools`) is offered whole; a larger one is routed: the pinned tools and the most
 * relevant to the conversation, chosen once when the turn starts and kept for all its rounds, in
 * catalog order, plus `find_tools`. What `find_tools` finds is offered from the next round on;
 * a call to a tool that is not offered is refused, so every tool the model calls is one it was
 * shown, with the schema its arguments are checked against.
 */
export class OfferedTools {
  readonly routed: boolean;
  readonly #registry: ToolRegistry;
  readonly #language: Language;
  #router: ToolRouter | undefined;
  readonly #offered = new Set<string>();
  readonly #catalog: Priced[];
  readonly #budget: Budget;
  #found = 0;
  #definitions = new Map<string, ToolDefinition[]>();

  /**
   * The tools for a turn: the whole catalog, or (routed) those `conversation` calls for — ranked
   * lexically, and fused with the semantic stage when the router has one.
   */
  static async choose(
    registry: ToolRegistry,
    language: Language,
    routing: TurnRouting | undefined,
    conversation: { latest: string; earlier: readonly string[] },
    signal?: AbortSignal,
  ): Promise<OfferedTools> {
    const offered = new OfferedTools(registry, language, routing);
    if (offered.routed) {
      const router = routing!.router;
      offered.#router = typeof router === 'function' ? await router() : router;
      offered.#router.sync(catalogTools(registry));
      await offered.#choose(conversation, signal);
    }
    return offered;
  }

  private constructor(registry: ToolRegistry, language: Language, routing: TurnRouting | undefined) {
    this.#registry = registry;
    this.#language = language;
    const settings = routing?.settings ?? {};
    const budget: Budget = {
      maxTokens: settings.max_tool_tokens ?? DEFAULT_MAX_TOOL_TOKENS,
      maxTools: settings.max_tools ?? DEFAULT_MAX_TOOLS,
      pinned: settings.pinned ?? [],
    };
    this.#budget = budget;
    this.#catalog = routing === undefined ? [] : pricedCatalog(registry, language);
    // A tool of the catalog named find_tools keeps its name; the catalog is then offered whole.
    this.routed = routing !== undefined && !fitsWhole(this.#catalog, budget) && registry.get(FIND_TOOLS) === undefined;
  }

  async #choose(
    conversation: { latest: string; earlier: readonly string[] },
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const budget = this.#budget;
    const findCost = estimateTokens(JSON.stringify(this.#findDefinition(undefined)));
    // Deeper than the budget: a tool too large for what is left is passed over for the next.
    const ranked = (
      await this.#router!.rankFused(conversation.latest, conversation.earlier, 2 * budget.maxTools, signal)
    ).map((hit) => hit.name);
    const room: Budget = {
      ...budget,
      maxTokens: Math.max(0, budget.maxTokens - findCost),
      maxTools: Math.max(1, budget.maxTools - 1),
    };
    for (const name of selectTools(this.#catalog, ranked, room)) this.#offered.add(name);
  }

  /** The definitions to send, the same array for every round until find_tools adds to it. */
  definitions(dialect: Dialect | undefined): readonly ToolDefinition[] {
    if (!this.routed) return cachedToolDefinitions(this.#registry, this.#language, dialect);
    const key = dialect ?? '';
    let definitions = this.#definitions.get(key);
    if (definitions === undefined) {
      const tools = catalogTools(this.#registry).filter((tool) => this.#offered.has(tool.name));
      definitions = [
        ...tools.map((tool) => toolDefinition(tool, this.#language, dialect)),
        this.#findDefinition(dialect),
      ];
      this.#definitions.set(key, definitions);
    }
    return definitions;
  }

  /** The tools offered now, in catalog order, find_tools last (a routed turn). */
  names(): string[] {
    // Routed: from the set, not from definitions built for no dialect (the turn's trace asks every turn).
    if (this.routed)
      return [
        ...catalogTools(this.#registry)
          .filter((tool) => this.#offered.has(tool.name))
          .map((tool) => tool.name),
        FIND_TOOLS,
      ];
    return this.definitions(undefined).map((definition) => definition.name);
  }

  /** Whether the model may call `name` now. */
  offers(name: string): boolean {
    return !this.routed || name === FIND_TOOLS || this.#offered.has(name);
  }

  /**
   * Runs a find_tools call: the whole catalog searched, the best tools not yet offered added from
   * the next round on (at most FOUND_PER_CALL a call, and max_tools in a turn).
   */
  async find(params: unknown, signal?: AbortSignal): Promise<CheckedToolResult> {
    const text = ASSISTANT_TEXT[this.#language];
    const query = typeof params === 'object' && params !== null ? (params as { query?: unknown }).query : undefined;
    if (typeof query !== 'string' || query.trim() === '')
      return { success: false, data: '', error: text.findToolsNeedsQuery, code: 'invalid-params' };
    const room = Math.min(FOUND_PER_CALL, this.#budget.maxTools - this.#found);
    const found: RegisteredTool[] = [];
    if (room > 0) {
      for (const hit of await this.#router!.searchFused(
        query.slice(0, MAX_QUERY_CHARS),
        this.#offered.size + room,
        signal,
      )) {
        const tool = this.#registry.get(hit.name);
        if (tool === undefined || this.#offered.has(hit.name)) continue;
        found.push(tool);
        if (found.length === room) break;
      }
    }
    if (found.length === 0) return { success: true, data: room > 0 ? text.findToolsNone : text.findToolsLimit };
    for (const tool of found) this.#offered.add(tool.name);
    this.#found += found.length;
    this.#definitions.clear();
    return {
      success: true,
      data: text.findToolsFound(
        found.map((tool) => ({ name: tool.name, description: toolDefinition(tool, this.#language).description })),
      ),
    };
  }

  #findDefinition(dialect: Dialect | undefined): ToolDefinition {
    const text = ASSISTANT_TEXT[this.#language];
    const schema: JsonSchema = {
      type: 'object',
      properties: { query: { type: 'string', description: text.findToolsQuery } },
      required: ['query'],
      additionalProperties: false,
    };
    return {
      name: FIND_TOOLS,
      description: text.findToolsDescription,
      parameters: dialect === undefined ? schema : (compileSchema(schema, dialect) as JsonSchema),
    };
  }
}

const catalogs = new WeakMap<ToolRegistry, RegisteredTool[]>();
const prices = new WeakMap<ToolRegistry, Map<Language, Priced[]>>();

/** The registry's tools in its order, listed once per registry (a registry never changes). */
function catalogTools(registry: ToolRegistry): RegisteredTool[] {
  let tools = catalogs.get(registry);
  if (tools === undefined) catalogs.set(registry, (tools = registry.tools()));
  return tools;
}

const toolPrices = new WeakMap<object, Map<Language, number>>();

/**
 * What each tool's definition costs in tokens, listed once per registry and language, and worked
 * out once per manifest: after a reload only the tools that changed are priced again.
 */
function pricedCatalog(registry: ToolRegistry, language: Language): Priced[] {
  let byLanguage = prices.get(registry);
  if (byLanguage === undefined) prices.set(registry, (byLanguage = new Map()));
  let priced = byLanguage.get(language);
  if (priced === undefined) {
    priced = catalogTools(registry).map((tool) => {
      let known = toolPrices.get(tool.manifest);
      if (known === undefined) toolPrices.set(tool.manifest, (known = new Map()));
      let tokens = known.get(language);
      if (tokens === undefined)
        known.set(language, (tokens = estimateTokens(JSON.stringify(toolDefinition(tool, language)))));
      return { name: tool.name, tokens };
    });
    byLanguage.set(language, priced);
  }
  return priced;
}
