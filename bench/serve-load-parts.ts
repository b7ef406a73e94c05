// What bench/serve-load.ts and bench/serve-replicas.ts share: the drop-in tool of every turn, the
// turn's request, a child started until it prints its address, the load (autocannon) and its figures.
// Not a test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

const STREAM = process.env.BENCH_STREAM === '1';
export const ANSWER = 'It is 16 °C and partly cloudy in Tokyo.';

export const ECHO_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class EchoTool extends BaseTool {
  manifest() {
    return { name: 'echo', description: 'Says the text back', parameters: { text: { type: 'string', required: true, description: 'What to say' } }, examples: ['Echo Tokyo'] };
  }
  async execute(params) {
    return ToolResult.ok(params.text + ': 16 °C, partly cloudy');
  }
}
`;

/** A project in `dir` whose one drop-in tool is ECHO_TOOL; its folder. */
export function echoProject(dir: string): string {
  const project = join(dir, 'project');
  mkdirSync(join(project, 'agent', 'tools'), { recursive: true });
  writeFileSync(join(project, 'agent', 'tools', 'echo.ts'), ECHO_TOOL);
  return project;
}

/** The arguments of `riverse serve` from the checkout at `root` on a free loopback port, after BENCH_SERVICE_NODE_ARGS. */
export function serveArgs(root: string): string[] {
  return [
    ...(process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    join(root, 'bin/riverse.js'),
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ];
}

/** The service's environment: its home in `home`, the scripted model at `modelUrl`, no token. */
export function serveEnv(home: string, modelUrl: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    RIVERSE_MODEL: 'openai:bench-model',
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: 'bench',
    RIVERSE_TOKEN: '',
  };
}

/** A child that prints a line matching `pattern` once it is ready; resolves with the match. */
export function startChild(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${args.join(' ')} printed nothing like ${pattern} in 60 s:\n${out}`)),
      60_000,
    );
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = pattern.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)));
  });
}

/** User and system CPU time of a process so far, in ms (/proc/PID/stat, in clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export interface Figures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export function figures(latencies: number[], seconds: number, errors: number): Figures {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

export const COMPLETION = JSON.stringify({
  model: 'riverse',
  messages: [{ role: 'user', content: "What's the weather in Tokyo?" }],
  ...(STREAM ? { stream: true } : {}),
});

/** The service under autocannon, as fast as it answers. */
export async function service(serviceUrl: string, connections: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  const options = {
    url: `${serviceUrl}v1/chat/completions`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: COMPLETION,
    connections,
    duration: seconds,
    timeout: 30,
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    // autocannon's own histogram keeps whole milliseconds; the targets need finer.
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) latencies.push(ms);
    });
  });
  return figures(latencies, result.duration, result.errors + result.timeouts + result.non2xx);
}

/** One completion, checked: the service answers with the tool's turn, not an error that would be fast. */
export async function checkAnswer(serviceUrl: string): Promise<void> {
  const response = await fetch(`${serviceUrl}v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: COMPLETION.replace(',"stream":true', ''),
  });
  const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
  if (body.choices?.[0]?.message?.content !== ANSWER)
    throw new Error(`the service did not answer the tool turn: ${JSON.stringify(body)}`);
}
