import type { ToolContext } from '../tools/tool-context.ts';

// A remote MCP server's task that a call waits on (033): the call's source says it when the server
// makes the task, so that the Riverse task running the call keeps its id, and a restart can poll
// it again (the tasks room's runner, `resumeRemote`) instead of interrupting it.

export interface RemoteTaskRef {
  /** The MCP server's name in riverse.yaml. */
  server: string;
  /** The tool's name on that server. */
  tool: string;
  taskId: string;
}

/** Where the hook rides on a call's context: Riverse's own, not part of the contract a tool file sees. */
const REMOTE_TASK = Symbol('riverse.remoteTask');

/** The context with the hook a source calls when its server made a task for the call. */
export function withRemoteTaskHook(
  context: ToolContext,
  hook: ((ref: RemoteTaskRef) => void) | undefined,
): ToolContext {
  if (hook !== undefined) Object.defineProperty(context, REMOTE_TASK, { value: hook, enumerable: false });
  return context;
}

/** The hook on a call's context, if the caller wants to know of a remote task. */
export function remoteTaskHook(context: ToolContext): ((ref: RemoteTaskRef) => void) | undefined {
  return (context as ToolContext & { [REMOTE_TASK]?: (ref: RemoteTaskRef) => void })[REMOTE_TASK];
}
