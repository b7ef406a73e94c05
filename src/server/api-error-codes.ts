import type { TurnResult } from '../assistant/turn-events.ts';

/**
 * Every code of the service's own refusals (`error.code`, under `/api` and `/v1` alike): what a
 * client can branch on. docs/server-api.md lists them ("The API's error codes"), and
 * api-error-codes.test.ts holds that table to this list.
 */
export const API_ERROR_CODES = [
  // The request itself (read-json.ts and each route's checks).
  'invalid-request',
  'invalid-json',
  'body-too-large',
  'request-timeout',
  // The rules every request passes first.
  'token-required',
  'token-invalid',
  'host-not-allowed',
  'origin-not-allowed',
  // No such route, or no such approval; Hono's own refusals; anything unexpected.
  'not-found',
  'http-error',
  'internal',
  // A model, for a chat or a completion.
  'model-without-vision',
  'no-model',
  'model_not_found',
  // A stored response of /v1/responses.
  'response-not-found',
  // A turn's trace (GET /api/traces/turns/:id).
  'trace-not-found',
  // Sessions.
  'session-not-found',
  'session-exists',
  'session-busy',
  // Approvals and questions.
  'not-pending',
  'approval-mismatch',
  // Tools, and switching them in riverse.yaml.
  'tool-not-found',
  'tool-unavailable',
  'tool-name-reserved',
  'config-invalid',
  'config-unreadable',
  'config-unwritable',
  // Tasks (GET /api/tasks/:id, POST /api/tasks/:id/cancel).
  'task-not-found',
  'task-already-ended',
  // Event streams.
  'too-many-streams',
  // The store (its database unreachable, slow past its bound, or its disk full).
  'store-failed',
  // The default model's download.
  'download-running',
  'local-runtime-missing',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * The code of a turn that failed, which `/v1` answers with as the turn gave it (turn-failure.ts):
 * the turn's own codes, or the model's (ModelErrorCode).
 */
export type TurnFailureCode = NonNullable<TurnResult['error']>['code'];
