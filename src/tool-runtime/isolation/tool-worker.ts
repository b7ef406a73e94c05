// The code inside a tool host — a worker thread or a child process. As a loader it imports tool
// files one by one and reports what it found; as an executor it imports one file and runs its
// tools' calls. Whatever a tool does here — spin, exit, throw later, eat memory — Riverse survives
// it (decisions 004 and 006).
// Newer than Node 20: read when called, so that the package links there (core/node-version.ts).
import * as nodeModule from 'node:module';
import { isMainThread } from 'node:worker_threads';
import type { BaseTool } from '../../tools/base-tool.ts';
import { toolIsolation, toolSection } from '../../tools/app-config.ts';
import { loadToolFile } from '../load-tool-file.ts';
import {
  checkPartReference,
  checkQuestion,
  createToolLogger,
  type AskAnswer,
  type AskPerson,
  type FindResultPart,
  type ToolContext,
} from '../../tools/tool-context.ts';
import { checkSampleRequest, ContextUnavailable } from '../../tools/sample-request.ts';
import { checkRootsOptions, type ListRoots } from '../../tools/client-roots.ts';
import {
  importedFiles,
  importsByItsLocation,
  javaScriptOf,
  mapStacksOnDemand,
  prepareJavaScript,
  registerTypeScriptHooks,
  useSourceSnapshot,
  warmTypeStripper,
} from '../typescript-hooks.ts';
import { checkToolResult, resultProblem, truncateResult, type CheckedToolResult } from '../../tools/tool-result.ts';
import { callReports } from '../../tools/call-report.ts';
import { partBuffers } from '../../tools/result-content.ts';
import type { ContentPart } from '../../tools/content-part.ts';
import { recordEnvironmentReads, withEnvironmentReads } from './environment-reads.ts';
import { guardProcess } from './guard-process.ts';
import { connectToHost } from './host-port.ts';
import { captureSharedState, changesSince } from './shared-state.ts';
import { describeThrown } from './thrown-error.ts';
import type { FileInfo, FromWorker, ToWorker } from './worker-messages.ts';

// Riverse's side of the host gets ready before the host knows its file (a spare waits here, warm):
// the hooks, the tool contract, and the type stripper, whose first use costs tens of milliseconds.
registerTypeScriptHooks({ contractOnly: true });
await import('riverse');
warmTypeStripper();
// A process host is killed, never ended, so Node would not write what it compiled of Riverse's
// side (types stripped, V8 code): written now, the next host reads it instead (~50 ms of CPU each).
if (isMainThread) nodeModule.flushCompileCache();
const port = await connectToHost();
const data = port.data;
guardProcess(data.hostPid);
if (port.kind === 'process') {
  port.send({ type: 'started', rss: process.memoryUsage.rss() });
  // What a worker thread reports by its 'error' event, a process says before it ends.
  const report = (error: unknown) => {
    port.send({ type: 'uncaught', error: describeThrown(error) });
    setImmediate(() => process.exit(1));
  };
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);
}

if (data.role === 'load') {
  mapStacksOnDemand();
  recordEnvironmentReads();
  // Taken after the hooks and the contract are in place, which every file shares by design.
  const shared = captureSharedState();
  // Riverse sends the next files before this one is done, so that no file waits for a round trip:
  // they are loaded one at a time, in the order sent, and those it takes back are skipped.
  const inbox: Array<ToWorker & { type: 'load' | 'check' }> = [];
  const dropped = new Set<number>();
  let draining = false;
  const handle = async (message: ToWorker & { type: 'load' | 'check' }) => {
    if (message.type === 'check') {
      const changed = changesSince(shared);
      port.send({ type: 'checked', ...(changed.length === 0 ? {} : { changed }) });
      return;
    }
    useSourceSnapshot(message.file, message.source);
    // CPU time, this thread's where Node can tell (22 cannot): what the file costs, whatever else the machine does.
    const cpu = () => process.threadCpuUsage?.() ?? process.cpuUsage();
    const started = cpu();
    const [loaded, environment] = await withEnvironmentReads(() =>
      loadToolFile(message.file, data.config, message.version),
    );
    const used = cpu();
    const loadMs = Math.round((used.user - started.user + used.system - started.system) / 1000);
    const changed = message.check ? changesSince(shared) : [];
    const info: FileInfo = {
      ...loaded,
      tools: loaded.tools.map(({ tool: _tool, ...info }) => info),
      dependencies: importedFiles(message.file),
      ...(importsByItsLocation(message.file) ? {} : { relocatable: true }),
      loadMs,
      ...(environment.names.length === 0 && !environment.listed ? {} : { environment }),
    };
    // A tool to run in Riverse's process is imported there too: from this JavaScript, so that Riverse needs no type stripper.
    const javascript = javaScriptOf(message.file);
    if (
      javascript !== undefined &&
      loaded.tools.some((tool) => toolIsolation(data.config, tool.name, port.kind) === 'none')
    )
      info.javascript = javascript;
    port.send({ type: 'loaded', seq: message.seq, info, ...(changed.length === 0 ? {} : { changed }) });
  };
  const drain = async () => {
    draining = true;
    for (let next = inbox.shift(); next !== undefined; next = inbox.shift()) {
      if (next.type === 'load' && dropped.delete(next.seq)) continue;
      await handle(next);
    }
    draining = false;
  };
  port.onMessage((message: ToWorker) => {
    if (message.type === 'drop') for (const seq of message.seqs) dropped.add(seq);
    if (message.type !== 'load' && message.type !== 'check') return;
    if (message.type === 'load') prepareJavaScript(message.file, message.source);
    inbox.push(message);
    if (!draining) void drain();
  });
  // From now on a file that takes long is the file's doing, not the loader's start.
  port.send({ type: 'ready', tools: [] });
} else {
  useSourceSnapshot(data.file, data.source);
  const loaded = await loadToolFile(data.file, data.config, data.version, { checkAvailability: false });
  const tools = new Map<string, BaseTool>(loaded.tools.map((tool) => [tool.name, tool.tool]));
  const running = new Map<number, AbortController>();
  // A question crosses to Riverse as a message, and its answer comes back the same way.
  const questions = new Map<number, (answer: AskAnswer) => void>();
  let nextQuestion = 0;
  const askAcross =
    (id: number): AskPerson =>
    async (question, options) => {
      const checked = checkQuestion(question, options);
      if (typeof checked === 'string') throw new TypeError(checked);
      const seq = ++nextQuestion;
      const answer = new Promise<AskAnswer>((resolve) => questions.set(seq, resolve));
      port.send({ type: 'ask', id, seq, ...checked });
      return answer;
    };

  // A model's reply or the roots come back the same way, or why there are none (thrown in the tool).
  const replies = new Map<number, PromiseWithResolvers<unknown>>();
  const request = (message: { type: 'sample' | 'roots'; id: number } & Record<string, unknown>): Promise<unknown> => {
    const seq = ++nextQuestion;
    const reply = Promise.withResolvers<unknown>();
    replies.set(seq, reply);
    port.send({ ...message, seq } as FromWorker);
    return reply.promise;
  };
  const sampleAcross =
    (id: number): ToolContext['sample'] =>
    async (given) => {
      const checked = checkSampleRequest(given);
      if (typeof checked === 'string') throw new TypeError(checked);
      return (await request({ type: 'sample', id, request: checked })) as Awaited<ReturnType<ToolContext['sample']>>;
    };
  const rootsAcross =
    (id: number): ListRoots =>
    async (given) => {
      const options = checkRootsOptions(given);
      if (typeof options === 'string') throw new TypeError(options);
      return (await request({ type: 'roots', id, options })) as Awaited<ReturnType<ListRoots>>;
    };
  // A part of an earlier result likewise (context.resultPart): asked by message, given back by message.
  const parts = new Map<number, (part: ContentPart | undefined) => void>();
  const partAcross =
    (id: number): FindResultPart =>
    async (callId, index) => {
      const checked = checkPartReference(callId, index);
      if (typeof checked === 'string') throw new TypeError(checked);
      const seq = ++nextQuestion;
      const part = new Promise<ContentPart | undefined>((resolve) => parts.set(seq, resolve));
      port.send({ type: 'part', id, seq, ...checked });
      return part;
    };

  port.onMessage(async (message: ToWorker) => {
    if (message.type === 'reply') {
      const reply = replies.get(message.seq);
      replies.delete(message.seq);
      if (message.failed === undefined) reply?.resolve(message.value);
      else {
        const error =
          message.failed.name === 'ContextUnavailable'
            ? new ContextUnavailable(message.failed.message)
            : new Error(message.failed.message);
        reply?.reject(error);
      }
      return;
    }
    if (message.type === 'answer') {
      questions.get(message.seq)?.(message.answer);
      questions.delete(message.seq);
      return;
    }
    if (message.type === 'part-answer') {
      parts.get(message.seq)?.(message.part);
      parts.delete(message.seq);
      return;
    }
    if (message.type === 'abort') {
      running
        .get(message.id)
        ?.abort(
          new DOMException(message.reason?.message ?? 'The call was cancelled.', message.reason?.name ?? 'AbortError'),
        );
      return;
    }
    if (message.type !== 'call') return;
    const tool = tools.get(message.tool);
    const controller = new AbortController();
    running.set(message.id, controller);
    let result: FromWorker & { type: 'result' };
    // Throttled here, before they cross: a tool that reports in a tight loop costs its host, not Riverse.
    const reports = callReports(
      (report) => port.send({ type: 'progress', id: message.id, ...report }),
      (report) => port.send({ type: 'log', id: message.id, ...report }),
    );
    try {
      if (tool === undefined) {
        const problems = loaded.diagnostics.map((diagnostic) => diagnostic.message).join('; ');
        throw new Error(
          `the file no longer defines the tool "${message.tool}"${problems === '' ? '' : ` (${problems})`}`,
        );
      }
      const value = await tool.execute(message.params, {
        signal: controller.signal,
        sessionId: message.sessionId,
        language: message.language,
        logger: createToolLogger(message.tool),
        config: toolSection(data.config, message.tool),
        ask: askAcross(message.id),
        sample: sampleAcross(message.id),
        roots: rootsAcross(message.id),
        resultPart: partAcross(message.id),
        progress: reports.progress,
        log: reports.log,
      });
      const checked = checkToolResult(value);
      // Cut here, before it crosses: a tool that returns 500 MB must not cost Riverse 500 MB.
      result = {
        type: 'result',
        id: message.id,
        result:
          typeof checked === 'string'
            ? { invalid: checked, said: resultProblem(value) }
            : truncateResult(ownBuffers(checked), data.maxResultChars, data.maxResultBytes),
      };
    } catch (error) {
      // Sent as a thrown value: Riverse rebuilds it and words it like an in-process exception.
      result = { type: 'result', id: message.id, result: { threw: describeThrown(error) } };
    } finally {
      reports.close();
      running.delete(message.id);
    }
    // The parts' bytes are moved to a worker's parent, not copied (a process writes them into its frame once).
    port.send(result, 'content' in result.result ? partBuffers(result.result.content) : []);
  });
  port.send({ type: 'ready', tools: [...tools.keys()] });
}

/**
 * The result with each part's bytes in a buffer of their own: a view into a larger buffer (a
 * slice of a file read whole) would carry all of that buffer across, serialized or moved.
 */
function ownBuffers(result: CheckedToolResult): CheckedToolResult {
  if (result.content === undefined) return result;
  const own = (bytes: string | Uint8Array): string | Uint8Array =>
    typeof bytes === 'string' || bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  const content = result.content.map((part): ContentPart => {
    if (part.type === 'image' || part.type === 'audio') return { ...part, data: own(part.data) };
    if (part.type === 'resource' && part.blob !== undefined) return { ...part, blob: own(part.blob) };
    return part;
  });
  return { ...result, content };
}
