import { execFile } from 'node:child_process';
import type { AppConfig } from '../../tools/app-config.ts';
import { BaseTool } from '../../tools/base-tool.ts';
import { safeFetch, SafeFetchError, safeFetchSettings } from '../../tools/safe-fetch.ts';
import type { ToolContext } from '../../tools/tool-context.ts';
import type { ToolManifest } from '../../tools/tool-manifest.ts';
import { ToolResult } from '../../tools/tool-result.ts';
import { atPath } from './json-path.ts';
import { DECLARED_TOOL_TEXT } from './declared-tool-text.ts';
import { asText, fill, MissingSetting, pieceValue, wholePlaceholder, type Piece, type Values } from './template.ts';

/** A string of a JSON body template, kept apart from the objects around it. */
export class JsonString {
  readonly pieces: Piece[];
  constructor(pieces: Piece[]) {
    this.pieces = pieces;
  }
}
export type JsonTemplate = JsonString | number | boolean | null | JsonTemplate[] | { [key: string]: JsonTemplate };

export interface HttpSpec {
  kind: 'http';
  method: string;
  url: Piece[];
  query: Array<[string, Piece[]]>;
  headers: Array<[string, Piece[]]>;
  json?: JsonTemplate;
  form?: Array<[string, Piece[]]>;
  result?: string;
}

export interface CommandSpec {
  kind: 'command';
  argv: Piece[][];
}

const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
const MAX_OUTPUT_BYTES = 64 * 1024;
const LEFT_OUT = Symbol('left out');

/**
 * A tool declared in a `*.tools.yaml` file: an HTTP request or a command, filled in from the call's
 * parameters. It runs no code of the file's author, so it runs in Riverse's own process; its
 * requests go through safeFetch (the rules of web_fetch, from its own section:
 * `tools.<name>.allow_private`, `allow_hosts`, `hosts`) and its commands start without a shell.
 */
export class DeclaredTool extends BaseTool {
  readonly #manifest: ToolManifest;
  readonly #spec: HttpSpec | CommandSpec;

  constructor(config: AppConfig, manifest: ToolManifest, spec: HttpSpec | CommandSpec) {
    super(config);
    this.#manifest = manifest;
    this.#spec = spec;
  }

  manifest(): ToolManifest {
    return this.#manifest;
  }

  /** Its failures in the person's language. */
  #say(context: ToolContext) {
    return DECLARED_TOOL_TEXT[context.language] ?? DECLARED_TOOL_TEXT.en;
  }

  async execute(params: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
    const values: Values = { params, settings: context.config, section: `tools.${this.#manifest.name}` };
    try {
      return this.#spec.kind === 'http'
        ? await this.#request(this.#spec, values, context)
        : await this.#run(this.#spec, values, context);
    } catch (error) {
      if (error instanceof MissingSetting)
        return ToolResult.fail(this.#say(context).cannotRun(this.#manifest.name, error.setting));
      throw error;
    }
  }

  async #request(spec: HttpSpec, values: Values, context: ToolContext): Promise<ToolResult> {
    const url = new URL(fill(spec.url, values, encodeURIComponent));
    for (const [name, pieces] of spec.query) {
      const whole = wholePlaceholder(pieces);
      if (whole !== undefined && pieceValue(whole, values) === undefined) continue;
      url.searchParams.append(name, fill(pieces, values));
    }
    const headers: Record<string, string> = {};
    for (const [name, pieces] of spec.headers) {
      const value = fill(pieces, values);
      if (/[\r\n\0]/.test(value)) return ToolResult.fail(this.#say(context).headerBreak(name));
      headers[name.toLowerCase()] = value;
    }
    let body: string | undefined;
    if (spec.json !== undefined) {
      const filled = fillJson(spec.json, values);
      body = JSON.stringify(filled === LEFT_OUT ? null : filled);
      headers['content-type'] ??= 'application/json';
    } else if (spec.form !== undefined) {
      const form = new URLSearchParams();
      for (const [name, pieces] of spec.form) {
        const whole = wholePlaceholder(pieces);
        if (whole === undefined || pieceValue(whole, values) !== undefined) form.append(name, fill(pieces, values));
      }
      body = form.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    let response;
    try {
      response = await safeFetch(url.href, {
        ...safeFetchSettings(context.config, values.section),
        method: spec.method,
        headers: { accept: spec.result === undefined ? '*/*' : 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
        signal: context.signal,
        timeoutMs: Number(context.config.timeout_ms ?? 30_000),
        maxBytes: Number(context.config.max_bytes ?? 2 * 1024 * 1024),
      });
    } catch (error) {
      if (error instanceof SafeFetchError) return ToolResult.fail(error.in(context.language));
      throw error;
    }
    const text = response.body.toString('utf8');
    if (response.status >= 400)
      return ToolResult.fail(
        this.#say(context).http(url.host, `${response.status} ${response.statusText}`, text.trim().slice(0, 300)),
      );
    if (spec.result === undefined) return ToolResult.ok(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return ToolResult.fail(this.#say(context).notJson(url.host, response.truncated, spec.result));
    }
    const picked = atPath(parsed, spec.result);
    if (picked === undefined) return ToolResult.fail(this.#say(context).nothingAt(url.host, spec.result));
    return ToolResult.ok(typeof picked === 'string' ? picked : JSON.stringify(picked));
  }

  async #run(spec: CommandSpec, values: Values, context: ToolContext): Promise<ToolResult> {
    const argv: string[] = [];
    let endOfOptions = false;
    for (const pieces of spec.argv) {
      const whole = wholePlaceholder(pieces);
      // An element whose parameter the call left out is left out whole (`--limit={limit}` too).
      if (pieces.some((piece) => !('text' in piece) && pieceValue(piece, values) === undefined)) continue;
      const value = whole !== undefined ? asText(pieceValue(whole, values)) : fill(pieces, values);
      if (value.includes('\0')) return ToolResult.fail(this.#say(context).nul());
      // A value on its own must not turn into an option of the program (`-rf`, `--output=…`):
      // the file's author writes "--" before such an element to pass values that start with "-".
      if (whole !== undefined && argv.length > 0 && !endOfOptions && value.startsWith('-')) {
        return ToolResult.fail(this.#say(context).dash(JSON.stringify(value), argv[0]!));
      }
      if (argv.length > 0 && whole === undefined && value === '--') endOfOptions = true;
      argv.push(value);
    }
    const [program, ...args] = argv;
    const maxBytes = Number(context.config.max_output_bytes ?? MAX_OUTPUT_BYTES);
    const path = typeof context.config.path === 'string' ? context.config.path : DEFAULT_PATH;
    const cwd = typeof this.config.base_dir === 'string' ? this.config.base_dir : process.cwd();
    return new Promise((done) => {
      execFile(
        program!,
        args,
        {
          cwd,
          env: { PATH: path, LANG: 'C.UTF-8', HOME: cwd },
          shell: false,
          signal: context.signal,
          killSignal: 'SIGKILL',
          maxBuffer: maxBytes,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error === null) return done(ToolResult.ok(stdout));
          const failure = error as NodeJS.ErrnoException & { code?: number | string };
          if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
            return done(
              ToolResult.ok(
                `${stdout}\n…[output cut at ${maxBytes.toLocaleString('en')} bytes; the program was stopped]`,
              ),
            );
          if (failure.code === 'ENOENT')
            return done(ToolResult.fail(this.#say(context).notFound(program!, path, this.#manifest.name)));
          if (context.signal.aborted) return done(ToolResult.fail(this.#say(context).stopped(program!)));
          const detail = stderr.trim() === '' ? stdout.trim() : stderr.trim();
          done(
            ToolResult.fail(
              this.#say(context).exited(
                program!,
                typeof failure.code === 'number' ? failure.code : undefined,
                failure.message,
                detail.slice(0, 1000),
              ),
            ),
          );
        },
      );
    });
  }
}

/** The JSON body: a string that is one placeholder becomes that value, of its own type; one left out leaves its key out. */
function fillJson(template: JsonTemplate, values: Values): unknown {
  if (template instanceof JsonString) {
    const whole = wholePlaceholder(template.pieces);
    if (whole === undefined) return fill(template.pieces, values);
    const value = pieceValue(whole, values);
    return value === undefined ? LEFT_OUT : value;
  }
  if (Array.isArray(template))
    return template.map((item) => fillJson(item, values)).filter((item) => item !== LEFT_OUT);
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(
      Object.entries(template).flatMap(([key, item]) => {
        const value = fillJson(item, values);
        return value === LEFT_OUT ? [] : [[key, value]];
      }),
    );
  }
  return template;
}
