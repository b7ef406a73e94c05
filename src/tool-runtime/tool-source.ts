import type { Diagnostic } from '../core/diagnostic.ts';
import type { ToolInfo } from './load-tool-file.ts';
import type { RegisteredTool } from './registered-tool.ts';
import type { RemoteTaskRef } from './remote-task-ref.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';

/** What a tool source holds at one moment. */
export interface SourceTools {
  /** Tools that can be called now, registered (their runners call the source). */
  tools: readonly RegisteredTool[];
  /** Tools known but not callable now, each with the reason. */
  unavailable: readonly ToolInfo[];
  /** What is wrong with the source (a server that did not connect), as any tool file's faults. */
  diagnostics: readonly Diagnostic[];
}

/**
 * Tools that come from somewhere other than the drop-in folders (the MCP servers of the config,
 * src/mcp). A registry takes them into every snapshot beside the files' tools; a live registry
 * composes a new snapshot each time a source says it changed. `file` of a source's tools and
 * diagnostics names the source (`mcp:<server>`), so that lists and changes say where a tool is from.
 */
export interface ToolSource {
  snapshot(): SourceTools;
  /** Calls `listener` with the `file` whose tools changed; returns a function that stops it. */
  onChange(listener: (file: string) => void): () => void;
  /**
   * Resolves once the source has its first tools, within its own bound. `ToolRegistry.load`, which
   * takes one snapshot, waits for it after the files are loaded, so the two happen side by side.
   */
  ready?(): Promise<void>;
  /**
   * Waits again on a task of one of its servers that an earlier Riverse process was waiting on (the
   * ref kept with the Riverse task): its result, or `{ interrupted }` with why it cannot be had (the
   * server forgot it). Undefined when the ref names no server of this source.
   */
  resumeTask?(
    ref: RemoteTaskRef,
    signal: AbortSignal,
  ): Promise<CheckedToolResult | { interrupted: string }> | undefined;
}
