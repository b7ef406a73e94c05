import type { ApprovalSetting } from './approval-policy.ts';

/**
 * The application config as tools see it (parsed from riverse.yaml). Tools receive the whole
 * object in their constructor, as in the seed, and their own section as `context.config`.
 */
export interface AppConfig {
  tools?: ToolsConfig;
  [key: string]: unknown;
}

export interface ToolsConfig {
  /** `false` turns every tool off. */
  enabled?: boolean;
  /** Drop-in folders, relative to the config file's folder. Default: `["agent/tools"]`. */
  dirs?: string[];
  /** `false` leaves out the built-in tools that come with Riverse (loaded after `dirs`; default true). */
  builtins?: boolean;
  /** Default per-call time limit in milliseconds (30 000). */
  timeout_ms?: number;
  /** Longest `data` kept from one call, in characters (20 000); the rest is cut with a marker. */
  max_result_chars?: number;
  /** The most one call's parts (images, audio, files) and `structured` may hold in all, in bytes (6 MiB); a part past it is replaced by a marker. */
  max_result_bytes?: number;
  /** `process` (default): each tool file loads and runs in a child process; `worker`: in a worker thread; `none`: in the assistant's own thread. */
  isolation?: Isolation;
  /** Memory limit of a tool file's process (all it holds) or worker (its heap) in MB (256); `tools.<name>.memory_mb` overrides it. */
  memory_mb?: number;
  /** How long one file's top-level code and isAvailable() may take when it loads, in ms (10 000). */
  load_timeout_ms?: number;
  /** Every other key is one tool's own section: `tools.<name>.enabled` and whatever the tool reads. */
  [toolName: string]: unknown;
}

/** Keys of `tools:` that are settings, not tool sections. */
export const TOOLS_SETTINGS = [
  'enabled',
  'dirs',
  'builtins',
  'timeout_ms',
  'max_result_chars',
  'max_result_bytes',
  'isolation',
  'memory_mb',
  'load_timeout_ms',
] as const;

export interface ToolSection {
  enabled?: boolean;
  /** Run this tool in the assistant's own thread, where its overhead matters (default false); the same as `isolation: none`. */
  trusted?: boolean;
  /** Where this tool runs, instead of `tools.isolation`. */
  isolation?: Isolation;
  /** Memory limit of this tool's process or worker in MB. */
  memory_mb?: number;
  /** Whether a person must approve each call (`always`, `never`, or a rule on a parameter); overrides the manifest's `approval`. */
  approval?: ApprovalSetting;
  [key: string]: unknown;
}

/**
 * The config as tools get it: with `base_dir`, the folder relative paths of the config are
 * resolved from (the config file's folder, else the folder Riverse started in), so that a tool
 * resolves its own relative paths as Riverse does. Always Riverse's: a `base_dir` in the file is replaced.
 */
export function withBaseDir(config: AppConfig, baseDir: string): AppConfig {
  return { ...config, base_dir: baseDir };
}

/** The `tools.<name>` section, or an empty one. */
export function toolSection(config: AppConfig, name: string): ToolSection {
  if ((TOOLS_SETTINGS as readonly string[]).includes(name)) return {};
  const section = config.tools?.[name];
  return typeof section === 'object' && section !== null && !Array.isArray(section) ? (section as ToolSection) : {};
}

/** `enabled: false` set in this section itself (own properties only: one inherited from a patched Object.prototype is no setting). */
export function turnedOff(section: object | undefined): boolean {
  return (
    section !== undefined && Object.hasOwn(section, 'enabled') && (section as { enabled?: unknown }).enabled === false
  );
}

/** Where tool code runs: a child process per file (the default), a worker thread per file, or Riverse's own thread. */
export type Isolation = 'process' | 'worker' | 'none';

/** A process per tool file: what holds against the most (decision 008). */
export const DEFAULT_ISOLATION: Isolation = 'process';

/** How one tool runs: `tools.<name>.isolation`, `none` for `trusted: true`, else the registry's isolation. */
export function toolIsolation(config: AppConfig, name: string, fallback: Isolation): Isolation {
  const section = toolSection(config, name);
  if (section.trusted === true) return 'none';
  return section.isolation === 'process' || section.isolation === 'worker' || section.isolation === 'none'
    ? section.isolation
    : fallback;
}
