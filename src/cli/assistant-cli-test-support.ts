// Test support for src/cli/chat/ask.test.ts and chat.test.ts (not a test itself): `riverse ask` and
// `riverse chat` run as a user runs them — a separate process with a clean environment, in a
// project folder of its own, input piped in — against a real local OpenAI-protocol server and a
// real local wttr.in-like server for the weather tool.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { OpenAITestServer, ReplyHandler, ReplySpec } from '../models/testing/openai-wire.ts';
import {
  modelServer,
  tempDir,
  wttrServer,
  writeFiles,
  type Cleanup,
  type WttrServer,
} from '../assistant/turn-test-support.ts';
import { CLI, type ProcessResult } from './cli-test-support.ts';

const WEATHER_TOOL = fileURLToPath(new URL('../../agent/tools/weather.ts', import.meta.url));

export interface CliSetup {
  model: OpenAITestServer;
  wttr: WttrServer;
  /** The project folder: agent/tools/weather.ts and a riverse.yaml pointing weather at `wttr`. */
  project: string;
  /** RIVERSE_DATA_DIR. */
  dataDir: string;
  /** The environment of a user who configured the local model server. */
  env: Record<string, string>;
}

/** The servers, a project folder and a data folder, all removed when the test ends. */
export async function cliSetup(
  t: Cleanup,
  handler: ReplyHandler | ReplySpec,
  options: { config?: string; slowMs?: number } = {},
): Promise<CliSetup> {
  const model = await modelServer(t, handler);
  const wttr = await wttrServer(t, options.slowMs);
  const project = await tempDir(t, 'riverse-cli-project-');
  const dataDir = await tempDir(t, 'riverse-cli-data-');
  await writeFiles(project, {
    'agent/tools/weather.ts': await readFile(WEATHER_TOOL, 'utf8'),
    'riverse.yaml': `tools:\n  weather:\n    base_url: ${wttr.url}\n${options.config ?? ''}`,
  });
  const env = {
    RIVERSE_MODEL: 'openai:test-model',
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'k',
    RIVERSE_DATA_DIR: dataDir,
  };
  return { model, wttr, project, dataDir, env };
}

/**
 * Runs `riverse ...args` in `cwd` with only PATH, HOME and `env` set, writes `input` to its stdin
 * and closes it.
 */
export function runRiverse(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    input?: string;
    killAfterMs?: number /** Sends `signal` once `condition()` holds (checked every 10 ms while the process runs): Ctrl+C at a chosen moment. */;
    signalWhen?: { condition: () => boolean; signal: NodeJS.Signals };
  },
): Promise<ProcessResult> {
  const started = performance.now();
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let lastOutputMs = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      lastOutputMs = performance.now() - started;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      lastOutputMs = performance.now() - started;
    });
    child.stdin.on('error', () => {}); // a process that exits without reading its input
    child.stdin.end(options.input ?? '');
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000);
    const signalWhen = options.signalWhen;
    const watcher =
      signalWhen === undefined
        ? undefined
        : setInterval(() => {
            if (!signalWhen.condition()) return;
            clearInterval(watcher);
            child.kill(signalWhen.signal);
          }, 10);
    child.on('error', (error) => {
      clearTimeout(killer);
      clearInterval(watcher);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      clearInterval(watcher);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, lastOutputMs });
    });
  });
}

/**
 * A model that uses the weather tool the way a real one would: a question naming cities gets one
 * weather call per city (Tokyo, Paris, Atlantis — which wttr does not know — and Slowtown, slow to answer), the results get an
 * answer quoting them, anything else an echo.
 */
export const weatherModel: ReplyHandler = (request) => {
  const messages = request.body.messages;
  const last = messages.at(-1)!;
  if (last.role === 'tool') {
    const results = messages.slice(messages.findLastIndex((message) => message.role === 'assistant') + 1);
    return { text: `Here is what I found. ${results.map((message) => message.content).join(' | ')}` };
  }
  const cities = String(last.content).match(/Tokyo|Paris|Atlantis|Slowtown/g) ?? [];
  if (cities.length === 0) return { text: `You said: ${last.content}` };
  return {
    toolCalls: cities.map((city, index) => ({
      name: 'weather',
      arguments: { city },
      id: `call_${messages.length}_${index}`,
    })),
  };
};
