/** `routing:` in riverse.yaml: when and how a turn offers the model only some of the tools. */
export interface RoutingSettings {
  /**
   * The most tokens the tool definitions of one request may take (default 4,000). A catalog
   * within both limits is offered whole; a larger one is routed.
   */
  max_tool_tokens?: number;
  /** The most tools offered in one request (default 16). */
  max_tools?: number;
  /** Tools offered in every turn whatever the request, when they are available. */
  pinned?: string[];
  /** The semantic stage: an OpenAI-compatible embeddings endpoint, fused with the lexical ranking. */
  embeddings?: EmbeddingsSettings | null;
}

export interface EmbeddingsSettings {
  /** The embedding model's name at the endpoint. */
  model?: string;
  /** Up to `/v1` (default https://api.openai.com/v1). */
  base_url?: string;
  api_key?: string;
  /** Per request, in ms (default 30 000). */
  timeout_ms?: number;
}

/** What of riverse.yaml the router reads. */
export interface RoutingConfig {
  routing?: RoutingSettings | null;
}

/**
 * About 35 definitions of a typical size: past a few dozen, models pick worse and every step pays
 * for them again.
 */
export const DEFAULT_MAX_TOOL_TOKENS = 4_000;
export const DEFAULT_MAX_TOOLS = 16;
