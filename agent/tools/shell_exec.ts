import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { BaseTool, ToolResult, toolSection, type AppConfig, type ToolContext, type ToolManifest } from 'riverse';

type Params = { program: string; args?: string[] };

/** One allowed program and the patterns each of its arguments must match in full. */
interface Allowed {
  program: string;
  args: RegExp[];
}

const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
const TIMEOUT_MS = 10_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Runs one allowed program with allowed arguments — never through a shell, so `;`, `|`, `$(…)`
 * and quotes are plain characters of an argument. Off by default. Config (tools.shell_exec):
 * enabled: true; allow: [{ program: git, args: ['status', 'log', '-n', '[0-9]{1,3}'] }] — the
 * program by its exact name (looked up on `path`) or absolute path, each argument matching one
 * of the patterns in full; path (PATH of the program, default /usr/local/bin:/usr/bin:/bin);
 * cwd (default the config's folder); timeout_ms (10000); max_output_bytes (65536).
 */
export class ShellExecTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'shell_exec',
      description: {
        en: 'Run one of the programs the user allowed, with arguments (no shell)',
        zh: '运行用户允许的某个程序并传入参数（不经过 shell）',
        ja: 'ユーザーが許可したプログラムを引数付きで実行する（シェルは使わない）',
      },
      parameters: {
        program: {
          type: 'string',
          required: true,
          description: {
            en: 'The program, exactly as allowed in the config',
            zh: '程序名，与配置中允许的完全一致',
            ja: '設定で許可されたとおりのプログラム名',
          },
        },
        args: {
          type: 'array',
          items: 'One argument',
          description: {
            en: 'Its arguments, one per element',
            zh: '参数，每个元素一个',
            ja: '引数（要素ごとに 1 つ）',
          },
        },
      },
      examples: {
        en: ['Run git status in my project', 'Show the last 5 commits with git log'],
        zh: ['在我的项目里运行 git status', '用 git log 显示最近 5 次提交'],
        ja: ['プロジェクトで git status を実行して', 'git log で直近 5 件のコミットを見せて'],
      },
      // It runs programs: a person says yes to each call (tools.shell_exec.approval overrides it).
      approval: 'always',
      // Off until tools.<name>.enabled: true (the dashboard's switch writes it).
      offByDefault: true,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      timeoutMs: 60_000,
    };
  }

  override isAvailable(): boolean {
    const section = toolSection(this.config, 'shell_exec');
    if (section.enabled !== true)
      return this.unavailable({
        en: 'off by default, since it runs programs; set tools.shell_exec.enabled: true and list the programs in tools.shell_exec.allow in riverse.yaml',
        zh: '默认关闭，因为它会运行程序；在 riverse.yaml 中设置 tools.shell_exec.enabled: true，并在 tools.shell_exec.allow 中列出允许的程序',
        ja: 'プログラムを実行するため既定ではオフです。riverse.yaml で tools.shell_exec.enabled: true にし、tools.shell_exec.allow に許可するプログラムを並べてください',
      });
    const allowed = allowList(section.allow);
    if (typeof allowed === 'string') return this.unavailable(allowed);
    if (allowed.length === 0)
      return this.unavailable({
        en: 'no program is allowed; list them in tools.shell_exec.allow, e.g. [{ program: git, args: [status] }]',
        zh: '没有允许的程序；请在 tools.shell_exec.allow 中列出，例如 [{ program: git, args: [status] }]',
        ja: '許可されたプログラムがありません。tools.shell_exec.allow に並べてください（例：[{ program: git, args: [status] }]）',
      });
    return true;
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const allowed = allowList(context.config.allow);
    if (typeof allowed === 'string') return ToolResult.fail(allowed);
    const entry = allowed.find((candidate) => candidate.program === params.program);
    if (entry === undefined)
      return ToolResult.fail(
        `${JSON.stringify(params.program)} is not an allowed program; allowed: ${allowed.map((candidate) => candidate.program).join(', ')}.`,
      );
    const args = params.args ?? [];
    for (const [index, arg] of args.entries()) {
      if (!entry.args.some((pattern) => pattern.test(arg))) {
        return ToolResult.fail(
          `Argument ${index + 1} ${JSON.stringify(arg)} is not allowed for ${entry.program}; each argument must match one of: ${entry.args.map((pattern) => pattern.source.slice(4, -2)).join(', ') || '(none: it takes no arguments)'}.`,
        );
      }
    }
    const searchPath = typeof context.config.path === 'string' ? context.config.path : DEFAULT_PATH;
    const program = findProgram(entry.program, searchPath);
    if (program === undefined)
      return ToolResult.fail(
        `${entry.program} was not found on ${searchPath}; install it or set tools.shell_exec.path.`,
      );
    const cwd = resolve(baseDir(this.config), typeof context.config.cwd === 'string' ? context.config.cwd : '.');
    const timeoutMs = Number(context.config.timeout_ms ?? TIMEOUT_MS);
    const maxBytes = Number(context.config.max_output_bytes ?? MAX_OUTPUT_BYTES);
    // A minimal environment: the program sees no secrets of Riverse's own (API keys, tokens).
    const env = { PATH: searchPath, LANG: 'C.UTF-8', HOME: cwd };
    return new Promise((done) => {
      execFile(
        program,
        args,
        {
          cwd,
          env,
          shell: false,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: maxBytes,
          signal: context.signal,
          encoding: 'utf8',
          windowsHide: true,
        },
        (error, stdout, stderr) => {
          const output = [stdout, stderr === '' ? '' : `[stderr]\n${stderr}`].filter((part) => part !== '').join('\n');
          if (error === null)
            return done(ToolResult.ok(output === '' ? `${entry.program} finished with no output.` : output));
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
          if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
            return done(
              ToolResult.ok(
                `${output}\n…[output cut at ${maxBytes.toLocaleString('en')} bytes; the program was stopped]`,
              ),
            );
          if (context.signal.aborted) return done(ToolResult.fail(`${entry.program} was stopped.`));
          if (failure.killed === true)
            return done(
              ToolResult.fail(
                `${entry.program} did not finish within ${timeoutMs / 1000} s and was stopped.${output === '' ? '' : `\n${output}`}`,
              ),
            );
          if (typeof failure.code === 'number')
            return done(
              ToolResult.fail(
                `${entry.program} exited with code ${failure.code}.${output === '' ? '' : `\n${output}`}`,
              ),
            );
          done(ToolResult.fail(`${entry.program} could not be run: ${failure.message}`));
        },
      );
    });
  }
}

/** The allow-list from the config, or what is wrong with it. */
function allowList(value: unknown): Allowed[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'tools.shell_exec.allow must be a list of { program, args }';
  const entries: Allowed[] = [];
  for (const [index, item] of value.entries()) {
    const where = `tools.shell_exec.allow[${index}]`;
    if (
      typeof item !== 'object' ||
      item === null ||
      typeof (item as { program?: unknown }).program !== 'string' ||
      (item as { program: string }).program === ''
    )
      return `${where} needs a program: { program: git, args: [status] }`;
    const patterns = (item as { args?: unknown }).args ?? [];
    if (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== 'string'))
      return `${where}.args must be a list of patterns (strings)`;
    try {
      // Anchored: a pattern matches a whole argument, never a part of one.
      entries.push({
        program: (item as { program: string }).program,
        args: patterns.map((pattern: string) => new RegExp(`^(?:${pattern})$`, 'su')),
      });
    } catch (error) {
      return `${where}.args holds an invalid pattern: ${(error as Error).message}`;
    }
  }
  return entries;
}

function findProgram(program: string, searchPath: string): string | undefined {
  const candidates = isAbsolute(program)
    ? [program]
    : program.includes('/')
      ? []
      : searchPath
          .split(delimiter)
          .filter((dir) => isAbsolute(dir))
          .map((dir) => join(dir, program));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function baseDir(config: AppConfig): string {
  return typeof config.base_dir === 'string' ? config.base_dir : process.cwd();
}
