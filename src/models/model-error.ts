import type { Language } from '../core/language.ts';
import { english, renderPhrase, type Phrase } from '../core/phrase.ts';

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
  | 'reply-too-large'
  | 'aborted';

/** The configured bound a request ran into: the setting that holds it, and its value. */
export interface ModelLimit {
  /** Where to change it, e.g. `model_options.timeout_ms`. */
  setting: string;
  value: number;
}

/** A model request that failed; `message` says what happened and, where it can, what to do. */
export class ModelError extends Error {
  override name = 'ModelError';
  readonly code: ModelErrorCode;
  /** HTTP status, when there was one. */
  readonly status: number | undefined;
  /** True when sending the same request again may succeed. */
  readonly retryable: boolean;
  /** Set when the request ended on a configured limit (a timeout, a size cap): what the user can raise. */
  readonly limit: ModelLimit | undefined;
  /** What to tell a person, as a phrase (model-phrases.ts), when it was made as one; `message` is its English. */
  readonly said: Phrase | undefined;

  constructor(
    code: ModelErrorCode,
    message: string | Phrase,
    options: { status?: number; retryable?: boolean; cause?: unknown; limit?: ModelLimit } = {},
  ) {
    const said = typeof message === 'string' ? undefined : message;
    super(
      said === undefined ? (message as string) : english(said),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.said = said;
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.limit = options.limit;
  }

  /** The message in `language` (English where it was not made as a phrase). */
  localized(language: Language): string {
    return (this.said === undefined ? undefined : renderPhrase(this.said, language)) ?? this.message;
  }
}
