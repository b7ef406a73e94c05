import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { toolSection, turnedOff, type AppConfig } from '../tools/app-config.ts';
import { hasOwnAvailability, isToolClass, type BaseTool, type ToolClass } from '../tools/base-tool.ts';
import { said, type Diagnostic, type DiagnosticCode } from '../core/diagnostic.ts';
import { errorLocation, errorMessage } from './error-location.ts';
import { english, type Phrase } from '../core/phrase.ts';
import { LANGUAGES, localize, type Language } from '../core/language.ts';
import { phrase } from './runtime-phrases.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import { importFailure } from './import-failure.ts';
import { registerTypeScriptHooks } from './typescript-hooks.ts';
import { readManifest } from './manifest-snapshot.ts';
import { manifestPosition } from './manifest-position.ts';
import type { ManifestProblem } from './validate-manifest.ts';
import { callWatched } from './availability-watch.ts';

/** A tool found in a file, with a valid manifest, available or not. */
export interface ToolInfo {
  name: string;
  file: string;
  manifest: ToolManifest;
  available: boolean;
  /** Why it is unavailable (in English). */
  reason?: string;
  /** The same as a phrase, when the reason is Riverse's (not the tool's own words). */
  reasonText?: Phrase;
  /** The tool's own words in each language it gave (`unavailable({ en, zh, ja })`). */
  reasonTexts?: Partial<Record<Language, string>>;
  /**
   * Its availability comes from its own isAvailable(), which reached outside the config (a file, a
   * program) or answered with a promise: it must run at every load, so what loading found cannot be reused.
   */
  ownAvailability?: boolean;
}

/** A ToolInfo with the instance constructed in this thread. */
export interface LoadedTool extends ToolInfo {
  tool: BaseTool;
}

export interface LoadedFile {
  file: string;
  tools: LoadedTool[];
  diagnostics: Diagnostic[];
}

/** How long `isAvailable()` may take before the tool counts as unavailable. */
const AVAILABILITY_TIMEOUT_MS = 5_000;

/**
 * Imports one tool file and makes each exported BaseTool subclass into a LoadedTool. Never
 * throws: every fault becomes a diagnostic naming the file, the line where known, and a fix.
 * `version` makes the import fresh (a new module instance) when a file is loaded again.
 */
export async function loadToolFile(
  file: string,
  config: AppConfig,
  version = 0,
  options: { checkAvailability?: boolean } = {},
): Promise<LoadedFile> {
  registerTypeScriptHooks();
  const diagnostics: Diagnostic[] = [];
  const report = (diagnostic: Omit<Diagnostic, 'file'>) => diagnostics.push({ file, ...diagnostic });

  let exports: Record<string, unknown>;
  try {
    exports = await import(`${pathToFileURL(file).href}?v=${version}`);
  } catch (error) {
    report(importFailure(error, file));
    return { file, tools: [], diagnostics };
  }

  const classes = toolClasses(exports);
  if (classes.length === 0) {
    report({
      severity: 'warning',
      code: 'no-tool-class',
      ...said(phrase('load.no-tool-class'), phrase('load.no-tool-class.hint')),
    });
  }
  const tools: LoadedTool[] = [];
  for (const toolClass of classes) {
    const loaded = await loadToolClass(toolClass, file, config, report, options.checkAvailability ?? true);
    if (loaded === undefined) continue;
    // Two classes of one file with one name: the loader and the file's worker must agree on which
    // one is the tool, or the one checked here is not the one that runs. The first keeps it.
    const taken = tools.find((tool) => tool.name === loaded.name);
    if (taken === undefined) {
      tools.push(loaded);
      continue;
    }
    report({
      severity: 'error',
      code: 'duplicate-name',
      tool: loaded.name,
      ...said(
        phrase('load.same-name-in-file', {
          copy: classNameOf(loaded.tool.constructor),
          kept: classNameOf(taken.tool.constructor),
          name: loaded.name,
        }),
        phrase('load.same-name-in-file.hint'),
      ),
    });
  }
  return { file, tools, diagnostics };
}

/**
 * The exported BaseTool subclasses, in export order (a module's namespace lists its exports by
 * name). An export that cannot even be looked at (a Proxy that throws) is not a tool.
 */
function toolClasses(exports: Record<string, unknown>): ToolClass[] {
  const classes = new Set<ToolClass>();
  for (const name of Object.keys(exports)) {
    try {
      // Reading an export still in its temporal dead zone (an import cycle) throws, too.
      const value = exports[name];
      if (isToolClass(value)) classes.add(value);
    } catch {
      // not a class of ours
    }
  }
  return [...classes];
}

/** A class's name, even when its static `name` is missing or a getter that throws. */
function classNameOf(toolClass: unknown): string {
  try {
    const name = (toolClass as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : 'anonymous class';
  } catch {
    return 'anonymous class';
  }
}

export type Report = (diagnostic: Omit<Diagnostic, 'file'>) => void;

/**
 * One class as a tool, or undefined with its diagnostics reported. Whatever its members do (a
 * getter that throws where a method should be, say), it does not throw: in the loader a throw
 * would lose the whole file's report, and with `tools.isolation: none` end the command.
 */
async function loadToolClass(
  toolClass: ToolClass,
  file: string,
  config: AppConfig,
  report: Report,
  checkAvailability: boolean,
): Promise<LoadedTool | undefined> {
  const className = classNameOf(toolClass);
  try {
    return await loadToolInstance(toolClass, className, file, config, report, checkAvailability);
  } catch (error) {
    report(
      threwDiagnostic(
        'manifest-threw',
        className,
        error,
        file,
        phrase('load.members-threw', { className, error: errorMessage(error) }),
        phrase('load.members-threw.hint'),
      ),
    );
    return undefined;
  }
}

async function loadToolInstance(
  toolClass: ToolClass,
  className: string,
  file: string,
  config: AppConfig,
  report: Report,
  checkAvailability: boolean,
): Promise<LoadedTool | undefined> {
  let tool: BaseTool;
  try {
    tool = new toolClass(config);
  } catch (error) {
    report(
      threwDiagnostic(
        'constructor-threw',
        className,
        error,
        file,
        phrase('load.constructor-threw', { className, error: errorMessage(error) }),
        phrase('load.constructor-threw.hint'),
      ),
    );
    return undefined;
  }
  if (typeof tool.manifest !== 'function' || typeof tool.execute !== 'function') {
    // An intermediate base class exported alongside the real tools: not a tool itself.
    return undefined;
  }

  let returned: unknown;
  try {
    returned = tool.manifest();
  } catch (error) {
    report(
      threwDiagnostic(
        'manifest-threw',
        className,
        error,
        file,
        phrase('load.manifest-threw', { className, error: errorMessage(error) }),
        phrase('load.manifest-threw.hint'),
      ),
    );
    return undefined;
  }

  const { manifest: snapshot, problems } = readManifest(returned);
  const manifest = snapshot as ToolManifest;
  const toolName = typeof manifest?.name === 'string' && manifest.name !== '' ? manifest.name : className;
  const source = problems.length === 0 ? undefined : readSource(file);
  for (const problem of problems) {
    const position =
      source === undefined
        ? undefined
        : (manifestPosition(source, toolName, problem.path) ?? manifestPosition(source, className, problem.path));
    report({
      severity: problem.severity,
      code: problem.severity === 'error' ? 'invalid-manifest' : 'manifest-warning',
      tool: toolName,
      ...position,
      ...manifestProblemText(problem),
    });
  }
  if (problems.some((problem) => problem.severity === 'error')) return undefined;

  const watch = { outside: false };
  const reason = checkAvailability
    ? await unavailableReason(tool, manifest.name, config, file, report, manifest.offByDefault === true, watch)
    : undefined;
  return {
    name: manifest.name,
    file,
    tool,
    manifest,
    available: reason === undefined,
    ...reason,
    // One that answered at once from the config alone can be kept with the config as its key.
    ...(hasOwnAvailability(tool) && (watch.outside || !checkAvailability) ? { ownAvailability: true } : {}),
  };
}

/** Why the tool is off (ours as a phrase too; the tool's own words as they are), or undefined when it is available. */
export async function unavailableReason(
  tool: BaseTool,
  name: string,
  config: AppConfig,
  file: string,
  report: Report,
  offByDefault = false,
  /** Set to say isAvailable() reached outside the config, or answered with a promise. */
  watch: { outside: boolean } = { outside: false },
): Promise<Pick<ToolInfo, 'reason' | 'reasonText' | 'reasonTexts'> | undefined> {
  const off = (text: Phrase) => ({ reason: english(text), reasonText: text });
  if (turnedOff(config.tools)) return off(phrase('reason.all-off'));
  if (turnedOff(toolSection(config, name))) return off(phrase('reason.turned-off', { name }));
  // Cleared in `finally`: an isAvailable() that rejects must not leave the timer running, or its
  // rejection goes unhandled and ends the process 5 s later. An answer given at once (the default
  // isAvailable() gives one) needs no timer: a thousand files load without a thousand timers.
  let timer: NodeJS.Timeout | undefined;
  try {
    const called = callWatched((): unknown => tool.isAvailable());
    const answer = called.value;
    watch.outside = called.outside || isThenable(answer);
    const available = !isThenable(answer)
      ? answer
      : await Promise.race([
          answer,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`isAvailable() did not answer within ${AVAILABILITY_TIMEOUT_MS / 1000} s`)),
              AVAILABILITY_TIMEOUT_MS,
            );
          }),
        ]);
    // A tool that is off until switched on (its manifest's offByDefault), whether or not it checks itself.
    if (available === true)
      return offByDefault && toolSection(config, name).enabled !== true
        ? off(phrase('reason.off-by-default', { name }))
        : undefined;
    // Text only: the reason is sent from the loader as data and shown to people and models.
    const reason: unknown = tool.unavailableReason;
    if (reason !== undefined) return ownReason(reason);
    // Only `true` makes a tool available: say so when it was something else that looked like yes.
    return off(
      available === false
        ? phrase('reason.returned-false')
        : phrase('reason.not-true', {
            value: typeof available === 'string' ? JSON.stringify(available) : String(available),
          }),
    );
  } catch (error) {
    watch.outside = true; // a throw may come from what it reached for: asked again at every load
    report(
      threwDiagnostic(
        'is-available-threw',
        name,
        error,
        file,
        phrase('load.is-available-threw', { error: errorMessage(error) }),
        phrase('load.is-available-threw.hint'),
      ),
    );
    return off(phrase('load.is-available-threw', { error: errorMessage(error) }));
  } finally {
    clearTimeout(timer);
  }
}

/** The file as its author wrote it, to find where a manifest problem is written; undefined when unreadable. */
function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The tool's own reason as data: a text, or one text per language (English, or the first given, as `reason`). */
function ownReason(reason: unknown): Pick<ToolInfo, 'reason' | 'reasonTexts'> {
  if (typeof reason !== 'object' || reason === null || reason instanceof Error) return { reason: errorMessage(reason) };
  const texts: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const text: unknown = (reason as Record<string, unknown>)[language];
    if (typeof text === 'string' && text !== '') texts[language] = text;
  }
  const english = localize(texts, 'en');
  return english === '' ? { reason: errorMessage(reason) } : { reason: english, reasonTexts: texts };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A manifest problem as a diagnostic's text: at its path, with what to do when it is an error. */
export function manifestProblemText(problem: ManifestProblem): Pick<Diagnostic, 'message' | 'hint' | 'text'> {
  const hint = problem.severity === 'error' ? phrase('load.fix-manifest') : undefined;
  // A problem made without a phrase (by a check that has none yet) keeps its English text.
  if (problem.text === undefined) {
    const message = problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
    return hint === undefined ? { message } : { message, hint: said(hint).message };
  }
  return said(
    problem.path === '' ? problem.text : phrase('load.at-path', { path: problem.path, problem: problem.text }),
    hint,
  );
}

/** What the tool's own code threw (its constructor, manifest(), isAvailable()…), at the line it threw, source-mapped. */
function threwDiagnostic(
  code: DiagnosticCode,
  tool: string,
  error: unknown,
  file: string,
  message: Phrase,
  hint: Phrase,
): Omit<Diagnostic, 'file'> {
  return { severity: 'error', code, tool, ...errorLocation(error, file), ...said(message, hint) };
}
