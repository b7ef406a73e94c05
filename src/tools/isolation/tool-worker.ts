// The code inside a tool worker thread. As a loader it imports tool files one by one and reports
// what it found; as an executor it imports one file and runs its tools' calls. Whatever a tool does
// here — spin, exit, throw later, eat memory — the main thread survives it (decision 004).
import { parentPort, workerData } from 'node:worker_threads';
import type { BaseTool } from '../base-tool.ts';
import { toolSection } from '../app-config.ts';
import { errorMessage } from '../diagnostic.ts';
import { loadToolFile } from '../load-tool-file.ts';
import { createToolLogger } from '../tool-context.ts';
import { registerTypeScriptHooks, useSourceSnapshot } from '../typescript-hooks.ts';
import { checkToolResult } from '../tool-result.ts';
import type { FromWorker, ToWorker, WorkerData } from './worker-messages.ts';

registerTypeScriptHooks({ contractOnly: true });
const port = parentPort!;
const data = workerData as WorkerData;
const send = (message: FromWorker) => port.postMessage(message);

if (data.role === 'load') {
  port.on('message', async (message: ToWorker) => {
    if (message.type !== 'load') return;
    useSourceSnapshot(message.file, message.source);
    const loaded = await loadToolFile(message.file, data.config, message.version);
    send({ type: 'loaded', info: { ...loaded, tools: loaded.tools.map(({ tool: _tool, ...info }) => info) } });
  });
} else {
  useSourceSnapshot(data.file, data.source);
  const loaded = await loadToolFile(data.file, data.config, data.version, { checkAvailability: false });
  const tools = new Map<string, BaseTool>(loaded.tools.map((tool) => [tool.name, tool.tool]));
  const running = new Map<number, AbortController>();

  port.on('message', async (message: ToWorker) => {
    if (message.type === 'abort') {
      running.get(message.id)?.abort(new DOMException(message.reason?.message ?? 'The call was cancelled.', message.reason?.name ?? 'AbortError'));
      return;
    }
    if (message.type !== 'call') return;
    const tool = tools.get(message.tool);
    const controller = new AbortController();
    running.set(message.id, controller);
    let result: FromWorker & { type: 'result' };
    try {
      if (tool === undefined) {
        const problems = loaded.diagnostics.map((diagnostic) => diagnostic.message).join('; ');
        throw new Error(`the file no longer defines the tool "${message.tool}"${problems === '' ? '' : ` (${problems})`}`);
      }
      const value = await tool.execute(message.params, {
        signal: controller.signal,
        sessionId: message.sessionId,
        language: message.language,
        logger: createToolLogger(message.tool),
        config: toolSection(data.config, message.tool),
      });
      const checked = checkToolResult(value);
      result = { type: 'result', id: message.id, result: typeof checked === 'string' ? { invalid: checked } : checked };
    } catch (error) {
      // Sent as a thrown value: the main thread words it like an in-process exception.
      result = { type: 'result', id: message.id, result: { threw: errorMessage(error) } };
    } finally {
      running.delete(message.id);
    }
    send(result);
  });
  send({ type: 'ready', tools: [...tools.keys()] });
}
