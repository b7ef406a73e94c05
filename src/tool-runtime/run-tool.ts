import type { AppConfig } from '../tools/app-config.ts';
import type { BaseTool, ToolClass } from '../tools/base-tool.ts';
import { executeTool, executionLimits, type ExecuteOptions } from './execute-tool.ts';
import { registerTool } from './registered-tool.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import { readManifest } from './manifest-snapshot.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';

export interface RunToolOptions extends ExecuteOptions {
  /** The app config the tool is constructed with (default `{}`). */
  config?: AppConfig;
}

/**
 * Runs one tool exactly as the registry would — manifest checked, parameters validated and
 * coerced, time limit, cancellation — without a folder. Meant for a tool's own tests.
 * Throws only when the manifest is invalid, since then the registry would not load the tool.
 */
export async function runTool(
  tool: ToolClass | BaseTool,
  params: unknown,
  options: RunToolOptions = {},
): Promise<CheckedToolResult> {
  const instance = typeof tool === 'function' ? new tool(options.config ?? {}) : tool;
  const read = readManifest(instance.manifest());
  const manifest = read.manifest as ToolManifest;
  const errors = read.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0)
    throw new Error(
      `Invalid manifest:\n${errors.map((problem) => `- ${problem.path}: ${problem.message}`).join('\n')}`,
    );
  const entry = registerTool(
    { name: manifest.name, file: '', manifest },
    instance.config,
    (params, context) => instance.execute(params, context),
    'none',
  );
  return executeTool(entry, params, { sessionId: 'test', ...options }, executionLimits(instance.config));
}
