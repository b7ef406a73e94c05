import type { TurnEvent } from '../../assistant/turn-events.ts';
import type { Language } from '../../core/language.ts';
import { renderPhrase } from '../../core/phrase.ts';
import { partsAsJson } from '../../tools/result-content.ts';

/**
 * A turn's event as `POST /api/chat` sends it (docs/server-api.md, "Chat events"): `event:` its
 * type, `data:` the JSON. `messages` events are the store's business and are not sent.
 */
export function chatEvent(event: TurnEvent, language: Language = 'en'): { type: string; data: unknown } | undefined {
  switch (event.type) {
    case 'messages':
      return undefined;
    case 'tool-result': {
      const { call } = event;
      const { result } = call;
      return {
        type: 'tool-result',
        data: {
          callId: call.callId,
          tool: call.tool,
          params: call.params,
          success: result.success,
          data: result.data,
          ...(result.error === undefined ? {} : { error: result.error }),
          ...(result.code === undefined ? {} : { code: result.code }),
          // Parts as MCP writes them (bytes as base64 text), so that the page can show them.
          ...(result.content === undefined ? {} : { content: partsAsJson(result.content) }),
          ...(result.structured === undefined ? {} : { structured: result.structured }),
          durationMs: call.durationMs,
          startedAt: call.startedAt,
          // The call became a task: its result comes later (`task`, `task-delivered` on /api/events).
          ...(call.taskId === undefined ? {} : { taskId: call.taskId }),
        },
      };
    }
    case 'done': {
      const { result } = event;
      return {
        type: 'done',
        data: {
          text: result.text,
          stopReason: result.stopReason,
          // The page's reader's language (the turn's is its message's), where Riverse has the words.
          ...(result.error === undefined
            ? {}
            : {
                error: {
                  code: result.error.code,
                  message:
                    (result.error.said === undefined ? undefined : renderPhrase(result.error.said, language)) ??
                    result.error.message,
                },
              }),
          usage: result.usage,
          requests: result.requests,
        },
      };
    }
    default: {
      const { type, ...data } = event;
      return { type, data };
    }
  }
}
