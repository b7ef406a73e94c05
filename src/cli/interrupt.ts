/**
 * Ctrl-C for a command: the first press cancels the work under way (its signal aborts, and what
 * runs stops as it can); a second press while that work is still stopping ends the process at
 * once with exit code 130, whatever holds it. A press while nothing cancellable runs calls
 * `onIdle` (chat: leave, as at the prompt) or, without one, ends the process at once too — so a
 * press during start-up (tools loading) is never lost.
 */
export interface InterruptOptions {
  /** A press while no work runs; default: exit 130. */
  onIdle?: () => void;
  /** Said on stderr when the work has not stopped `noticeMs` after the first press. */
  stillStopping?: string;
  noticeMs?: number;
  /** How the process ends (tests give their own). */
  exit?: (code: number) => void;
  /** Where the presses come from; default the process's SIGINT. */
  source?: NodeJS.EventEmitter;
}

export interface Interrupts {
  /** Starts a piece of cancellable work; its signal aborts at the first press. */
  begin(): AbortSignal;
  /** The work ended (stopped or not): the next press is a press at idle. */
  end(): void;
  /** A press of Ctrl-C (what a SIGINT does). */
  press(): void;
  /** Stops listening. */
  close(): void;
}

/** The exit code of a process ended by Ctrl-C, as shells report it (128 + SIGINT). */
export const INTERRUPTED_EXIT = 130;

export function listenForInterrupts(options: InterruptOptions = {}): Interrupts {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const source = options.source ?? process;
  let work: AbortController | undefined;
  let notice: NodeJS.Timeout | undefined;
  const press = () => {
    if (work === undefined) {
      if (options.onIdle !== undefined) options.onIdle();
      else exit(INTERRUPTED_EXIT);
    } else if (work.signal.aborted) {
      exit(INTERRUPTED_EXIT);
    } else {
      work.abort();
      if (options.stillStopping !== undefined) {
        const text = options.stillStopping;
        notice = setTimeout(() => process.stderr.write(`${text}\n`), options.noticeMs ?? 2_000);
        notice.unref();
      }
    }
  };
  const end = () => {
    clearTimeout(notice);
    work = undefined;
  };
  source.on('SIGINT', press);
  return {
    begin() {
      end();
      work = new AbortController();
      return work.signal;
    },
    end,
    press,
    close() {
      end();
      source.off('SIGINT', press);
    },
  };
}
