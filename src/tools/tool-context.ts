import type { ToolSection } from './app-config.ts';
import type { Language } from './tool-manifest.ts';

/** What `execute()` receives besides its parameters. */
export interface ToolContext {
  /** Fires when the call is cancelled or times out; pass it to fetch and other async work. */
  signal: AbortSignal;
  /** The conversation this call belongs to (`"cli"` from `riverse tools run`). */
  sessionId: string;
  /** The user's language, for answers a tool can give in it. */
  language: Language;
  logger: ToolLogger;
  /** This tool's own section of the config (`tools.<name>`), `{}` when there is none. */
  config: ToolSection;
}

export interface ToolLogger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export type LogLevel = keyof ToolLogger;
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** A logger that writes `[tool] message` to stderr at `minLevel` and above (RIVERSE_LOG_LEVEL, default info). */
export function createToolLogger(toolName: string, minLevel: LogLevel = defaultLogLevel()): ToolLogger {
  const threshold = LEVELS.indexOf(minLevel);
  const write = (level: LogLevel) => (message: string, ...details: unknown[]) => {
    if (LEVELS.indexOf(level) < threshold) return;
    console.error(`[${toolName}] ${level}: ${message}`, ...details);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

function defaultLogLevel(): LogLevel {
  const level = process.env.RIVERSE_LOG_LEVEL as LogLevel | undefined;
  return level !== undefined && LEVELS.includes(level) ? level : 'info';
}
