import type { TurnEvent } from '../../assistant/turn-events.ts';
import { partsAsJson } from '../../tools/result-content.ts';

/**
 * A turn's event as `POST /api/chat` sends it (docs/server-api.md, "Chat events"): `event:` its
 * type, `data:` the JSON. `messages` events are the store's business and are not sent.
 */
export function chatEvent(event: TurnEvent): { type: string; data: unknown } | undefined {
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
          ...(result.error === undefined ? {} : { error: result.error }),
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
