import {
  type CallToolResult,
  type InputRequiredResult,
  type InputResponseView,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { InputRounds } from './input-rounds.ts';
import {
  noRoots,
  noSampling,
  rootsOfClient,
  rootsView,
  sampledView,
  sampleOfClient,
  samplingParams,
} from './client-sampling.ts';
import { approvalQuestion, approved, askAnswer, askQuestion, formAnswer } from './person-questions.ts';
import { approvalSetting, needsApproval } from '../tools/approval-policy.ts';
import { failure, type ApprovalGateAnswer, type ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { ReportLevel } from '../tools/call-report.ts';
import { toCallToolResult } from './call-result.ts';
import type { RegisteredTool } from '../tool-runtime/registered-tool.ts';
import type { AskAnswer, AskQuestion } from '../tools/tool-context.ts';
import { localize, localizeList } from '../core/language.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import { parseTraceparent, type TraceContext } from '../core/trace-context.ts';
import type { McpTasks } from './task-methods.ts';
import { askUpFront, upFrontQuestions } from '../tool-runtime/asks-first.ts';
import { clientOffersTasks, longRunning, metaCapabilities, TASKS_EXTENSION, tasksRequired } from './task-wire.ts';

/** What the server serves: the registry in use now, and word of each change (a LiveToolRegistry). */
export interface ServedTools {
  readonly current: ToolRegistry;
  onChange(listener: () => void): () => void;
  /** Told of each `tools/call` that ran, with the caller's trace context from its `_meta` (`traceparent`, `tracestate`). */
  onCall?: (call: ServedCall) => void;
}

/** A call an MCP client made, as `ServedTools.onCall` hears of it. */
export interface ServedCall {
  tool: string;
  params: unknown;
  result: CheckedToolResult;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  traceContext?: TraceContext;
}

const SERVER_INFO = { name: 'riverse', version: '0.1.0' };

/**
 * One MCP server session over the registry: `tools/list` lists the available tools (manifest →
 * MCP tool), `tools/call` runs one as the assistant would (validation, limits, isolation), and
 * every failure of a call — refused arguments, a tool that threw or timed out — comes back as an
 * `isError` result the client's model can read and correct. A name that is not listed is the
 * protocol's error (-32602, as the MCP spec says of unknown tools), with the closest name in it.
 * It tells the client `notifications/tools/list_changed` when the registry changes (unless
 * `listChanged` is false); the caller stops that with `close()`.
 */
export function createToolServer(
  tools: ServedTools,
  options: { listChanged?: boolean; tasks?: McpTasks; stateSecret?: Buffer } = {},
): { server: Server; close: () => Promise<void> } {
  const { tasks } = options;
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      logging: {},
      // The tasks extension (SEP-2663) where there is a runner for its tasks (task-methods.ts).
      ...(tasks === undefined ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
    },
    instructions:
      'Tools from a Riverse project (drop-in tool files). Each description ends with example requests that should use the tool.',
  });
  // Whether a request's client declared the tasks extension, for itself or for its session.
  const offersTasks = (context: ServerContext, meta: unknown) =>
    clientOffersTasks(
      metaCapabilities(context.mcpReq.envelope),
      metaCapabilities(meta),
      server.getClientCapabilities(),
    );
  server.setRequestHandler('tools/list', async () => ({ tools: tools.current.tools().map(mcpTool) }));
  server.setRequestHandler('tools/call', async (request, context): Promise<CallToolResult | InputRequiredResult> => {
    const { name } = request.params;
    const registry = tools.current;
    const registered = registry.get(name);
    if (registered === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        registry.unavailableMessage(name) ?? registry.unknownToolMessage(name),
        { name },
      );
    // A long_running tool runs as a task for a client that offers the extension; a `required` one
    // is refused to a client that does not (-32021), an `optional` one is a plain call that waits.
    // In the 2026 revision a question to the person ends the run and is the answer (input-rounds.ts).
    const rounds =
      (server.getNegotiatedProtocolVersion() ?? '') >= STATELESS_REVISION
        ? new InputRounds(name, request.params.arguments ?? {}, context.mcpReq, options.stateSecret)
        : undefined;
    const mode = tasks === undefined ? undefined : longRunning(registered.manifest);
    if (tasks !== undefined && mode !== undefined) {
      if (offersTasks(context, request.params._meta)) {
        // Its approval comes before the task exists (in a round of its own in 2026), as in a turn.
        const gate = await approve(server, registered, request.params.arguments ?? {}, context, rounds);
        if (rounds?.asking) return rounds.result();
        if (!gate.run) return toCallToolResult(gate.result);
        // Its asks_first too: in rounds before the task exists (2026), or over elicitation (2025).
        const answers = await askFirst(server, upFrontQuestions(registered.manifest), context, rounds);
        if (rounds?.asking) return rounds.result();
        return (await tasks.start(
          name,
          request.params.arguments ?? {},
          String(context.mcpReq.id),
          answers,
        )) as unknown as CallToolResult;
      }
      if (mode === 'required') throw tasksRequired(`${name} runs only as a task: it`);
    }
    const stopped = new AbortController();
    // In a round, the requests a run makes together (a Promise.all of ask, sample and roots) are
    // asked together: the run ends once it has asked nothing new for a moment (ROUND_GATHER_MS).
    let gather: NodeJS.Timeout | undefined;
    const pause = (): Promise<never> => {
      clearTimeout(gather);
      gather = setTimeout(() => stopped.abort(), ROUND_GATHER_MS);
      return new Promise<never>(() => {}); // this run ends here; the next round brings the answers
    };
    const capabilities = () => server.getClientCapabilities();
    // What the tool asked of a client that lacks it: a call that then fails needed it (-32021, 2026).
    const lacked = new Map<'sampling' | 'roots', string>();
    const lacking = (capability: 'sampling' | 'roots', error: Error) => {
      lacked.set(capability, error.message);
      return Promise.reject(error);
    };
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const result = await registry.execute(name, request.params.arguments ?? {}, {
      signal: AbortSignal.any([context.mcpReq.signal, stopped.signal]),
      sessionId: `mcp:${context.sessionId ?? 'stdio'}`,
      ask: (question, signal) => {
        if (capabilities()?.elicitation === undefined)
          return Promise.resolve({ answered: false, reason: 'unavailable' });
        if (rounds === undefined) return ask(server, question, signal);
        // An answer that does not fit the question (a form's field missing or wrong) is asked again.
        const fits = (view: InputResponseView) => askAnswer(formAnswer(view), question);
        const answer = rounds.ask(askQuestion(question), {
          key: question.key,
          fits: (view) => fits(view) !== undefined,
        });
        return answer !== undefined ? Promise.resolve(fits(answer)!) : pause();
      },
      sample: (sample, signal) => {
        if (rounds === undefined) return sampleOfClient(server, name, sample, signal);
        if (capabilities()?.sampling === undefined) return lacking('sampling', noSampling(name));
        const answer = rounds.sample(samplingParams(sample), {
          key: sample.key,
          fits: (view) => sampledView(view) !== undefined,
        });
        return answer !== undefined ? Promise.resolve(sampledView(answer)!) : pause();
      },
      roots: (options, signal) => {
        if (rounds === undefined) return rootsOfClient(server, name, options, signal);
        if (capabilities()?.roots === undefined) return lacking('roots', noRoots(name));
        const answer = rounds.roots({ key: options.key, fits: (view) => rootsView(view) !== undefined });
        return answer !== undefined ? Promise.resolve(rootsView(answer)!) : pause();
      },
      approve: (tool, params) => approve(server, tool, params, context, rounds),
      ...callReports(name, request.params._meta?.progressToken, context.mcpReq),
    });
    clearTimeout(gather);
    if (rounds?.asking) return rounds.result();
    if (rounds !== undefined && lacked.size > 0 && !result.success)
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: Object.fromEntries([...lacked.keys()].map((capability) => [capability, {}])) },
        [...lacked.values()].join('; '),
      );
    if (tools.onCall !== undefined) {
      const meta = request.params._meta as Record<string, unknown> | undefined;
      const traceContext = parseTraceparent(meta?.traceparent, meta?.tracestate);
      try {
        tools.onCall({
          tool: name,
          params: request.params.arguments ?? {},
          result,
          startedAt,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(traceContext === undefined ? {} : { traceContext }),
        });
      } catch {
        // a listener's fault is not the client's
      }
    }
    return toCallToolResult(result);
  });
  tasks?.register(server, (meta, context) => offersTasks(context, meta));
  // A server made for one request (the stateless 2026 revision) is told of changes another way.
  const stop =
    options.listChanged === false
      ? () => {}
      : tools.onChange(() => {
          // A client that is gone, or never finished initializing, has nothing to be told.
          server.sendToolListChanged().catch(() => {});
        });
  // A server closed by whoever serves it (serveStdio drops its probe of the era) stops listening too.
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    closed?.();
  };
  return {
    server,
    close: async () => {
      stop();
      await server.close().catch(() => {});
    },
  };
}

/** The first revision without a handshake, where a server asks through input-required results. */
const STATELESS_REVISION = '2026-07-28';

/**
 * How long a run may go without a new request before its round is sent: long enough for the
 * requests of one Promise.all to cross from the tool's host, short enough not to be felt. A request
 * made later is asked in the next round, so this bounds how many go together, not what is asked.
 */
const ROUND_GATHER_MS = 30;

const denied = (tool: string) =>
  `The person did not approve this call to ${tool}; it did not run. Do not try it again unless they ask.`;

/**
 * A call's progress as `notifications/progress` when the client asked for it (a progress token),
 * each growing, as MCP wants; its log lines as log notifications (`notifications/message`, at the
 * level the client set with `logging/setLevel`), named by the tool. A client that is gone is not told.
 */
function callReports(
  tool: string,
  token: string | number | undefined,
  request: {
    notify: (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;
    log: (level: ReportLevel, data: unknown, logger?: string) => Promise<void>;
  },
): Pick<ExecuteOptions, 'onProgress' | 'onLog'> {
  let last: number | undefined;
  return {
    ...(token === undefined
      ? {}
      : {
          onProgress: (report) => {
            if (last !== undefined && report.progress <= last) return;
            last = report.progress;
            request
              .notify({ method: 'notifications/progress', params: { progressToken: token, ...report } })
              .catch(() => {});
          },
        }),
    onLog: (report) => {
      try {
        request.log(report.level, report.message, tool).catch(() => {});
      } catch {
        // A request of a revision without logging (2026-07-28): nothing to tell.
      }
    },
  };
}

/** How long a person has to answer the client's question about a call that needs approval. */
const APPROVAL_TIMEOUT_MS = 5 * 60_000;

/**
 * A call that needs a person's approval (the tool's `approval`, or tools.<name>.approval) is put to
 * the person through the client (elicitation: a request to the client in the 2025 revisions, an
 * input-required result in 2026-07-28, input-rounds.ts); a client that cannot ask, an answer
 * other than yes, or no answer in time, and the call does not run. No route around the approvals.
 */
async function approve(
  server: Server,
  tool: RegisteredTool,
  params: Record<string, unknown>,
  context: ServerContext,
  rounds: InputRounds | undefined,
): Promise<ApprovalGateAnswer> {
  if (!needsApproval(approvalSetting(tool.manifest, tool.config), params)) return { run: true };
  if (rounds !== undefined) {
    // A client that declared no elicitation gets the SDK's -32021 naming it, for the question.
    const answer = rounds.approval(approvalQuestion(tool.name, params));
    if (answer === undefined) return { run: false, result: failure('approval-unavailable', 'asked in the next round') };
    return approved(formAnswer(answer)) ? { run: true } : { run: false, result: failure('denied', denied(tool.name)) };
  }
  const signal = context.mcpReq.signal;
  const unasked = `${tool.name} asks a person before it runs (its approval setting), and this MCP client cannot ask them (it offers no elicitation): the call did not run. To let MCP clients run it unasked, set tools.${tool.name}.approval: never in riverse.yaml.`;
  if (server.getClientCapabilities()?.elicitation === undefined)
    return { run: false, result: failure('approval-unavailable', unasked) };
  try {
    const answer = await server.elicitInput(approvalQuestion(tool.name, params), {
      signal,
      timeout: APPROVAL_TIMEOUT_MS,
    });
    if (approved(answer)) return { run: true };
    return { run: false, result: failure('denied', denied(tool.name)) };
  } catch (error) {
    if (signal.aborted)
      return {
        run: false,
        result: failure('aborted', `Call to ${tool.name} was cancelled while it waited for approval.`),
      };
    return {
      run: false,
      result: failure(
        'approval-timeout',
        `${tool.name} needed the person's approval, and none came (${error instanceof Error ? error.message : String(error)}); it did not run.`,
      ),
    };
  }
}

/**
 * A long_running tool's `asks_first`, before its task exists: each in an input-required round of
 * its own in 2026-07-28 (the run stops at the first unanswered one: `rounds.asking`), over
 * elicitation in the 2025 revisions; `unavailable` for a client that offers no elicitation.
 */
function askFirst(
  server: Server,
  questions: AskQuestion[],
  context: ServerContext,
  rounds: InputRounds | undefined,
): Promise<Map<string, AskAnswer>> {
  return askUpFront(
    questions,
    async (question, signal) => {
      if (server.getClientCapabilities()?.elicitation === undefined) return { answered: false, reason: 'unavailable' };
      if (rounds === undefined) return ask(server, question, signal);
      const fits = (view: InputResponseView) => askAnswer(formAnswer(view), question);
      const answer = rounds.ask(askQuestion(question), { key: question.key, fits: (view) => fits(view) !== undefined });
      // Not answered yet: this round asks it, and the call is answered with the round, not a task.
      return answer === undefined ? { answered: false, reason: 'unavailable' } : fits(answer)!;
    },
    context.mcpReq.signal,
  );
}

/**
 * A tool's `context.ask`, put to the person through the client in the 2025 revisions: a request
 * to the client, answered within the question's time (5 minutes unless it says).
 */
async function ask(server: Server, question: AskQuestion, signal: AbortSignal): Promise<AskAnswer> {
  try {
    const answer = await server.elicitInput(askQuestion(question), {
      signal,
      timeout: question.timeoutMs ?? APPROVAL_TIMEOUT_MS,
    });
    // Content that does not fit the question is no answer from the person.
    return askAnswer(answer, question) ?? { answered: false, reason: 'cancelled' };
  } catch (error) {
    if (signal.aborted) return { answered: false, reason: 'cancelled' };
    return { answered: false, reason: /time(d)? ?out/i.test(String(error)) ? 'timeout' : 'unavailable' };
  }
}

/** A registered tool as MCP lists it: its schema as models are given it, its examples in the description. */
function mcpTool(tool: RegisteredTool): Tool {
  const { manifest } = tool;
  const examples = localizeList(manifest.examples);
  const description = [
    localize(manifest.description),
    ...(examples.length === 0 ? [] : ['', 'Examples:', ...examples.map((example) => `- ${example}`)]),
  ].join('\n');
  const { title, ...hints } = manifest.annotations ?? {};
  return {
    name: tool.name,
    ...(title === undefined ? {} : { title }),
    description,
    inputSchema: tool.schema as Tool['inputSchema'],
    ...(isObjectSchema(manifest.output) ? { outputSchema: manifest.output as Tool['outputSchema'] } : {}),
    ...(manifest.annotations === undefined
      ? {}
      : { annotations: { ...(title === undefined ? {} : { title }), ...hints } }),
  };
}

/** MCP's `outputSchema` describes an object (its `structuredContent` is one): another schema is not sent. */
function isObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}
