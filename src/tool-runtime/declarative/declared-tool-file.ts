// A `*.tools.yaml` file: tools declared without code, one per top-level key. Each is checked as a
// manifest is (the same checks, the same diagnostics), at the line of the YAML where the problem is.
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { AppConfig } from '../../tools/app-config.ts';
import { said, type Diagnostic } from '../../core/diagnostic.ts';
import { manifestProblemText, unavailableReason, type LoadedFile, type LoadedTool } from '../load-tool-file.ts';
import { readManifest } from '../manifest-snapshot.ts';
import { phrase } from '../runtime-phrases.ts';
import type { ToolManifest } from '../../tools/tool-manifest.ts';
import { MANIFEST_KEYS, suggest } from '../validate-manifest.ts';
import { DeclaredTool, JsonString, type CommandSpec, type HttpSpec, type JsonTemplate } from './declared-tool.ts';
import { paramsOf, parseTemplate, type Piece } from './template.ts';

const TOOL_KEYS = [...MANIFEST_KEYS.filter((key) => key !== 'name'), 'http', 'command'];
const HTTP_KEYS = ['url', 'method', 'headers', 'query', 'json', 'form', 'result'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

type Problem = { path: Array<string | number>; message: string };

/** The tools of one YAML file. Never throws: every fault is a diagnostic at its line. */
export async function loadDeclaredToolFile(file: string, source: string, config: AppConfig): Promise<LoadedFile> {
  const diagnostics: Diagnostic[] = [];
  const lines = new LineCounter();
  const document = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    for (const error of document.errors) {
      const { line, col } = lines.linePos(error.pos[0]);
      diagnostics.push({
        severity: 'error',
        code: 'syntax-error',
        file,
        line,
        column: col,
        ...said(
          phrase('load.yaml-invalid', { error: error.message.split('\n')[0]! }),
          phrase('load.yaml-invalid.hint'),
        ),
      });
    }
    return { file, tools: [], diagnostics };
  }
  const placeOf = (path: ReadonlyArray<string | number>): { line: number; column: number } | undefined => {
    // The deepest node of the path that exists: a missing field is reported where its parent is.
    for (let length = path.length; length >= 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      if (node?.range != null) {
        const { line, col } = lines.linePos(node.range[0]);
        return { line, column: col };
      }
    }
    return undefined;
  };
  const declared = document.toJS({ maxAliasCount: 100 }) as unknown;
  const report = (tool: string | undefined, problem: Problem, text?: Pick<Diagnostic, 'message' | 'hint' | 'text'>) => {
    const where = problem.path.join('.');
    diagnostics.push({
      severity: 'error',
      code: 'invalid-manifest',
      file,
      ...placeOf(problem.path),
      ...(tool === undefined ? {} : { tool }),
      ...(text ?? said(phrase('load.at-path', { path: where, problem: problem.message }), phrase('load.fix-declared'))),
    });
  };
  if (declared === null || declared === undefined)
    return {
      file,
      tools: [],
      diagnostics: [
        {
          severity: 'warning',
          code: 'no-tool-class',
          file,
          message: 'the file declares no tool',
          hint: 'declare tools as `name: { description, parameters, http: { url } }` (see "Declarative tools" in docs/custom-tools.md)',
        },
      ],
    };
  if (!isMap(document.contents) || typeof declared !== 'object' || Array.isArray(declared)) {
    report(undefined, {
      path: [],
      message:
        'a tools file is a mapping of tool names to their declarations (weather: { description, parameters, http: { url } })',
    });
    return { file, tools: [], diagnostics };
  }
  const tools: LoadedTool[] = [];
  for (const [name, spec] of Object.entries(declared as Record<string, unknown>)) {
    const built = buildTool(name, spec, document);
    if ('problems' in built) {
      for (const problem of built.problems) report(name, problem);
      continue;
    }
    const { manifest: snapshot, problems } = readManifest(built.manifest);
    for (const problem of problems) {
      const path = problem.path === '' ? [name] : [name, ...problem.path.split('.')];
      if (problem.severity === 'error') report(name, { path, message: problem.message }, manifestProblemText(problem));
      else
        diagnostics.push({
          severity: 'warning',
          code: 'manifest-warning',
          file,
          tool: name,
          ...placeOf(path),
          ...manifestProblemText(problem),
        });
    }
    if (problems.some((problem) => problem.severity === 'error')) continue;
    const manifest = snapshot as ToolManifest;
    const tool = new DeclaredTool(config, manifest, built.spec);
    const reason = await unavailableReason(
      tool,
      manifest.name,
      config,
      file,
      (diagnostic) => diagnostics.push({ file, ...diagnostic }),
      manifest.offByDefault === true,
    );
    tools.push({ name: manifest.name, file, tool, manifest, available: reason === undefined, ...reason });
  }
  return { file, tools, diagnostics };
}

/** The manifest and what the tool does, or every problem of its declaration. */
function buildTool(
  name: string,
  spec: unknown,
  document: Document,
): { manifest: ToolManifest; spec: HttpSpec | CommandSpec } | { problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (path: Array<string | number>, message: string) => problems.push({ path: [name, ...path], message });
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    at(
      [],
      'a tool is declared as a mapping: { description, parameters, http: { url } } or { description, parameters, command: [program, args…] }',
    );
    return { problems };
  }
  const fields = spec as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (!TOOL_KEYS.includes(key))
      at([key], `unknown field "${key}"${suggest(key, TOOL_KEYS)}; a declared tool has ${TOOL_KEYS.join(', ')}`);
  const { http, command, ...manifestFields } = fields;
  // A command runs a program, and an HTTP call other than GET or HEAD sends data out or changes
  // something: a person says yes to each call unless the file says approval: never.
  const acts =
    command !== undefined ||
    (typeof http === 'object' &&
      http !== null &&
      !['GET', 'HEAD'].includes(String((http as { method?: unknown }).method ?? 'GET').toUpperCase()));
  const manifest = {
    name,
    ...(acts && manifestFields.approval === undefined ? { approval: 'always' } : {}),
    ...manifestFields,
  } as unknown as ToolManifest;
  const declaredParams = new Map(
    Object.entries(
      (typeof fields.parameters === 'object' && fields.parameters !== null ? fields.parameters : {}) as Record<
        string,
        unknown
      >,
    ),
  );
  for (const param of declaredParams.keys())
    if (param.startsWith('config.'))
      at(
        ['parameters', param],
        'a parameter name may not start with "config.": {config.x} in a template is the setting tools.<name>.x',
      );
  const typeOf = (param: string) => {
    const declaredSpec = declaredParams.get(param);
    return typeof declaredSpec === 'object' && declaredSpec !== null
      ? String((declaredSpec as { type?: unknown }).type ?? 'string')
      : 'string';
  };
  const template = (value: unknown, path: Array<string | number>): Piece[] | undefined => {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      at(
        path,
        `expected text (a template such as "https://example.com/{city}"), got ${JSON.stringify(value) ?? String(value)}`,
      );
      return undefined;
    }
    const pieces = parseTemplate(String(value));
    if (typeof pieces === 'string') {
      at(path, pieces);
      return undefined;
    }
    for (const param of paramsOf(pieces))
      if (!declaredParams.has(param))
        at(path, `{${param}} names no parameter; declare it under parameters, or write {{ for a literal brace`);
    return pieces;
  };
  const pairs = (value: unknown, path: Array<string | number>): Array<[string, Piece[]]> => {
    if (value === undefined) return [];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      at(path, 'expected a mapping of names to templates');
      return [];
    }
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
      const pieces = template(item, [...path, key]);
      return pieces === undefined ? [] : [[key, pieces] as [string, Piece[]]];
    });
  };
  let built: HttpSpec | CommandSpec | undefined;
  if ((http === undefined) === (command === undefined))
    at([], 'declare exactly one of http: { url, … } or command: [program, args…]');
  else if (http !== undefined) {
    if (typeof http !== 'object' || http === null || Array.isArray(http))
      at(['http'], 'http is a mapping: { url, method, headers, query, json, form, result }');
    else {
      const h = http as Record<string, unknown>;
      for (const key of Object.keys(h))
        if (!HTTP_KEYS.includes(key))
          at(['http', key], `unknown field "${key}"${suggest(key, HTTP_KEYS)}; http has ${HTTP_KEYS.join(', ')}`);
      const method = String(h.method ?? 'GET').toUpperCase();
      if (!METHODS.includes(method))
        at(['http', 'method'], `method must be one of ${METHODS.join(', ')}, got ${JSON.stringify(h.method)}`);
      if (h.url === undefined) at(['http'], 'http needs a url: url: "https://example.com/api/{param}"');
      const url = h.url === undefined ? undefined : template(h.url, ['http', 'url']);
      if (url !== undefined && url.length > 0 && !('text' in url[0]!))
        at(['http', 'url'], 'the url must start with its scheme and host as text (https://…), not with a placeholder');
      if (h.json !== undefined && h.form !== undefined) at(['http'], 'give json or form as the body, not both');
      if (h.result !== undefined && typeof h.result !== 'string')
        at(['http', 'result'], 'result is a path into the JSON answer, such as current_condition.0.temp_C');
      const json = h.json === undefined ? undefined : jsonTemplate(h.json, ['http', 'json'], template);
      built = {
        kind: 'http',
        method,
        url: url ?? [],
        query: pairs(h.query, ['http', 'query']),
        headers: pairs(h.headers, ['http', 'headers']),
        ...(json === undefined ? {} : { json }),
        ...(h.form === undefined ? {} : { form: pairs(h.form, ['http', 'form']) }),
        ...(typeof h.result === 'string' ? { result: h.result } : {}),
      };
    }
  } else if (!Array.isArray(command) || command.length === 0 || !isSeq(document.getIn([name, 'command'], true)))
    at(
      ['command'],
      'command is a list: [program, "--flag", "{param}"], one argument per element, never run through a shell',
    );
  else {
    const argv = command.map((element, index) => template(element, ['command', index]) ?? []);
    const program = argv[0] ?? [];
    if (program.length !== 1 || !('text' in program[0]!))
      at(['command', 0], 'the program must be written out, not a placeholder');
    for (const [index, pieces] of argv.entries()) {
      for (const param of paramsOf(pieces))
        if (typeOf(param) === 'array' || typeOf(param) === 'object')
          at(
            ['command', index],
            `{${param}} is an ${typeOf(param)}; a command argument takes one text, number or boolean`,
          );
    }
    built = { kind: 'command', argv };
  }
  return problems.length > 0 || built === undefined ? { problems } : { manifest, spec: built };
}

function jsonTemplate(
  value: unknown,
  path: Array<string | number>,
  template: (value: unknown, path: Array<string | number>) => Piece[] | undefined,
): JsonTemplate {
  if (typeof value === 'string') return new JsonString(template(value, path) ?? []);
  if (Array.isArray(value)) return value.map((item, index) => jsonTemplate(item, [...path, index], template));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, jsonTemplate(item, [...path, key], template)]),
    );
  return value as number | boolean | null;
}
