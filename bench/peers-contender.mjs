// Riverse as a contender in the peers benchmark (/work/shared/bench/peers, see its README): the
// same tool turn as every other library, against the same mock model, used the way a Riverse user
// uses it. The tools are drop-in files: setup writes N_TOOLS tool files (`weather` and the
// `lookup_record_NNN` tools of the harness's toolSpecs(): same names, descriptions and required
// string parameters) into a temp folder and loads it with ToolRegistry.load(); each turn is a fresh
// one-shot conversation through runTurn() (Riverse's one-turn function, src/assistant/run-turn.ts), with
// the OpenAI-compatible model adapter and retries off.
//
// The weather tool is marked trusted (`tools.weather.trusted: true`), so it runs in this thread:
// the harness counts its calls in this process, and `trusted` is what a user sets for a tool whose
// per-call overhead matters. The other tools keep the default isolation (never called, they only
// ride along in every request). RIVERSE_ISOLATION=none loads every tool in this thread instead.
// The load cache is on, in a folder of its own (RIVERSE_PEERS_CACHE, else one in the temp folder), as an
// app that restarts keeps one; RIVERSE_PEERS_CACHE=off loads without it. The tool files are an app's
// source, on disk before it starts (the other contenders' tools are in their source too): they are
// written once into a folder named by their content, outside the timed set-up's work when the folder
// is already complete (RIVERSE_PEERS_FRESH=1 writes them to a new folder each run, as before, and the
// cache then answers a copy by its content: decision 030's addendum).
// RIVERSE_ENTRY=assistant runs each turn through the Assistant class instead (no store, a fresh
// session per turn, as `riverse ask` does).
//
// Run by the harness, on Node 24 (the project's node first on PATH):
//   EXTRA_CONTENDERS='{"riverse":"node /work/main/bench/peers-contender.mjs"}' node run.mjs
// bench/peers.sh does the copy, npm ci and both runs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMMON = process.env.PEERS_COMMON;
if (!COMMON) {
  process.stderr.write(
    '[riverse] PEERS_COMMON is not set: run this through the peers harness (run.mjs or selftest.mjs)\n',
  );
  process.exit(2);
}
// The tool file imports the harness's module by this same URL, so both get one module instance and
// weather()'s call counter sees the tool's calls. The query is there because Riverse imports tool
// files as `file.ts?v=N` and passes `?v=N` on to the plain file URLs they import (a fresh copy per
// load, for reloads); a URL that already has a query is left as it is.
const COMMON_URL = `${COMMON}?peers`;
const { bench, toolSpecs, USER_PROMPT } = await import(COMMON_URL);

// Project modules by absolute URL, so this works from the harness's working directory: the compiled
// package (dist/, what `npm install riverse` gives; bench/peers.sh builds it), or with
// RIVERSE_FROM=src the TypeScript sources (which also pay for Node's type stripper, ~30 MB).
const FROM = process.env.RIVERSE_FROM || 'dist';
if (FROM !== 'dist' && FROM !== 'src') {
  process.stderr.write(`[riverse] RIVERSE_FROM must be "dist" or "src", got ${JSON.stringify(FROM)}\n`);
  process.exit(2);
}
const src = (path) =>
  new URL(`../${FROM}/${FROM === 'dist' ? path.replace(/\.ts$/, '.js') : path}`, import.meta.url).href;
const { ToolRegistry } = await import(src('tool-runtime/tool-registry.ts'));
const { createOpenAICompatibleModel } = await import(src('models/providers/openai/openai-compatible.ts'));
const { Assistant } = await import(src('assistant/assistant.ts'));
const { runTurn } = await import(src('assistant/run-turn.ts'));

const ENTRY = process.env.RIVERSE_ENTRY || 'run-turn';
const ISOLATION = process.env.RIVERSE_ISOLATION || undefined;
if (ENTRY !== 'assistant' && ENTRY !== 'run-turn') {
  process.stderr.write(`[riverse] RIVERSE_ENTRY must be "assistant" or "run-turn", got ${JSON.stringify(ENTRY)}\n`);
  process.exit(2);
}

// The temp folder goes at any exit: bench() ends with process.exit(), failures with exit(1).
let toolDir;
let freshDir = false;
const cleanUp = () => {
  if (toolDir !== undefined && freshDir) rmSync(toolDir, { recursive: true, force: true });
  toolDir = undefined;
};
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** One drop-in tool file, as a user would write it: a BaseTool subclass with its manifest. */
function toolFile(spec, index) {
  const q = (value) => JSON.stringify(value);
  const parameters = spec.params
    .map((p) => `        ${p.name}: { type: 'string', required: true, description: ${q(p.description)} },`)
    .join('\n');
  const isWeather = spec.name === 'weather';
  const execute = isWeather
    ? `  execute(params: { city: string }): ToolResult {
    return ToolResult.ok(weather(params));
  }`
    : `  execute(): ToolResult {
    throw new Error(${q(`${spec.name} should never be called`)});
  }`;
  return `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';
${isWeather ? `// The harness's own weather(): the same module instance as the bench loop's, so its call counter sees this call.\nimport { weather } from ${q(COMMON_URL)};\n` : ''}
export class Tool${String(index).padStart(3, '0')} extends BaseTool {
  manifest(): ToolManifest {
    return {
      name: ${q(spec.name)},
      description: ${q(spec.description)},
      parameters: {
${parameters}
      },
    };
  }

${execute}
}
`;
}

/** The folder holding these tool files: one named by their content, written when it is not complete. */
function toolFolder(files) {
  freshDir = process.env.RIVERSE_PEERS_FRESH === '1';
  const hash = createHash('sha256');
  for (const [name, text] of files) hash.update(name).update('\0').update(text).update('\0');
  const dir = freshDir
    ? mkdtempSync(join(tmpdir(), 'riverse-peers-'))
    : join(tmpdir(), `riverse-peers-tools-${hash.digest('hex').slice(0, 16)}`);
  const complete = join(dir, '.complete');
  if (freshDir || !existsSync(complete)) {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    if (!freshDir) writeFileSync(complete, '');
  }
  return dir;
}

bench(
  'riverse',
  async (cfg) => {
    toolDir = toolFolder(toolSpecs(cfg.nTools).map((spec, index) => [`${spec.name}.ts`, toolFile(spec, index)]));
    const config = {
      tools: { weather: { trusted: true }, ...(ISOLATION === undefined ? {} : { isolation: ISOLATION }) },
    };
    const cacheSetting = process.env.RIVERSE_PEERS_CACHE || join(tmpdir(), 'riverse-peers-cache');
    const registry = await ToolRegistry.load({
      folders: [toolDir],
      config,
      ...(cacheSetting === 'off' ? {} : { cacheDir: cacheSetting }),
    });
    const errors = registry.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0 || registry.tools().length !== cfg.nTools) {
      throw new Error(
        `loaded ${registry.tools().length} of ${cfg.nTools} tools; errors: ${JSON.stringify(errors.slice(0, 3))}`,
      );
    }
    const model = createOpenAICompatibleModel({
      model: cfg.model,
      baseUrl: cfg.baseURL,
      apiKey: cfg.apiKey,
      maxRetries: 0,
    });
    const assistant = new Assistant({ model, registry, language: 'en', stream: cfg.stream });
    return { model, registry, assistant, turns: 0 };
  },
  async (ctx, cfg) => {
    const result =
      ENTRY === 'assistant'
        ? await ctx.assistant.turn(USER_PROMPT, { session: `turn-${ctx.turns++}` })
        : await runTurn({
            model: ctx.model,
            registry: ctx.registry,
            history: [],
            input: USER_PROMPT,
            language: 'en',
            stream: cfg.stream,
          });
    if (result.stopReason !== 'answer')
      throw new Error(`the turn ended with ${result.stopReason}: ${result.error?.message ?? result.text}`);
    return result.text;
  },
);
