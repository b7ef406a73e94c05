import type { ToolRunner } from '../registered-tool.ts';
import { InvalidToolResult } from '../../tools/tool-result.ts';
import type { SourceFile } from './load-in-workers.ts';
import { reviveThrown } from './thrown-error.ts';
import { hostStartListener } from '../host-start.ts';
import type { HostChoice, ToolWorkers } from './tool-workers.ts';

/** Runs a tool's calls in the host of its file's version; what the host says becomes a result or a throw. */
export function isolatedRunner(
  workers: ToolWorkers,
  file: SourceFile,
  version: number,
  tool: string,
  choice: HostChoice,
): ToolRunner {
  return async (params, context) => {
    const result = await workers.call(file, version, choice, {
      tool,
      params,
      sessionId: context.sessionId,
      language: context.language,
      signal: context.signal,
      ask: context.ask,
      sample: context.sample,
      roots: context.roots,
      resultPart: context.resultPart,
      progress: context.progress,
      log: context.log,
      hostStarted: hostStartListener(context),
    });
    if ('invalid' in result) throw new InvalidToolResult(result.invalid, result.said);
    if ('threw' in result) throw reviveThrown(result.threw);
    return result;
  };
}
