import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import {
  BaseTool,
  ToolResult,
  toolSection,
  type AppConfig,
  type Language,
  type ToolContext,
  type ToolManifest,
} from 'riverse';

type Params = { program: string; args?: string[] };

/** One allowed program and the patterns each of its arguments must match in full. */
interface Allowed {
  program: string;
  args: RegExp[];
}

/** A sentence in each language: what is wrong with the allow-list is shown on the reader's pages and to the model. */
type Said = Record<Language, string>;

/** Its failures, in the person's language. */
const ERRORS = {
  en: {
    notAllowed: (program: string, allowed: string) =>
      `${program} is not an allowed program; allowed: ${allowed || '(none)'}.`,
    argNotAllowed: (index: number, arg: string, program: string, patterns: string) =>
      `Argument ${index} ${arg} is not allowed for ${program}; each argument must match one of: ${patterns || '(none: it takes no arguments)'}.`,
    notFound: (program: string, path: string) =>
      `${program} was not found on ${path}; install it or set tools.shell_exec.path.`,
    stopped: (program: string) => `${program} was stopped.`,
    timedOut: (program: string, seconds: number) => `${program} did not finish within ${seconds} s and was stopped.`,
    exited: (program: string, code: number) => `${program} exited with code ${code}.`,
    cannotRun: (program: string, why: string) => `${program} could not be run: ${why}`,
  },
  zh: {
    notAllowed: (program: string, allowed: string) => `${program} 不是允许的程序；允许的有：${allowed || '（无）'}。`,
    argNotAllowed: (index: number, arg: string, program: string, patterns: string) =>
      `${program} 不允许第 ${index} 个参数 ${arg}；每个参数都必须完整匹配其中之一：${patterns || '（无：它不接受参数）'}。`,
    notFound: (program: string, path: string) =>
      `在 ${path} 中找不到 ${program}；请安装它，或设置 tools.shell_exec.path。`,
    stopped: (program: string) => `${program} 已被停止。`,
    timedOut: (program: string, seconds: number) => `${program} 在 ${seconds} 秒内没有结束，已被停止。`,
    exited: (program: string, code: number) => `${program} 以代码 ${code} 退出。`,
    cannotRun: (program: string, why: string) => `无法运行 ${program}：${why}`,
  },
  ja: {
    notAllowed: (program: string, allowed: string) =>
      `${program} は許可されたプログラムではありません。許可されているもの：${allowed || '（なし）'}。`,
    argNotAllowed: (index: number, arg: string, program: string, patterns: string) =>
      `${program} の ${index} 番目の引数 ${arg} は許可されていません。各引数はいずれかに完全に一致する必要があります：${patterns || '（なし：引数を取りません）'}。`,
    notFound: (program: string, path: string) =>
      `${path} に ${program} が見つかりません。インストールするか、tools.shell_exec.path を設定してください。`,
    stopped: (program: string) => `${program} は停止されました。`,
    timedOut: (program: string, seconds: number) =>
      `${program} は ${seconds} 秒以内に終わらなかったため停止されました。`,
    exited: (program: string, code: number) => `${program} はコード ${code} で終了しました。`,
    cannotRun: (program: string, why: string) => `${program} を実行できませんでした：${why}`,
  },
};

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
    if (!Array.isArray(allowed)) return this.unavailable(allowed);
    if (allowed.length === 0)
      return this.unavailable({
        en: 'no program is allowed; list them in tools.shell_exec.allow, e.g. [{ program: git, args: [status] }]',
        zh: '没有允许的程序；请在 tools.shell_exec.allow 中列出，例如 [{ program: git, args: [status] }]',
        ja: '許可されたプログラムがありません。tools.shell_exec.allow に並べてください（例：[{ program: git, args: [status] }]）',
      });
    return true;
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const say = ERRORS[context.language] ?? ERRORS.en;
    const allowed = allowList(context.config.allow);
    if (!Array.isArray(allowed)) return ToolResult.fail(allowed[context.language] ?? allowed.en);
    const entry = allowed.find((candidate) => candidate.program === params.program);
    if (entry === undefined)
      return ToolResult.fail(
        say.notAllowed(JSON.stringify(params.program), allowed.map((candidate) => candidate.program).join(', ')),
      );
    const args = params.args ?? [];
    for (const [index, arg] of args.entries()) {
      if (!entry.args.some((pattern) => pattern.test(arg))) {
        const patterns = entry.args.map((pattern) => pattern.source.slice(4, -2)).join(', ');
        return ToolResult.fail(say.argNotAllowed(index + 1, JSON.stringify(arg), entry.program, patterns));
      }
    }
    const searchPath = typeof context.config.path === 'string' ? context.config.path : DEFAULT_PATH;
    const program = findProgram(entry.program, searchPath);
    if (program === undefined) return ToolResult.fail(say.notFound(entry.program, searchPath));
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
          const after = output === '' ? '' : `\n${output}`;
          if (context.signal.aborted) return done(ToolResult.fail(say.stopped(entry.program)));
          if (failure.killed === true)
            return done(ToolResult.fail(`${say.timedOut(entry.program, timeoutMs / 1000)}${after}`));
          if (typeof failure.code === 'number')
            return done(ToolResult.fail(`${say.exited(entry.program, failure.code)}${after}`));
          done(ToolResult.fail(say.cannotRun(entry.program, failure.message)));
        },
      );
    });
  }
}

/** The allow-list from the config, or what is wrong with it. */
function allowList(value: unknown): Allowed[] | Said {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return {
      en: 'tools.shell_exec.allow must be a list of { program, args }',
      zh: 'tools.shell_exec.allow 必须是 { program, args } 的列表',
      ja: 'tools.shell_exec.allow は { program, args } のリストにしてください',
    };
  const entries: Allowed[] = [];
  for (const [index, item] of value.entries()) {
    const where = `tools.shell_exec.allow[${index}]`;
    if (
      typeof item !== 'object' ||
      item === null ||
      typeof (item as { program?: unknown }).program !== 'string' ||
      (item as { program: string }).program === ''
    )
      return {
        en: `${where} needs a program: { program: git, args: [status] }`,
        zh: `${where} 需要一个程序：{ program: git, args: [status] }`,
        ja: `${where} にはプログラムが必要です：{ program: git, args: [status] }`,
      };
    const patterns = (item as { args?: unknown }).args ?? [];
    if (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== 'string'))
      return {
        en: `${where}.args must be a list of patterns (strings)`,
        zh: `${where}.args 必须是模式（字符串）的列表`,
        ja: `${where}.args はパターン（文字列）のリストにしてください`,
      };
    try {
      // Anchored: a pattern matches a whole argument, never a part of one.
      entries.push({
        program: (item as { program: string }).program,
        args: patterns.map((pattern: string) => new RegExp(`^(?:${pattern})$`, 'su')),
      });
    } catch (error) {
      const why = (error as Error).message;
      return {
        en: `${where}.args holds an invalid pattern: ${why}`,
        zh: `${where}.args 中有无效的模式：${why}`,
        ja: `${where}.args に無効なパターンがあります：${why}`,
      };
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
