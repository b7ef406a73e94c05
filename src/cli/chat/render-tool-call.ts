import type { ToolCallRecord } from '../../assistant/turn-events.ts';
import { jsonText } from '../../models/json-text.ts';

/** One line per tool call with its outcome: `⚙ weather {"city":"Tokyo"} ✓ 0.12 s` or `✗ timeout: …`. */
export function renderToolCall(call: ToolCallRecord, width = 100): string {
  const params = typeof call.params === 'string' ? call.params : jsonText(call.params);
  const seconds = `${(call.durationMs / 1000).toFixed(2)} s`;
  const outcome = call.result.success
    ? `✓ ${seconds}`
    : `✗ ${call.result.code ?? 'failed'}: ${firstLine(call.result.error ?? '')} (${seconds})`;
  return clip(`⚙ ${call.tool} ${params} ${outcome}`, width);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function clip(text: string, width: number): string {
  // A terminal that does not say its size (0 columns: some ptys, CI) gets the whole line.
  if (!(width > 0) || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}
