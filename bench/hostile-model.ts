// Benchmark: a hostile model server against a turn with default settings. Prints the host's peak
// RSS while the server streams 100 MB (as text, as one endless line, as one tool call's arguments,
// as a non-streamed body), and how long a turn takes to end against a server that never answers,
// beside the bound the configuration sets. The server runs in its own process, so that its memory
// is not counted. It is not a test. Run with `npm run bench:hostile-model`.
// Knobs: BENCH_MB (100), BENCH_SILENT=0 skips the silent-server runs (about 50 s).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runTurn, DEFAULT_TURN_TIMEOUT_MS } from '../src/assistant/run-turn.ts';
import { DEFAULT_TIMEOUT_MS } from '../src/models/model-request.ts';
import {
  createOpenAICompatibleModel,
  type OpenAICompatibleOptions,
} from '../src/models/providers/openai/openai-compatible.ts';
import type { FloodMode } from '../src/models/testing/flood-server.ts';
import { ToolRegistry } from '../src/tool-runtime/tool-registry.ts';

const MB = 1024 * 1024;
const BYTES = Number(process.env.BENCH_MB ?? 100) * MB;
const SERVER = fileURLToPath(new URL('../src/models/testing/flood-server.ts', import.meta.url));

/** The flood server in a child process; its base URL. */
async function startServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, FLOOD_BYTES: String(BYTES) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the flood server exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

/** Peak RSS while `work` runs, sampled every 5 ms, and the process's own high-water mark (VmHWM). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number; beforeMb: number }> {
  const beforeMb = process.memoryUsage.rss() / MB;
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMb: peak / MB, beforeMb };
  } finally {
    clearInterval(sample);
  }
}

function vmHwmMb(): number {
  const line = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return line === null ? Number.NaN : Number(line[1]) / 1024;
}

const stats = async (url: string) => (await (await fetch(`${url}/stats`)).json()) as { sent: number; requests: number };

const server = await startServer();
const registry = await ToolRegistry.load({ folders: [], config: {} });
const turn = (
  mode: FloodMode,
  options: Partial<OpenAICompatibleOptions> = {},
  turnOptions: { stream?: boolean; timeoutMs?: number } = {},
) =>
  runTurn({
    model: createOpenAICompatibleModel({ model: 'flood', baseUrl: `${server.url}/${mode}/v1`, ...options }),
    registry,
    history: [],
    input: 'Say a lot.',
    language: 'en',
    ...turnOptions,
  });

try {
  console.log(
    `hostile model server, ${BYTES / MB} MB per reply; host RSS at start ${(process.memoryUsage.rss() / MB).toFixed(0)} MB (Node ${process.version})`,
  );
  console.log('\npeak host RSS while the server floods a turn (default settings; target < 300 MB):');
  const cases: Array<[string, FloodMode, Partial<OpenAICompatibleOptions>, { stream?: boolean }]> = [
    ['streamed text', 'text', {}, {}],
    ['one SSE line without end', 'line', {}, {}],
    ['one tool call’s arguments', 'args', {}, {}],
    ['non-streamed body', 'body', {}, { stream: false }],
  ];
  const flood = async (
    label: string,
    mode: FloodMode,
    options: Partial<OpenAICompatibleOptions>,
    turnOptions: { stream?: boolean },
  ) => {
    const sentBefore = (await stats(server.url)).sent;
    const started = performance.now();
    const { value: result, peakMb, beforeMb } = await peakRss(() => turn(mode, options, turnOptions));
    const ms = performance.now() - started;
    const sent = ((await stats(server.url)).sent - sentBefore) / MB;
    const outcome =
      result.error === undefined
        ? `${result.stopReason}, ${(result.text.length / MB).toFixed(1)} MB of text`
        : result.error.code;
    console.log(
      `  ${label.padEnd(44)} peak ${peakMb.toFixed(0).padStart(4)} MB (+${(peakMb - beforeMb).toFixed(0)})  server sent ${sent.toFixed(1).padStart(6)} MB  ${Math.round(ms)} ms  → ${outcome}`,
    );
  };
  for (const [label, mode, options, turnOptions] of cases) await flood(label, mode, options, turnOptions);
  console.log(`  the process's high-water mark (VmHWM) so far: ${vmHwmMb().toFixed(0)} MB`);
  console.log('for comparison, with max_reply_chars raised above the flood (the whole reply is then kept):');
  await flood('streamed text, all of it', 'text', { maxReplyChars: 2 * BYTES }, {});

  if (process.env.BENCH_SILENT !== '0') {
    console.log('\na server that accepts the request and never answers (target: ends within its bound + 1 s):');
    const silentBound = 2 * DEFAULT_TIMEOUT_MS + 500; // the attempt, one back-off (≤ 500 ms), the one retry
    for (const [label, turnTimeoutMs, bound] of [
      [
        `defaults (timeout_ms ${DEFAULT_TIMEOUT_MS / 1000} s, asked twice; turn ${DEFAULT_TURN_TIMEOUT_MS / 1000} s)`,
        undefined,
        silentBound,
      ],
      ['assistant.turn_timeout_ms: 10000', 10_000, 10_000],
    ] as const) {
      const started = performance.now();
      const result = await turn('silent', {}, turnTimeoutMs === undefined ? {} : { timeoutMs: turnTimeoutMs });
      const s = (performance.now() - started) / 1000;
      console.log(
        `  ${label.padEnd(58)} ended after ${s.toFixed(2)} s (bound ${(bound / 1000).toFixed(1)} s) → ${result.stopReason}/${result.error?.code}`,
      );
    }
  }
} finally {
  server.stop();
}
