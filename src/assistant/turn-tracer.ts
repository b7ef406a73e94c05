import { formatTraceparent, type TraceContext } from '../core/trace-context.ts';
import type { ChatModel, FinishReason, ModelRequest, Usage } from '../models/chat-model.ts';
import { keepProgress, traceParts } from '../store/trace-parts.ts';
import type { ModelReply } from './request-model.ts';
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
  /** The trace's id: the caller's (a traceparent that came with the request), else a new one. */
  readonly traceId: string;
  /** The caller's span the turn runs under. */
  readonly parent: TraceContext | undefined;
  /** Whether model requests carry a `traceparent` (telemetry is on, or the caller sent one). */
  readonly propagates: boolean;
  /** Messages and arguments by span id, kept only when content is captured (telemetry's opt-in). */
  readonly content: Map<string, Record<string, string>> | undefined;
  /** The request being sent, for a retry's content. */
  #lastRequest: ModelRequest | undefined;
  #offered: { now: () => string[]; before: Set<string> } | undefined;
  #names: { provider: string; model: string } | undefined;

  constructor(options: {
    turnId: string;
    sessionId: string;
    model: ChatModel;
    /** The isolation a tool runs in (`process`, `worker`, `none`), for its calls' spans. */
    isolation?: (tool: string) => string | undefined;
    /** The caller's trace context: the turn continues its trace. */
    parent?: TraceContext;
    /** Model requests carry a `traceparent` (the turn is exported, or continues a caller's trace). */
    propagate?: boolean;
    /** Keep messages and arguments for the export (never stored). */
    captureContent?: boolean;
  }) {
    this.parent = options.parent;
    this.traceId = options.parent?.traceId ?? traceHex(16);
    this.propagates = options.propagate === true || options.parent !== undefined;
    this.content = options.captureContent === true ? new Map() : undefined;
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
  modelSend(request?: ModelRequest): void {
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
    if (this.content !== undefined && request !== undefined) {
      this.#lastRequest = request;
      this.#keep(this.#request.spanId, inputContent(request));
    }
  }

  /** The `traceparent` of the model request being sent: its span in this trace. */
  traceparent(): string | undefined {
    const span = this.#request;
    return span === undefined ? undefined : formatTraceparent(this.traceId, span.spanId, this.parent?.sampled ?? true);
  }

  /** The adapter retries (429, 5xx, network): the attempt so far failed with `code`, and another follows. */
  modelRetry(code: string, delayMs: number): void {
    if (this.#request !== undefined) this.#close(this.#request, 'error', code);
    this.#request = undefined;
    // The adapter sends the next attempt itself (after `delayMs`, which this span includes), without `modelSend`.
    this.modelSend(this.#lastRequest);
    this.#request!.attributes['riverse.retry_delay_ms'] = delayMs;
  }

  /** The first event of the reply (text, a call, the finish): the time to first token. */
  modelFirstEvent(): void {
    const span = this.#request;
    if (span === undefined || span.attributes['riverse.time_to_first_token_ms'] !== undefined) return;
    span.attributes['riverse.time_to_first_token_ms'] = tenth(performance.now() - this.#sent);
  }

  /** The reply came whole. */
  modelReply(finish: FinishReason, usage: Usage | undefined, reply?: ModelReply): void {
    const span = this.#request;
    if (span === undefined) return;
    if (this.content !== undefined && reply !== undefined)
      this.#keep(span.spanId, { 'gen_ai.output.messages': capped(outputMessages(reply)) });
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

  /**
   * A tool's `context.sample` asks the turn's model: a model request under the call's span (not one
   * of the turn's rounds). `end` closes it with the reply's finish and usage, or the failure's code.
   */
  toolSample(callId: string): { end: (outcome: { finish: FinishReason; usage?: Usage } | { code: string }) => void } {
    const { provider, model } = this.#modelName();
    const span = this.#open('model-request', `chat ${model}`, this.#calls.get(callId)?.spanId ?? this.#turn.spanId, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      'riverse.sample': true,
    });
    return {
      end: (outcome) => {
        if ('code' in outcome) return this.#close(span, 'error', outcome.code);
        span.attributes['gen_ai.response.finish_reasons'] = [outcome.finish];
        const { usage } = outcome;
        if (usage?.inputTokens !== undefined) span.attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
        if (usage?.outputTokens !== undefined) span.attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
        this.#close(span, 'ok');
      },
    };
  }

  /** A call started a fresh host for its tool's file (a process or worker), ready after `ms`. */
  readonly hostStart = (callId: string, ms: number): void => {
    const span = this.#calls.get(callId);
    if (span !== undefined) span.attributes['riverse.host_start_ms'] = ms;
  };

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
        if (this.content !== undefined)
          this.#keep(this.#calls.get(event.callId)!.spanId, {
            'gen_ai.tool.call.arguments': capped(json(event.params)),
          });
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
      case 'tool-progress': {
        const span = this.#calls.get(event.callId);
        if (span === undefined || span.endMs !== undefined) break;
        span.progress ??= [];
        if (keepProgress(span.progress, event, now()))
          span.attributes['riverse.progress.dropped'] = Number(span.attributes['riverse.progress.dropped'] ?? 0) + 1;
        break;
      }
      case 'tool-result': {
        const { call } = event;
        const span = this.#calls.get(call.callId);
        if (span === undefined) break;
        const { result } = call;
        span.attributes['riverse.duration_ms'] = call.durationMs;
        // The call runs on as a task: its end is added to this span when it comes (TraceStore.annotateCall).
        if (call.taskId !== undefined) span.attributes['riverse.task.id'] = call.taskId;
        span.attributes['riverse.outcome'] = result.success ? 'success' : 'failure';
        span.attributes['riverse.result.chars'] = result.data.length + (result.error?.length ?? 0);
        if (result.content !== undefined) {
          span.attributes['riverse.result.parts'] = result.content.length;
          // Kept capped: a picture the person saw is there when they look back (trace-parts.ts).
          span.parts = traceParts(result.content);
        }
        if (result.code !== undefined) span.attributes['error.type'] = result.code;
        if (this.content !== undefined)
          this.#keep(span.spanId, {
            'gen_ai.tool.call.result': capped(result.success ? result.data : (result.error ?? result.data)),
          });
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
      traceId: this.traceId,
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

  #keep(spanId: string, attributes: Record<string, string>): void {
    const kept = this.content!.get(spanId);
    if (kept === undefined) this.content!.set(spanId, attributes);
    else Object.assign(kept, attributes);
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

/** The longest text of one content attribute: a message or a result past it is cut. */
const MAX_CONTENT_CHARS = 16_384;

function capped(text: string): string {
  return text.length <= MAX_CONTENT_CHARS ? text : `${text.slice(0, MAX_CONTENT_CHARS)}…`;
}

function json(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    return String(value);
  }
}

/** A request's instructions and messages in the GenAI conventions' forms (`gen_ai.system_instructions`, `gen_ai.input.messages`). */
function inputContent(request: ModelRequest): Record<string, string> {
  const messages = request.messages.map((message) => {
    if (message.role === 'assistant')
      return {
        role: 'assistant',
        parts: [
          ...(message.content === '' ? [] : [{ type: 'text', content: message.content }]),
          ...(message.toolCalls ?? []).map((call) => ({
            type: 'tool_call',
            id: call.id,
            name: call.name,
            arguments: call.arguments,
          })),
        ],
      };
    if (message.role === 'tool')
      return {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: message.toolCallId, response: message.content }],
      };
    return { role: message.role, parts: [{ type: 'text', content: message.content }] };
  });
  return {
    ...(request.system === undefined
      ? {}
      : { 'gen_ai.system_instructions': capped(json([{ type: 'text', content: request.system }])) }),
    'gen_ai.input.messages': capped(json(messages)),
  };
}

function outputMessages(reply: ModelReply): string {
  return json([
    {
      role: 'assistant',
      parts: [
        ...(reply.text === '' ? [] : [{ type: 'text', content: reply.text }]),
        ...reply.calls.map((call) => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments })),
      ],
      finish_reason: reply.finish,
    },
  ]);
}

function tenth(ms: number): number {
  return Math.round(ms * 10) / 10;
}
