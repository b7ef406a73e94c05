import type { ChatModel, FinishReason, Usage } from '../models/chat-model.ts';
import { traceHex, type SpanAttribute, type TraceSpan, type TurnTrace } from '../store/turn-trace.ts';
import { turnFailed, type TurnEvent, type TurnResult } from './turn-events.ts';

/** What a span is while it is open: the finished span's fields, `endMs` set when it closes. */
type OpenSpan = Omit<TraceSpan, 'endMs'> & { endMs?: number };

/**
 * Builds a turn's trace (src/store/turn-trace.ts) as the turn goes: tool calls, approvals and
 * retries from the turn's events (`event`), the model requests and the tools offered from the two
 * steps that know them (ask-model.ts, prepare-tools.ts, through `TurnOptions.tracer`). Cheap: a few
 * objects per request and per call, nothing written until the store's batch.
 */
export class TurnTracer {
  readonly #turn: OpenSpan;
  readonly #spans: OpenSpan[] = [];
  readonly #sessionId: string;
  readonly #turnId: string;
  readonly #startedAt: string;
  readonly #model: ChatModel;
  readonly #isolation: (tool: string) => string | undefined;
  readonly #calls = new Map<string, OpenSpan>();
  readonly #approvals = new Map<string, OpenSpan>();
  readonly #tools: string[] = [];
  #request: OpenSpan | undefined;
  /** Model requests of the turn (a round's, not its attempts), and the attempt within the current one. */
  #requests = 0;
  #attempt = 0;
  #sent = 0;
  #trace: TurnTrace | undefined;
  #offered: { now: () => string[]; before: Set<string> } | undefined;
  #names: { provider: string; model: string } | undefined;

  constructor(options: {
    turnId: string;
    sessionId: string;
    model: ChatModel;
    /** The isolation a tool runs in (`process`, `worker`, `none`), for its calls' spans. */
    isolation?: (tool: string) => string | undefined;
  }) {
    this.#turnId = options.turnId;
    this.#sessionId = options.sessionId;
    this.#model = options.model;
    this.#isolation = options.isolation ?? (() => undefined);
    this.#startedAt = new Date().toISOString();
    this.#turn = this.#open('turn', 'invoke_agent', undefined, { 'gen_ai.operation.name': 'invoke_agent' });
  }

  /**
   * The tools the turn offers: all of them, or (routed) the few chosen and find_tools; `offered`
   * tells what is offered later on, so that a find_tools call's finds are what it added.
   */
  routing(names: readonly string[], routed: boolean, offered: () => string[]): void {
    this.#offered = { now: offered, before: new Set(names) };
    const span = this.#open('routing', 'route_tools', this.#turn.spanId, {
      'riverse.routing.routed': routed,
      'riverse.routing.offered_count': names.length,
      'riverse.routing.offered': [...names],
    });
    span.endMs = span.startMs;
  }

  /** A model request is about to be sent: the first attempt of a new request, or the next attempt after a failure. */
  modelSend(): void {
    if (this.#request !== undefined) this.#close(this.#request, 'error', 'stream-cut');
    const retry = this.#attempt > 0;
    if (!retry) this.#requests++;
    this.#attempt++;
    this.#sent = performance.now();
    const { provider, model } = this.#modelName();
    this.#request = this.#open('model-request', `chat ${model}`, this.#turn.spanId, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      'riverse.request': this.#requests,
      'riverse.attempt': this.#attempt,
      'riverse.retry': retry,
    });
  }

  /** The adapter retries (429, 5xx, network): the attempt so far failed with `code`, and another follows. */
  modelRetry(code: string, delayMs: number): void {
    if (this.#request !== undefined) this.#close(this.#request, 'error', code);
    this.#request = undefined;
    // The adapter sends the next attempt itself (after `delayMs`, which this span includes), without `modelSend`.
    this.modelSend();
    this.#request!.attributes['riverse.retry_delay_ms'] = delayMs;
  }

  /** The first event of the reply (text, a call, the finish): the time to first token. */
  modelFirstEvent(): void {
    const span = this.#request;
    if (span === undefined || span.attributes['riverse.time_to_first_token_ms'] !== undefined) return;
    span.attributes['riverse.time_to_first_token_ms'] = tenth(performance.now() - this.#sent);
  }

  /** The reply came whole. */
  modelReply(finish: FinishReason, usage: Usage | undefined): void {
    const span = this.#request;
    if (span === undefined) return;
    span.attributes['gen_ai.response.finish_reasons'] = [finish];
    if (usage?.inputTokens !== undefined) span.attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
    if (usage?.outputTokens !== undefined) span.attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
    if (usage?.cachedInputTokens !== undefined)
      span.attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens;
    if (usage?.reasoningTokens !== undefined) span.attributes['riverse.usage.reasoning_tokens'] = usage.reasoningTokens;
    this.#close(span, 'ok');
    this.#endRequest();
  }

  /** The request failed for good (`code`: the ModelError's, or `internal`). */
  modelFailed(code: string): void {
    if (this.#request !== undefined) this.#close(this.#request, 'error', code);
    this.#endRequest();
  }

  /** Reads the turn's events: tool calls, approvals, find_tools' finds, the end. */
  event(event: TurnEvent): void {
    switch (event.type) {
      case 'tool-call': {
        if (!this.#tools.includes(event.tool)) this.#tools.push(event.tool);
        const isolation = this.#isolation(event.tool);
        const attributes: Record<string, SpanAttribute> = {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': event.tool,
          'gen_ai.tool.call.id': event.callId,
          'gen_ai.tool.type': 'function',
        };
        // Set, not spread in: a spread costs more than the rest of the span.
        if (isolation !== undefined) attributes['riverse.isolation'] = isolation;
        this.#calls.set(
          event.callId,
          this.#open('tool-call', `execute_tool ${event.tool}`, this.#turn.spanId, attributes),
        );
        break;
      }
      case 'approval-request': {
        const call = this.#calls.get(event.callId);
        this.#approvals.set(
          event.callId,
          this.#open('approval', `approval ${event.tool}`, call?.spanId ?? this.#turn.spanId, {
            'gen_ai.tool.name': event.tool,
            'gen_ai.tool.call.id': event.callId,
            'riverse.approval.id': event.approvalId,
          }),
        );
        break;
      }
      case 'approval-answered': {
        const span = this.#approvals.get(event.callId);
        if (span === undefined) break;
        span.attributes['riverse.approval.decision'] = event.decision;
        const ok = event.decision === 'approved' || event.decision === 'always';
        this.#close(span, ok ? 'ok' : 'error', ok ? undefined : event.decision);
        const call = this.#calls.get(event.callId);
        if (call !== undefined) call.attributes['riverse.approval.wait_ms'] = tenth(span.endMs! - span.startMs);
        break;
      }
      case 'tool-result': {
        const { call } = event;
        const span = this.#calls.get(call.callId);
        if (span === undefined) break;
        const { result } = call;
        span.attributes['riverse.duration_ms'] = call.durationMs;
        span.attributes['riverse.outcome'] = result.success ? 'success' : 'failure';
        span.attributes['riverse.result.chars'] = result.data.length + (result.error?.length ?? 0);
        if (result.content !== undefined) span.attributes['riverse.result.parts'] = result.content.length;
        if (result.code !== undefined) span.attributes['error.type'] = result.code;
        if (call.tool === 'find_tools' && this.#offered !== undefined) {
          const { before } = this.#offered;
          const found = this.#offered.now().filter((name) => !before.has(name));
          for (const name of found) before.add(name);
          span.attributes['riverse.find_tools.found'] = found;
        }
        this.#close(span, result.success ? 'ok' : 'error', result.code);
        break;
      }
      case 'done':
        this.finish(event.result);
        break;
    }
  }

  /** Closes the turn (and whatever it left open) and returns its trace; the same trace when called again. */
  finish(result: Pick<TurnResult, 'stopReason' | 'error' | 'requests'>): TurnTrace {
    if (this.#trace !== undefined) return this.#trace;
    const failed = turnFailed(result);
    if (this.#request !== undefined) this.modelFailed(result.error?.code ?? result.stopReason);
    for (const span of [...this.#approvals.values(), ...this.#calls.values()])
      if (span.endMs === undefined) this.#close(span, 'error', result.stopReason);
    this.#turn.attributes['riverse.stop_reason'] = result.stopReason;
    this.#turn.attributes['riverse.model_requests'] = result.requests;
    this.#turn.attributes['gen_ai.request.model'] = this.#model.id;
    if (result.error !== undefined) this.#turn.attributes['error.type'] = result.error.code;
    this.#close(this.#turn, failed ? 'error' : 'ok', result.error?.code);
    const spans = this.#spans as TraceSpan[];
    this.#trace = {
      id: this.#turnId,
      traceId: traceHex(16),
      sessionId: this.#sessionId,
      startedAt: this.#startedAt,
      durationMs: tenth(this.#turn.endMs! - this.#turn.startMs),
      outcome: failed ? 'failure' : 'success',
      stopReason: result.stopReason,
      tools: [...this.#tools],
      spans,
    };
    return this.#trace;
  }

  /** The provider and the model of `provider:model` (the whole id when it has no provider), split once per turn. */
  #modelName(): { provider: string; model: string } {
    if (this.#names !== undefined) return this.#names;
    const [provider, ...rest] = this.#model.id.split(':');
    this.#names = { provider: provider ?? this.#model.id, model: rest.join(':') || this.#model.id };
    return this.#names;
  }

  #endRequest(): void {
    this.#request = undefined;
    this.#attempt = 0;
  }

  #open(
    kind: TraceSpan['kind'],
    name: string,
    parentId: string | undefined,
    attributes: Record<string, SpanAttribute>,
  ) {
    // Two literals rather than a spread of the parent's id: the spread was a fifth of the tracer's time.
    const spanId = traceHex(8);
    const startMs = now();
    const span: OpenSpan =
      parentId === undefined
        ? { spanId, kind, name, startMs, status: 'ok', attributes }
        : { spanId, parentId, kind, name, startMs, status: 'ok', attributes };
    this.#spans.push(span);
    return span;
  }

  #close(span: OpenSpan, status: TraceSpan['status'], errorCode?: string): void {
    if (span.endMs !== undefined) return;
    span.endMs = now();
    span.status = status;
    if (errorCode !== undefined) {
      span.errorCode = errorCode;
      span.attributes['error.type'] ??= errorCode;
    }
  }
}

/** Milliseconds since the epoch to a tenth, from the monotonic clock (a span never ends before it starts). */
function now(): number {
  return tenth(performance.timeOrigin + performance.now());
}

function tenth(ms: number): number {
  return Math.round(ms * 10) / 10;
}
