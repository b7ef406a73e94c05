import { ANTHROPIC_TOOLS } from './providers/anthropic/anthropic-request.ts';
import { GEMINI_TOOLS } from './providers/gemini/gemini-request.ts';
import { LOCAL_TOOLS } from './providers/local/local-llama-prompt.ts';
import { OPENAI_STRICT_TOOLS, OPENAI_TOOLS } from './providers/openai/openai-request.ts';
import type { ProviderWireName } from './provider-wire-names.ts';
import type { ToolsWire } from './tools-wire.ts';

/**
 * How each adapter sends tools, by the name `riverse tools show --dialect` takes: what it prints is
 * what the adapter sends. Each adapter defines its own; this only names them.
 */
export const PROVIDER_WIRES = {
  openai: OPENAI_TOOLS,
  'openai-strict': OPENAI_STRICT_TOOLS,
  anthropic: ANTHROPIC_TOOLS,
  gemini: GEMINI_TOOLS,
  local: LOCAL_TOOLS,
} as const satisfies Record<ProviderWireName, ToolsWire>;
