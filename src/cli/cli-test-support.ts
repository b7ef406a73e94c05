// Test support for src/cli/**/*.test.ts (not a test itself): runs the `riverse` command the way a
// user runs it — a separate process, in a project folder of its own — and builds those folders.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command's entry point, run directly by Node as `bin` does. */
export const CLI = fileURLToPath(new URL('./main.ts', import.meta.url));
/** This checkout of Riverse (what `riverse` resolves to). */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ProcessResult {
  /** Exit code, or null when the process was killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
  /** Time from spawn to the last output (0 when there was none). */
  lastOutputMs: number;
}

export interface SpawnOptions {
  cwd: string;
  /** Added to (or, when undefined, removed from) the environment. */
  env?: Record<string, string | undefined>;
  /** Kills a process still running after this long; the result then has `code: null`. */
  killAfterMs?: number;
  /** Sends `signal` once stderr matches `stderr` (e.g. Ctrl-C once a tool says it started). */
  signalWhen?: { stderr: RegExp; signal: NodeJS.Signals };
  /** Called with all of stdout so far on every chunk, and the process (a test that talks to a server it started). */
  onStdout?: (stdout: string, child: ChildProcess) => void;
  /** The same for stderr (a sign-in link the command prints there). */
  onStderr?: (stderr: string, child: ChildProcess) => void;
  /** Gives the command a stdin the test ends (`child.stdin.end()`: `riverse mcp` runs until then), not an empty one. */
  openStdin?: boolean;
}

/**
 * The environment a user's shell would give: without the variables of the test runner that spawned
 * us (a child Node would otherwise report to it), without those of the `npm test` around it (its
 * npm_config_* change what a child npx does), and without Riverse settings from outside.
 */
function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  // No locale either: the commands speak English unless a test asks for another language.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['LANG', 'LANGUAGE', 'LC_ALL', 'LC_MESSAGES']) delete env[name];
  for (const name of Object.keys(env)) {
    if (
      name.startsWith('RIVERSE_') ||
      /^npm_/i.test(name) ||
      ['NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'FORCE_COLOR', 'INIT_CWD'].includes(name)
    )
      delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs `node ...args` (this Node, 24) and collects its output. */
function runNode(args: string[], options: SpawnOptions): Promise<ProcessResult> {
  return runCommand(process.execPath, args, options);
}

/** Runs a command (found on PATH) and collects its output. */
export function runCommand(command: string, args: string[], options: SpawnOptions): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: [options.openStdin === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let stdout = '';
    let stderr = '';
    let lastOutputMs = 0;
    let signalled = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      lastOutputMs = performance.now() - started;
      options.onStdout?.(stdout, child);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      lastOutputMs = performance.now() - started;
      options.onStderr?.(stderr, child);
      if (options.signalWhen !== undefined && !signalled && options.signalWhen.stderr.test(stderr)) {
        signalled = true;
        child.kill(options.signalWhen.signal);
      }
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, lastOutputMs });
    });
  });
}

/** Runs `riverse ...args` in `cwd`. */
function riverse(args: string[], options: SpawnOptions): Promise<ProcessResult> {
  return runNode([CLI, ...args], options);
}

/** A throwaway project folder: `agent/tools/…` and whatever else a test writes into it. */
export interface TempProject {
  dir: string;
  /** `riverse ...args` run from the project folder. */
  run(args: string[], options?: Omit<SpawnOptions, 'cwd'>): Promise<ProcessResult>;
  path(relativePath: string): string;
  write(relativePath: string, text: string): Promise<void>;
  read(relativePath: string): Promise<string>;
  /** Makes `import … from 'riverse'` resolve for plain `node` too (node_modules/riverse → this checkout). */
  linkRiverse(): Promise<void>;
  remove(): Promise<void>;
}

/** Creates a project folder holding `files` (relative path → text). Call `remove()` when done. */
export async function createProject(files: Record<string, string> = {}): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-cli-test-'));
  const project: TempProject = {
    dir,
    // Data (sessions, traces) in the project, not in the home folder of whoever runs the tests.
    run: (args, options = {}) =>
      riverse(args, { ...options, cwd: dir, env: { RIVERSE_DATA_DIR: join(dir, '.riverse-data'), ...options.env } }),
    path: (relativePath) => join(dir, relativePath),
    async write(relativePath, text) {
      await mkdir(dirname(join(dir, relativePath)), { recursive: true });
      await writeFile(join(dir, relativePath), text);
    },
    read: (relativePath) => readFile(join(dir, relativePath), 'utf8'),
    async linkRiverse() {
      await mkdir(join(dir, 'node_modules'), { recursive: true });
      await symlink(PROJECT_ROOT, join(dir, 'node_modules', 'riverse'), 'dir');
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [relativePath, text] of Object.entries(files)) await project.write(relativePath, text);
  return project;
}

/** Parses a command's JSON output, saying what the output was when it is not JSON. */
export function parseJson(result: ProcessResult): any {
  try {
    return JSON.parse(result.stdout);
  } catch (error) {
    throw new Error(`stdout is not JSON (${(error as Error).message}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** A compact description of a run for assertion messages. */
export function show(result: ProcessResult): string {
  return `exit ${result.code}${result.signal === null ? '' : ` (${result.signal})`} after ${Math.round(result.ms)} ms\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
}

// Tool files, written as a user writes them.

/** `echo(text)`: answers with the text; descriptions in three languages. */
export const ECHO_TOOL = `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

export class EchoTool extends BaseTool<{ text: string }> {
  manifest(): ToolManifest {
    return {
      name: 'echo',
      description: { en: 'Echoes the text back', zh: '原样返回文本', ja: 'テキストをそのまま返す' },
      parameters: {
        text: { type: 'string', required: true, description: { en: 'The text to echo', zh: '要返回的文本', ja: '返すテキスト' } },
        times: { type: 'integer', description: 'How many times', default: 1 },
      },
      examples: { en: ['Echo hello', 'Say "hi" back to me'], zh: ['回显 你好', '把这句话原样说一遍'] },
    };
  }

  async execute(params: { text: string; times: number }) {
    return ToolResult.ok(Array(params.times).fill(params.text).join(' '));
  }
}
`;

/** `add_one(n: integer)`: says the type it received, so coercion shows. */
export const ADD_ONE_TOOL = `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

export class AddOneTool extends BaseTool<{ n: number }> {
  manifest(): ToolManifest {
    return {
      name: 'add_one',
      description: 'Adds one to a whole number',
      parameters: { n: { type: 'integer', required: true, description: 'The number' } },
      examples: ['What is 3 plus one?', 'Increment 41'],
    };
  }

  async execute(params: { n: number }) {
    return ToolResult.ok(\`\${typeof params.n} \${params.n + 1}\`);
  }
}
`;

/** `greet(name)`: reads \`tools.greet.greeting\` from the config and answers in the context language. */
export const GREET_TOOL = `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

export class GreetTool extends BaseTool<{ name: string }> {
  manifest(): ToolManifest {
    return {
      name: 'greet',
      description: 'Greets someone with the configured greeting',
      parameters: { name: { type: 'string', required: true, description: 'Who to greet' } },
      examples: ['Greet Ana', 'Say hello to Bo'],
    };
  }

  async execute(params: { name: string }, context: ToolContext) {
    return ToolResult.ok(\`\${String(context.config.greeting ?? 'Hi')}, \${params.name} [\${context.language}]\`);
  }
}
`;

/** `always_fails()`: a tool that reports failure. */
export const FAILING_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class FailingTool extends BaseTool {
  manifest() {
    return { name: 'always_fails', description: 'Always fails', examples: ['Fail please', 'Break something'] };
  }

  async execute() {
    return ToolResult.fail('the disk is on fire');
  }
}
`;

/** \`slow()\`: says it started, then works for ten minutes, ignoring cancellation like a careless tool. */
export const SLOW_TOOL = `import { BaseTool, ToolResult, type ToolContext } from 'riverse';

export class SlowTool extends BaseTool {
  manifest() {
    return { name: 'slow', description: 'Takes ten minutes', examples: ['Take your time', 'Do the long job'] };
  }

  async execute(_params: {}, context: ToolContext) {
    context.logger.info('started');
    await new Promise((resolve) => setTimeout(resolve, 600_000));
    return ToolResult.ok('finally done');
  }
}
`;

/** A tool with no examples: loads, with a warning. */
export const NO_EXAMPLES_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class LonelyTool extends BaseTool {
  manifest() {
    return { name: 'lonely', description: 'A tool without examples' };
  }

  async execute() {
    return ToolResult.ok('alone');
  }
}
`;

/** A file that does not parse: the error is on line 6. */
export const SYNTAX_ERROR_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class BrokenTool extends BaseTool {
  manifest() {
    return { name: 'broken', description: 'Does not parse', examples: ['a', 'b'] };
  execute() {
    return ToolResult.ok('never');
  }
}
`;

/** A tool whose manifest() throws on line 6 (after a type annotation, so source maps matter). */
export const THROWING_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class ThrowingTool extends BaseTool {
  manifest(): never {
    const reason: string = 'the manifest is not ready';
    throw new Error(reason);
  }

  execute() {
    return ToolResult.ok('never');
  }
}
`;
