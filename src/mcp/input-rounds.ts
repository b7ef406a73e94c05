import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type InputResponseView,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';

/**
 * Signs the state a call carries between rounds, unless the caller gives the key (`riverse serve`
 * gives the store's shared one, so that any replica checks what another signed): a new one each start.
 */
const OWN_SECRET = randomBytes(32);
/** The key of the approval question in a call's `inputRequests` and `inputResponses`. */
const APPROVAL_INPUT = 'approve';

/** What one round of a call knows: the answers given so far, by key. */
interface RoundState {
  /** The call (tool and arguments) the answers belong to. */
  call: string;
  answers: Record<string, InputResponseView>;
  /** The keys asked in the last round, whose answers this round may bring. */
  asked?: string[];
}

/**
 * A call's questions to the person in the 2026-07-28 revision, where a server sends no requests of
 * its own: the questions the call reaches together (a form elicitation each, a sampling request, the
 * roots) end its run, and the call is answered with an input-required result (those requests, the
 * answers so far signed into
 * `requestState`); the client calls again with the person's answer, and the call runs again from
 * the start with every answer so far at hand, until it needs none it lacks. Answers count only
 * beside a state this process signed for this very call (tool and arguments) and only for the
 * question it asked, so none can be replayed on another call or sent without being asked.
 */
export class InputRounds {
  readonly #call: string;
  readonly #secret: Buffer;
  readonly #answers: Record<string, InputResponseView>;
  /** The requests the run reached without an answer, by key: one round asks them all (elicitation, sampling, roots). */
  readonly #asking = new Map<string, InputRequest>();
  readonly #counts = { ask: 0, sample: 0, roots: 0 };

  constructor(
    tool: string,
    args: unknown,
    request: { inputResponses?: Record<string, unknown>; requestState: () => unknown },
    secret: Buffer = OWN_SECRET,
  ) {
    this.#secret = secret;
    this.#call = createHmac('sha256', secret)
      .update(JSON.stringify([tool, args]))
      .digest('base64url');
    const given = request.requestState();
    const state = open(given, secret);
    // A state this process did not sign for this very call is refused, not taken for a first round:
    // it was changed on the way, belongs to another call, or outlived a restart (a new secret).
    if (given !== undefined && state?.call !== this.#call)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `requestState was not issued by this server for this call to ${tool} (changed, from another call, or from before a restart): call ${tool} again without requestState and inputResponses to be asked afresh`,
      );
    this.#answers = state === undefined ? {} : { ...state.answers };
    for (const key of state?.asked ?? []) {
      const answer = inputResponse(request.inputResponses, key);
      if (answer.kind !== 'missing') this.#answers[key] = answer;
    }
  }

  /** The person's answer to the approval question, or undefined once it has been asked (the run then stops). */
  approval(question: Parameters<typeof inputRequired.elicit>[0]): InputResponseView | undefined {
    return this.#answer(APPROVAL_INPUT, () => inputRequired.elicit(question));
  }

  /**
   * The person's answer to the call's next `context.ask`, or undefined once it has been asked. Its
   * key is the tool's (`key`) or the next `ask-<n>`; an answer that does not fit (`fits`) is
   * dropped and the question asked again.
   */
  ask(
    question: Parameters<typeof inputRequired.elicit>[0],
    options: { key?: string | undefined; fits?: (answer: InputResponseView) => boolean } = {},
  ): InputResponseView | undefined {
    return this.#request('ask', options, () => inputRequired.elicit(question));
  }

  /** The client's model's reply to the call's next `context.sample` (`sample-<n>` unless keyed), or undefined once it has been asked. */
  sample(
    params: Parameters<typeof inputRequired.createMessage>[0],
    options: { key?: string | undefined; fits?: (answer: InputResponseView) => boolean } = {},
  ): InputResponseView | undefined {
    return this.#request('sample', options, () => inputRequired.createMessage(params));
  }

  /** The client's roots for the call's next `context.roots()` (`roots-<n>` unless keyed), or undefined once they have been asked. */
  roots(
    options: { key?: string | undefined; fits?: (answer: InputResponseView) => boolean } = {},
  ): InputResponseView | undefined {
    return this.#request('roots', options, () => inputRequired.listRoots());
  }

  #request(
    kind: 'ask' | 'sample' | 'roots',
    options: { key?: string | undefined; fits?: (answer: InputResponseView) => boolean },
    build: () => InputRequest,
  ): InputResponseView | undefined {
    const key = options.key ?? `${kind}-${++this.#counts[kind]}`;
    const given = this.#answers[key];
    if (given !== undefined && options.fits?.(given) === false) delete this.#answers[key];
    return this.#answer(key, build);
  }

  /** Whether the run stopped at a question. */
  get asking(): boolean {
    return this.#asking.size > 0;
  }

  /** The input-required result for the requests the run stopped at, all in one round. */
  result(): InputRequiredResult {
    return inputRequired({
      inputRequests: Object.fromEntries(this.#asking),
      requestState: seal({ call: this.#call, answers: this.#answers, asked: [...this.#asking.keys()] }, this.#secret),
    });
  }

  #answer(key: string, build: () => InputRequest): InputResponseView | undefined {
    const answer = this.#answers[key];
    if (answer !== undefined) return answer;
    if (!this.#asking.has(key)) this.#asking.set(key, build());
    return undefined;
  }
}

function seal(state: RoundState, secret: Buffer): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

function open(value: unknown, secret: Buffer): RoundState | undefined {
  if (typeof value !== 'string') return undefined;
  const [body, mac] = value.split('.');
  if (body === undefined || mac === undefined) return undefined;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as RoundState;
  } catch {
    return undefined;
  }
}
