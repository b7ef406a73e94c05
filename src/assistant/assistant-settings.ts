import type { Language } from '../core/language.ts';

/** `assistant:` in riverse.yaml: AssistantOptions in the file's spelling. */
export interface AssistantSettings {
  /** Model requests with tools in one turn before the last one must answer (6). */
  max_rounds?: number;
  /** Tokens of history kept for a turn. */
  history_tokens?: number;
  /** How long a turn may take, model requests and tools together, in ms (300 000). */
  turn_timeout_ms?: number;
  /** How long a call waits for a person's approval before it counts as a denial, in ms (120 000). */
  approval_timeout_ms?: number;
  /** Calls of one reply running at once (4 a core, 8 to 64). */
  max_parallel_calls?: number;
}

/** What of riverse.yaml the assistant reads. */
export interface AssistantConfig {
  /** A fixed language, or `auto` (default): the language of each user message. */
  language?: Language | 'auto';
  assistant?: AssistantSettings | null;
}

/** The turn limits `assistant:` sets, as Assistant options (those left out keep their defaults). */
export function assistantLimits(settings: AssistantSettings | null | undefined): {
  maxRounds?: number;
  historyTokens?: number;
  turnTimeoutMs?: number;
  approvalTimeoutMs?: number;
  maxParallelCalls?: number;
} {
  return {
    ...(settings?.max_rounds === undefined ? {} : { maxRounds: settings.max_rounds }),
    ...(settings?.history_tokens === undefined ? {} : { historyTokens: settings.history_tokens }),
    ...(settings?.turn_timeout_ms === undefined ? {} : { turnTimeoutMs: settings.turn_timeout_ms }),
    ...(settings?.approval_timeout_ms === undefined ? {} : { approvalTimeoutMs: settings.approval_timeout_ms }),
    ...(settings?.max_parallel_calls === undefined ? {} : { maxParallelCalls: settings.max_parallel_calls }),
  };
}
