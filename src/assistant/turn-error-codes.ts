import type { ModelErrorCode } from '../models/model-error.ts';

/**
 * Every code of a failed model request: a turn that a ModelError ends reports the error's code.
 * `satisfies` keeps this in step with ModelErrorCode: a code missing here, or one too many, fails to compile.
 */
const MODEL_CODES = {
  'not-configured': true,
  auth: true,
  'bad-request': true,
  'not-found': true,
  'rate-limited': true,
  'server-error': true,
  timeout: true,
  network: true,
  'stream-cut': true,
  'bad-response': true,
  'reply-too-large': true,
  aborted: true,
} as const satisfies Record<ModelErrorCode, true>;

/** The codes of the turn's own failures, and of the caller's tools it refuses. */
const OWN_CODES = [
  'turn-timeout',
  'store-failed',
  'listener-failed',
  'unparsable-tool-call',
  'internal',
  'tool-name-clash',
  'client-tools-unsupported',
  'invalid-client-tool',
  'invalid-tool-choice',
  'invalid-structured-output',
] as const;

/**
 * What `TurnResult.error.code` can be: a model request's code, or one of the turn's own. The
 * table in docs/server-api.md ("Turn errors") lists the same codes (turn-error-codes.test.ts).
 */
export type TurnErrorCode = ModelErrorCode | (typeof OWN_CODES)[number];

/** Every TurnErrorCode, the model's first. */
export const TURN_ERROR_CODES: readonly TurnErrorCode[] = [
  ...(Object.keys(MODEL_CODES) as ModelErrorCode[]),
  ...OWN_CODES,
];
