import type { Diagnostic } from '../core/diagnostic.ts';
import type { ToolInfo } from './load-tool-file.ts';
import type { RegisteredTool } from './registered-tool.ts';

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
}
