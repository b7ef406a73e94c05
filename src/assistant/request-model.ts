import type { ToolCallRequest } from '../models/chat-message.ts';
import type { ChatModel, FinishReason, ModelRequest, Usage } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import type { TurnEvent } from './turn-events.ts';

export interface ModelReply {
  text: string;
  calls: ToolCallRequest[];
  finish: FinishReason;
  usage?: Usage;
}

/** How often the user is told that the model is still silent. */
const DEFAULT_WAIT_NOTICE_MS = 5_000;

/**
 * One model request, collected into a reply. `showText` streams text deltas to the user as they
 * come. A stream that breaks after it started is sent again once (the partial reply is withdrawn
 * with a `retry` event); `onSend` is told of each. While nothing comes from the model, a
 * `model-waiting` event every `noticeMs`. Other failures are thrown as ModelError for the turn to report.
 */
export async function requestModel(
  model: ChatModel,
  request: ModelRequest,
  emit: (event: TurnEvent) => void,
  showText: boolean,
  onSend: () => void,
  noticeMs = DEFAULT_WAIT_NOTICE_MS,
  /** Told once per attempt, of the reply's first event (the time to first token, for the trace). */
  onFirstEvent?: () => void,
): Promise<ModelReply> {
  for (let attempt = 1; ; attempt++) {
    onSend();
    try {
      return await collect(model, request, emit, showText, noticeMs, onFirstEvent);
    } catch (error) {
      if (
        !(error instanceof ModelError) ||
        error.code !== 'stream-cut' ||
        attempt > 1 ||
        request.signal?.aborted === true
      )
        throw error;
      emit({ type: 'retry', reason: error.message });
    }
  }
}

async function collect(
  model: ChatModel,
  request: ModelRequest,
  emit: (event: TurnEvent) => void,
  showText: boolean,
  noticeMs: number,
  onFirstEvent: (() => void) | undefined,
): Promise<ModelReply> {
  let text = '';
  const calls: ToolCallRequest[] = [];
  let finish: FinishReason = 'other';
  let usage: Usage | undefined;
  // One timer, told nothing by the events (re-arming it at each cost a streamed reply more than its
  // parsing): when it fires it looks at the last event and tells of the silence once it lasted
  // `noticeMs` and `noticeMs` passed since the last notice (a timer re-armed from a late callback can
  // fire early by the wall clock: the seconds told must count up), else waits for the rest of it.
  let since = performance.now();
  let told = since;
  let notice: NodeJS.Timeout;
  const tell = () => {
    const now = performance.now();
    const due = Math.max(since, told) + noticeMs;
    if (now >= due) {
      told = now;
      emit({ type: 'model-waiting', seconds: Math.round((now - since) / 100) / 10 });
      notice = setTimeout(tell, noticeMs);
    } else notice = setTimeout(tell, due - now);
  };
  notice = setTimeout(tell, noticeMs);
  try {
    let first = onFirstEvent;
    for await (const event of model.stream(request)) {
      first?.();
      first = undefined;
      since = performance.now();
      switch (event.type) {
        case 'text-delta':
          text += event.text;
          if (showText) emit(event);
          break;
        case 'tool-call-delta':
          emit(event);
          break;
        case 'tool-call':
          calls.push(event.call);
          break;
        case 'finish':
          finish = event.reason;
          usage = event.usage;
          break;
      }
    }
  } finally {
    clearTimeout(notice);
  }
  return usage === undefined ? { text, calls, finish } : { text, calls, finish, usage };
}
