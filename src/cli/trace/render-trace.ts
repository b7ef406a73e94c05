import type { TraceSpan, TurnTrace } from '../../store/turn-trace.ts';
import type { TraceText } from './trace-text.ts';
import type { TracePart } from '../../store/trace-parts.ts';
import { byteLength, formatSize } from '../../tools/result-content.ts';

/** The most of a text part `riverse trace` prints (the trace keeps more: `--json` has it whole). */
const PART_TEXT_CHARS = 200;

/** A turn's trace as a tree of lines, each span under its parent, in the order they started. */
export function renderTrace(trace: TurnTrace & { session: string }, text: TraceText): string {
  const when = trace.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const stop = trace.outcome === 'success' ? trace.stopReason : text.failed(trace.stopReason);
  const lines = [
    trace.byHand === undefined
      ? text.turn(trace.id, trace.session, when, duration(trace.durationMs), stop)
      : text.handRun(trace.id, trace.byHand, when, duration(trace.durationMs), stop),
  ];
  const children = new Map<string | undefined, TraceSpan[]>();
  for (const span of trace.spans) {
    const list = children.get(span.parentId) ?? [];
    list.push(span);
    children.set(span.parentId, list);
  }
  const walk = (parentId: string, indent: string) => {
    const list = children.get(parentId) ?? [];
    list.forEach((span, index) => {
      const last = index === list.length - 1;
      lines.push(`${indent}${last ? '└─ ' : '├─ '}${spanLine(span, text)}`);
      const inner = `${indent}${last ? '   ' : '│  '}`;
      // A call's parts first, under it: type and size, a text part's text cut short.
      const parts = span.parts ?? [];
      const more = (children.get(span.spanId) ?? []).length > 0;
      parts.forEach((part, at) => {
        const end = at === parts.length - 1 && !more;
        lines.push(`${inner}${end ? '└─ ' : '├─ '}${partLine(part, at + 1, text)}`);
      });
      walk(span.spanId, inner);
    });
  };
  const root = trace.spans.find((span) => span.parentId === undefined);
  if (root !== undefined) walk(root.spanId, '');
  return `${lines.join('\n')}\n`;
}

function spanLine(span: TraceSpan, text: TraceText): string {
  const a = span.attributes;
  const took = duration(span.endMs - span.startMs);
  const outcome = span.status === 'ok' ? text.ok : text.failed(span.errorCode ?? 'error');
  const parts: string[] = [span.name];
  switch (span.kind) {
    case 'routing': {
      const names = Array.isArray(a['riverse.routing.offered']) ? a['riverse.routing.offered'].join(', ') : '';
      parts.push(
        text.offered(Number(a['riverse.routing.offered_count'] ?? 0), names, a['riverse.routing.routed'] === true),
      );
      break;
    }
    case 'model-request': {
      parts.push(text.request(Number(a['riverse.request'] ?? 1), Number(a['riverse.attempt'] ?? 1)), took);
      if (typeof a['riverse.retry_delay_ms'] === 'number')
        parts.push(text.retryDelay(duration(a['riverse.retry_delay_ms'])));
      if (typeof a['riverse.time_to_first_token_ms'] === 'number')
        parts.push(text.firstToken(duration(a['riverse.time_to_first_token_ms'])));
      const input = a['gen_ai.usage.input_tokens'];
      const output = a['gen_ai.usage.output_tokens'];
      if (input !== undefined || output !== undefined) {
        const cached = a['gen_ai.usage.cache_read.input_tokens'];
        parts.push(
          text.tokens(String(input ?? '?'), String(output ?? '?'), cached === undefined ? undefined : String(cached)),
        );
      }
      const finish = a['gen_ai.response.finish_reasons'];
      parts.push(span.status === 'ok' && Array.isArray(finish) ? text.stop(finish.join(', ')) : outcome);
      break;
    }
    case 'tool-call': {
      const run = a['riverse.duration_ms'];
      parts.push(String(a['gen_ai.tool.call.id'] ?? ''), typeof run === 'number' ? duration(run) : took, outcome);
      if (typeof a['riverse.result.chars'] === 'number') parts.push(text.chars(a['riverse.result.chars']));
      if (typeof a['riverse.isolation'] === 'string') parts.push(text.isolation(a['riverse.isolation']));
      const found = a['riverse.find_tools.found'];
      if (Array.isArray(found)) parts.push(found.length === 0 ? text.nothingFound : text.found(found.join(', ')));
      break;
    }
    case 'approval':
      parts.push(text.waited(took, String(a['riverse.approval.decision'] ?? span.errorCode ?? '?')));
      break;
    default:
      parts.push(took, outcome);
  }
  return parts.filter((part) => part !== '').join(' · ');
}

/** One part of a call's result as the trace kept it: its type, its size, a text part's text (cut, on one line). */
function partLine(part: TracePart, index: number, text: TraceText): string {
  const head = text.part(index, part.type);
  if ('omitted' in part)
    return [head, part.uri ?? '', part.mimeType ?? '', formatSize(part.bytes), text.notKept]
      .filter((item) => item !== '')
      .join(' · ');
  if (part.type === 'text') return [head, text.chars(part.chars ?? part.text.length), quoted(part.text)].join(' · ');
  if ('data' in part) return [head, part.mimeType, formatSize(byteLength(part.data))].join(' · ');
  const size =
    part.text !== undefined ? text.chars(part.chars ?? part.text.length) : formatSize(byteLength(part.blob ?? ''));
  return [head, part.uri, part.mimeType ?? '', size, part.text === undefined ? '' : quoted(part.text)]
    .filter((item) => item !== '')
    .join(' · ');
}

/** A text on one line, at most PART_TEXT_CHARS characters, quoted. */
function quoted(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length <= PART_TEXT_CHARS ? line : `${line.slice(0, PART_TEXT_CHARS - 1)}…`);
}

/** A duration as a person reads it: ms below a second, else seconds to a hundredth. */
function duration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(2)} s`;
}
