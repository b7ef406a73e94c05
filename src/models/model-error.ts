export type ModelErrorCode =
  | 'not-configured'
  | 'auth'
  | 'bad-request'
  | 'not-found'
  | 'rate-limited'
  | 'server-error'
  | 'timeout'
  | 'network'
  | 'stream-cut'
  | 'bad-response'
  | 'aborted';

/** A model request that failed; `message` says what happened and, where it can, what to do. */
export class ModelError extends Error {
  override name = 'ModelError';
  readonly code: ModelErrorCode;
  /** HTTP status, when there was one. */
  readonly status: number | undefined;
  /** True when sending the same request again may succeed. */
  readonly retryable: boolean;

  constructor(code: ModelErrorCode, message: string, options: { status?: number; retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}
