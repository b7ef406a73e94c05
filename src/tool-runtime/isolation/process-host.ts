import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
// Newer than Node 20: read when called, so that the package links there (core/node-version.ts).
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { FrameReader, FrameTooLarge, frameWriter } from './frame-codec.ts';
import { PARENT_DEATH_ENV, parentDeathPrefix } from './parent-death.ts';
import { TOOL_HOST_SCRIPT, waitForStop, type HostEvents, type HostLimits, type ToolHost } from './tool-host.ts';
import type { FromWorker, ToWorker, WorkerData } from './worker-messages.ts';

/** How often a tool process's memory is looked at. */
const MEMORY_CHECK_MS = 100;
/** What is kept of a tool process's stderr, to say why it crashed. */
const STDERR_TAIL_CHARS = 2_000;
const PAGE_BYTES = 4096;

/** Where a host's stdout goes: Riverse's, unless Riverse's stdout carries a protocol (`riverse mcp`). */
let hostStdout: 'inherit' | 2 = 'inherit';

/** @internal Sends what tools print to stderr from now on: stdout is for the MCP messages alone. */
export function sendToolOutputToStderr(): void {
  hostStdout = 2;
}

/**
 * V8 settings for a loader process, which lives for one load: each file's code runs once there,
 * so compiling hot code with the optimizing compilers (TurboFan for the type stripper's
 * WebAssembly; Maglev and TurboFan for JavaScript) costs more, on background threads, than it
 * saves — about a fifth of a loader's CPU for 500 files (decision 013). The stripper's
 * WebAssembly (Node's own) is validated function by function as it is first compiled, not all at
 * the start (~10 ms of each loader's start; decision 018). Given only to the V8 versions known to
 * have these flags: an unknown flag stops Node before it starts.
 */
export const LOADER_V8_FLAGS: readonly string[] = (() => {
  const major = Number(process.versions.v8.split('.')[0]);
  return major >= 11 && major <= 14 ? ['--liftoff-only', '--max-opt=1', '--wasm-lazy-validation'] : [];
})();

/**
 * A child process: its own memory (limited as a whole, Buffers included), file descriptors and
 * signals. It runs in its own process group, so that Ctrl-C in the terminal reaches Riverse only,
 * and it exits when Riverse does (its channel closes, or the kernel ends it: parent-death.ts). `v8Flags`: for a loader, LOADER_V8_FLAGS.
 */
export function startProcessHost(limits: HostLimits, events: HostEvents, v8Flags: readonly string[] = []): ToolHost {
  const cache = hostCompileCache();
  const through = parentDeathPrefix();
  const argv = [
    ...through,
    process.execPath,
    `--max-old-space-size=${limits.memoryMb}`,
    '--disable-warning=ExperimentalWarning',
    ...v8Flags,
    ...inheritedFlags(),
    fileURLToPath(TOOL_HOST_SCRIPT),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, ...(cache === undefined ? {} : { NODE_COMPILE_CACHE: cache }) };
  // Set only where setpriv set the signal up (a Riverse started by a tool inherits its host's environment).
  if (through.length === 0) delete env[PARENT_DEATH_ENV];
  else env[PARENT_DEATH_ENV] = '1';
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', hostStdout, 'pipe', 'pipe'], detached: true, env });
  if (child.pid !== undefined) live.add(child.pid);
  const channel = child.stdio[3] as Socket;
  const stderr = child.stdio[2] as Socket;
  let reason: string | undefined;
  let ended = false;
  const { promise: exited, resolve: onExited } = Promise.withResolvers<void>();
  const stop = (why: string) => {
    reason ??= why;
    killGroup(child.pid);
  };

  let baseline: number | undefined;
  let uncaught: string | undefined;
  const reader = new FrameReader(limits.maxMessageBytes, (value) => {
    const message = value as FromWorker;
    // Only the first: it is sent before any tool code runs, which could send another.
    if (message.type === 'started') baseline ??= typeof message.rss === 'number' ? message.rss : 0;
    else if (message.type === 'uncaught')
      uncaught = `its process crashed: ${message.error.name}: ${message.error.message}`;
    else events.message(message);
  });
  channel.on('data', (chunk: Buffer) => {
    if (reason !== undefined) return;
    try {
      reader.push(chunk);
    } catch (error) {
      stop(
        error instanceof FrameTooLarge
          ? `${error.message}, so its process was stopped`
          : `it sent a message Riverse could not read, so its process was stopped`,
      );
    }
  });
  channel.on('error', () => {}); // the exit says why
  let tail = '';
  stderr.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    // Passed on at the pace Riverse's own stderr takes it: a tool that floods it waits, Riverse does not buffer.
    if (!process.stderr.write(chunk)) {
      stderr.pause();
      process.stderr.once('drain', () => stderr.resume());
    }
  });

  // The limit counts what the tool's code holds: the process's memory beyond what it held when it started.
  const watchdog = setInterval(() => {
    const rss = baseline === undefined ? undefined : residentBytes(child.pid);
    if (rss !== undefined && rss - baseline! > limits.memoryMb * 1024 * 1024) {
      stop(
        `its process exceeded the memory limit of ${limits.memoryMb} MB (it held ${Math.round((rss - baseline!) / (1024 * 1024))} MB more than at its start) and was stopped`,
      );
    }
  }, MEMORY_CHECK_MS);
  watchdog.unref();

  const finish = (why: string) => {
    if (ended) return;
    ended = true;
    if (child.pid !== undefined) live.delete(child.pid);
    clearInterval(watchdog);
    channel.destroy();
    onExited();
    events.exit(reason ?? why);
  };
  child.once('error', (error) => finish(`its process could not start: ${error.message}`));
  child.once('exit', (code, signal) => {
    // Stopped by us: `reason` says why. Otherwise the heap limit (V8 aborts, saying so on stderr), a signal, or an exit code.
    if (uncaught !== undefined) finish(uncaught);
    else if (/heap limit|heap out of memory/i.test(tail))
      finish(`its process exceeded the memory limit of ${limits.memoryMb} MB and was stopped`);
    else if (signal !== null) finish(`its process was ended by ${signal}${lastLine(tail)}`);
    else finish(`its process exited with code ${code} (process.exit?)${lastLine(tail)}`);
  });
  const write = frameWriter(channel);
  return {
    kind: 'process',
    init(data: WorkerData) {
      if (!ended) write(data);
    },
    post(message: ToWorker) {
      if (!ended) write(message);
    },
    ref() {
      child.ref();
      channel.ref();
      stderr.ref();
    },
    unref() {
      child.unref();
      channel.unref();
      stderr.unref();
    },
    async terminate() {
      if (ended) return;
      child.ref(); // keep Riverse alive until the exit is seen, or its await would never settle
      stop('it was stopped');
      await waitForStop(exited);
    },
  };
}

/**
 * Where a tool process keeps what Node compiled of Riverse's side: Riverse's own cache when it has
 * one (the CLI turns it on), else Node's default folder, so that hosts started by an app that did
 * not turn it on do not strip and compile Riverse's files afresh each time (~60 ms of CPU each, from
 * the sources). Unless the person turned the cache off (NODE_DISABLE_COMPILE_CACHE).
 */
function hostCompileCache(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) return undefined;
  return nodeModule.getCompileCacheDir() ?? process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache');
}

/** Tool processes alive now: killed when Riverse exits, so that none outlives it (one that spins cannot notice). */
const live = new Set<number>();
process.on('exit', () => {
  for (const pid of live) killGroup(pid);
});

/** Flags of Riverse's own Node that tool code must see too (package export conditions). */
function inheritedFlags(): string[] {
  return process.execArgv.filter((flag) => flag.startsWith('--conditions') || flag.startsWith('-C'));
}

/** The whole group: the tool process and whatever programs it started. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Resident memory of a process (Linux: /proc); undefined where that cannot be read. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // 'utf8' is read straight into a string. Any other encoding goes through two 8 KB Buffers a read
    // (a /proc file has no size), malloc'd and freed only at the next GC: 160 KB/s per host, which an
    // idle service held for minutes, in a malloc heap that stays grown after (+4.5 MB over 60 s idle).
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return undefined;
  }
}

function lastLine(text: string): string {
  const line = text.trim().split('\n').at(-1)?.trim();
  return line === undefined || line === '' ? '' : `: ${line}`;
}
