import type { ToolRunner } from '../registered-tool.ts';
import { InvalidToolResult } from '../tool-result.ts';
import type { SourceFile } from './load-in-workers.ts';
import type { ToolWorkers } from './tool-workers.ts';

/** Runs a tool's calls in the worker of its file's version; what the worker says becomes a result or a throw. */
export function isolatedRunner(workers: ToolWorkers, file: SourceFile, version: number, tool: string, memoryMb?: number): { run: ToolRunner; prepare: () => Promise<void> } {
  const prepare = () => workers.ready(file, version, memoryMb);
  const run: ToolRunner = async (params, context) => {
    const result = await workers.call(file, version, { tool, params, sessionId: context.sessionId, language: context.language, signal: context.signal }, memoryMb);
    if ('invalid' in result) throw new InvalidToolResult(result.invalid);
    if ('threw' in result) throw new Error(result.threw);
    return result;
  };
  return { run, prepare };
}
