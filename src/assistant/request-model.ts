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

/**
 * One model request, collected into a reply. `showText` streams text deltas to the user as they
 * come. A stream that breaks after it started is sent again once (the partial reply is withdrawn
 * with a `retry` event); `onSend` is told of each. Other failures are thrown as ModelError for the turn to report.
 */
export async function requestModel(model: ChatModel, request: ModelRequest, emit: (event: TurnEvent) => void, showText: boolean, onSend: () => void): Promise<ModelReply> {
  for (let attempt = 1; ; attempt++) {
    onSend();
    try {
      return await collect(model, request, emit, showText);
    } catch (error) {
      if (!(error instanceof ModelError) || error.code !== 'stream-cut' || attempt > 1 || request.signal?.aborted === true) throw error;
      emit({ type: 'retry', reason: error.message });
    }
  }
}

async function collect(model: ChatModel, request: ModelRequest, emit: (event: TurnEvent) => void, showText: boolean): Promise<ModelReply> {
  let text = '';
  const calls: ToolCallRequest[] = [];
  let finish: FinishReason = 'other';
  let usage: Usage | undefined;
  for await (const event of model.stream(request)) {
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
  return usage === undefined ? { text, calls, finish } : { text, calls, finish, usage };
}
