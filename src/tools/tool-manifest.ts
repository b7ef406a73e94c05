import type { ApprovalSetting } from './approval-policy.ts';
import type { AskOptions } from './tool-context.ts';

import type { LocalizedList, LocalizedText } from '../core/language.ts';

export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** The long form of a parameter. The short form is just its description (an optional string). */
export interface ParameterSpec {
  description?: LocalizedText;
  /** Defaults to `string`. */
  type?: ParameterType;
  /** Defaults to `false`, as in the seed. */
  required?: boolean;
  enum?: readonly (string | number | boolean)[];
  default?: unknown;
  /** Element spec for `array`. */
  items?: ParameterSpec | string;
  /** Field specs for `object`. */
  properties?: Record<string, ParameterSpec | string>;
}

export type Parameter = string | ParameterSpec;

export interface ToolManifest {
  /** Unique id the model calls: `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** One sentence the model reads to decide when to use the tool. */
  description: LocalizedText;
  /** Parameter name → description (short form) or spec (long form). */
  parameters?: Record<string, Parameter>;
  /**
   * The parameters as one full JSON Schema (2020-12: `$defs`, `$ref`, `allOf`, `if`/`then`/`else` …),
   * instead of `parameters`: `{ type: 'object', properties: {…} }`. Served over MCP as given; each
   * provider is given what it can take of it (`riverse tools check` says what it cannot).
   */
  inputSchema?: JsonSchemaObject;
  /** The same as `inputSchema`, spelled as MCP's wire and the issue tracker spell it. */
  input_schema?: JsonSchemaObject;
  /**
   * A JSON Schema for the result's `structured` value: a result that does not match it fails with
   * a clear message. Served over MCP as the tool's `outputSchema`.
   */
  output?: JsonSchemaObject;
  /** 2–3 natural-language messages that should trigger the tool. */
  examples?: LocalizedList;
  /** Per-call time limit; the registry default (30 s) applies otherwise. */
  timeoutMs?: number;
  /**
   * A call that may take minutes or hours: it runs as a task (`riverse tasks`), apart from the turn,
   * which gets a handle at once; the result is delivered into the session when it ends. `optional`:
   * an MCP client without the tasks extension gets a plain call that waits; `required`: such a client
   * gets the protocol's error. A call of any tool that outlives `assistant.turn_timeout_ms` is
   * handed over the same way when its tool says either.
   */
  long_running?: LongRunning;
  /**
   * A long_running tool's questions to ask before its call becomes a task, each with its `key`:
   * they are asked in the call's own channel (the turn: terminal, dashboard, API; an MCP client:
   * its input-required rounds or elicitation), and only then does the call become a task. The
   * tool's `context.ask(question, { key })` with one of these keys gets that answer at once.
   */
  asks_first?: readonly AskFirst[];
  /** True when the tool must not run at the same time as any other call of the same round. */
  exclusive?: boolean;
  /**
   * Whether a person must say yes before a call runs: `always`, `never` (the default), or
   * `{ when: { param, matches } }` — when that parameter's value matches the regular expression.
   * Tools that write, run commands or send data out say `always`. `tools.<name>.approval` in
   * riverse.yaml overrides it.
   */
  approval?: ApprovalSetting;
  /**
   * True for a tool that stays off until `tools.<name>.enabled: true` is set (in riverse.yaml, or by
   * the dashboard's switch): one that changes files or runs programs. Riverse keeps it unavailable
   * until then and shows its switch off. Default false.
   */
  offByDefault?: boolean;
  /**
   * What clients that show or gate tools may assume (MCP tool annotations; `riverse mcp` sends them):
   * hints, not guarantees. Left out, a client assumes the worst (may write, may reach the world).
   */
  annotations?: ToolAnnotations;
}

export type LongRunning = 'optional' | 'required';

/** One of `asks_first`'s questions: `context.ask`'s question and options, with the `key` its answer is found by. */
export interface AskFirst extends AskOptions {
  key: string;
  question: string;
}

/** A JSON Schema written as an object literal. */
export type JsonSchemaObject = { [keyword: string]: unknown };

export const ANNOTATION_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export interface ToolAnnotations {
  /** A name for people to read in a client's list. */
  title?: string;
  /** It changes nothing. */
  readOnlyHint?: boolean;
  /** What it changes may be lost (deleted, overwritten); meaningful when not read-only. */
  destructiveHint?: boolean;
  /** Calling it twice with the same arguments does no more than once. */
  idempotentHint?: boolean;
  /** It reaches things outside Riverse (the web, other services). */
  openWorldHint?: boolean;
}
