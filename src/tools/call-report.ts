// What a running call says before it ends: how far it is (`context.progress`) and log lines
// (`context.log`). Both cross from tool code (isolated or not), so both are checked here, and both
// are bounded in rate and size: a tool that floods them is throttled, not Riverse (decision 027).

/** MCP's log levels (RFC 5424), lowest first; `warn` is taken as `warning`. */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type ReportLevel = (typeof LOG_LEVELS)[number];

/** How far a call is: `progress` grows; `total` when known; a short message for a person. */
export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

export interface LogReport {
  level: ReportLevel;
  message: string;
}

/** `context.progress(progress, total?, message?)`: `progress` of `total`, e.g. `progress(3, 10, 'page 3')`. */
export type ReportProgress = (progress: number, total?: number, message?: string) => void;
/** `context.log(level, message)`: one line for whoever watches the call (MCP's levels; `warn` means `warning`). */
export type ReportLog = (level: ReportLevel | 'warn', message: string) => void;

/** The longest progress message and log line kept; longer ones are cut with an ellipsis. */
const MAX_PROGRESS_MESSAGE_CHARS = 500;
const MAX_LOG_MESSAGE_CHARS = 4_000;

/** A progress report as it may be passed on, or why not (a sentence for the tool's author). */
export function checkProgress(progress: unknown, total?: unknown, message?: unknown): ProgressReport | string {
  if (typeof progress !== 'number' || !Number.isFinite(progress) || progress < 0)
    return `context.progress() takes a number of at least 0 first (got ${describe(progress)})`;
  if (total !== undefined && total !== null && (typeof total !== 'number' || !Number.isFinite(total) || total <= 0))
    return `context.progress()'s total must be a number above 0 when given (got ${describe(total)})`;
  if (message !== undefined && message !== null && typeof message !== 'string')
    return `context.progress()'s message must be text when given (got ${describe(message)})`;
  return {
    progress,
    ...(typeof total === 'number' ? { total } : {}),
    ...(typeof message === 'string' && message !== '' ? { message: cut(message, MAX_PROGRESS_MESSAGE_CHARS) } : {}),
  };
}

/** A log line as it may be passed on, or why not. */
export function checkLog(level: unknown, message: unknown): LogReport | string {
  const known = level === 'warn' ? 'warning' : level;
  if (typeof known !== 'string' || !(LOG_LEVELS as readonly string[]).includes(known))
    return `context.log() takes a level first: one of ${LOG_LEVELS.join(', ')} (got ${describe(level)})`;
  if (typeof message !== 'string') return `context.log() takes the line as text second (got ${describe(message)})`;
  return { level: known as ReportLevel, message: cut(message, MAX_LOG_MESSAGE_CHARS) };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
}

/** Reports let through at once, then so many a second. */
interface ReportRate {
  burst: number;
  perSecond: number;
}

/** Progress: a bar needs no more than ten steps a second. Logs: a screenful at once, then twenty a second. */
const PROGRESS_RATE: ReportRate = { burst: 10, perSecond: 10 };
const LOG_RATE: ReportRate = { burst: 50, perSecond: 20 };

/**
 * Lets reports through at `rate`. Past it, progress keeps only its latest report, sent once the
 * rate allows (a bar ends where the tool last said); log lines past it are dropped and counted.
 * `close()` sends the latest report held and stops.
 */
class ReportThrottle<Report> {
  readonly #rate: ReportRate;
  readonly #send: (report: Report) => void;
  readonly #keepLatest: boolean;
  #tokens: number;
  #at = performance.now();
  #held: Report | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Reports dropped so far (log lines past the rate, progress replaced by a later one). */
  dropped = 0;

  constructor(rate: ReportRate, send: (report: Report) => void, options: { keepLatest: boolean }) {
    this.#rate = rate;
    this.#send = send;
    this.#keepLatest = options.keepLatest;
    this.#tokens = rate.burst;
  }

  push(report: Report): void {
    if (this.#closed) return;
    this.#refill();
    if (this.#tokens >= 1 && this.#held === undefined) {
      this.#tokens -= 1;
      this.#send(report);
      return;
    }
    this.dropped += 1;
    if (!this.#keepLatest) return;
    this.#held = report;
    this.#timer ??= setTimeout(() => this.#release(), Math.ceil(1000 / this.#rate.perSecond));
    this.#timer.unref?.();
  }

  /** Sends what is held (the latest progress) and lets nothing more through. */
  close(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    this.#held = undefined;
    this.#closed = true;
    if (held !== undefined) this.#send(held);
  }

  #release(): void {
    this.#timer = undefined;
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined || this.#closed) return;
    this.#refill();
    this.#tokens = Math.max(0, this.#tokens - 1);
    this.#send(held);
  }

  #refill(): void {
    const now = performance.now();
    this.#tokens = Math.min(this.#rate.burst, this.#tokens + ((now - this.#at) / 1000) * this.#rate.perSecond);
    this.#at = now;
  }
}

/**
 * The `progress` and `log` of one call's context: checked (a wrong argument throws a TypeError in
 * the tool, as `ask` does), throttled, then passed to `onProgress` and `onLog`. `close()` when the call ends.
 */
export function callReports(
  onProgress: ((report: ProgressReport) => void) | undefined,
  onLog: ((report: LogReport) => void) | undefined,
): { progress: ReportProgress; log: ReportLog; close: () => void } {
  const safely =
    <Report>(send: ((report: Report) => void) | undefined) =>
    (report: Report) => {
      try {
        send?.(report);
      } catch {
        // A listener's fault is not the tool's.
      }
    };
  // Made at a call's first report: most calls make none, and every call would pay for both.
  let progress: ReportThrottle<ProgressReport> | undefined;
  let log: ReportThrottle<LogReport> | undefined;
  let closed = false;
  return {
    progress: (value, total, message) => {
      const checked = checkProgress(value, total, message);
      if (typeof checked === 'string') throw new TypeError(checked);
      if (onProgress === undefined || closed) return;
      progress ??= new ReportThrottle(PROGRESS_RATE, safely(onProgress), { keepLatest: true });
      progress.push(checked);
    },
    log: (level, message) => {
      const checked = checkLog(level, message);
      if (typeof checked === 'string') throw new TypeError(checked);
      if (onLog === undefined || closed) return;
      log ??= new ReportThrottle(LOG_RATE, safely(onLog), { keepLatest: false });
      log.push(checked);
    },
    close: () => {
      closed = true;
      progress?.close();
      log?.close();
    },
  };
}
