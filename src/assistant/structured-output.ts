import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ResponseFormat } from '../models/chat-model.ts';
import { finishTurn } from './finish-turn.ts';
import type { TurnState } from './turn-state.ts';
import { AGAIN, end, type Again, type End } from './turn-step.ts';

/** What an answer is against the format asked for: the JSON text to hand out, or what is wrong with it. */
type AnswerCheck = { ok: true; json: string } | { ok: false; problems: string };

type Checker = (answer: string) => AnswerCheck;

const require = createRequire(import.meta.url);
const checkers = new WeakMap<ResponseFormat, Checker>();
/** Ajv for draft-07 (and schemas that name no draft), and for 2019-09/2020-12: zod 4 writes the latter. */
const ajv: { draft7?: AjvLike; draft2020?: AjvLike } = {};

interface AjvLike {
  compile(schema: object): ValidateFunction;
}

/** The most of Ajv's complaints told to the model (and the client); the first ones say enough. */
const MAX_PROBLEMS = 8;

/**
 * The check of a format: the answer must be JSON (a code fence around it is taken off), an object
 * for `json_object`, valid against the schema for `json_schema`. Throws when the schema does not
 * compile (the service refuses such a request up front, naming the field).
 */
export function answerChecker(format: ResponseFormat): Checker {
  const known = checkers.get(format);
  if (known !== undefined) return known;
  const validate = format.type === 'json_schema' ? compile(format.schema) : undefined;
  const checker: Checker = (answer) => {
    const text = unfenced(answer);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { ok: false, problems: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    if (validate === undefined) {
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { ok: true, json: text }
        : { ok: false, problems: 'it is JSON, but not an object' };
    }
    return validate(value) ? { ok: true, json: text } : { ok: false, problems: describe(validate.errors ?? []) };
  };
  checkers.set(format, checker);
  return checker;
}

/**
 * The answer step when the caller asked for JSON: a matching answer is shown (it was held back
 * while it was checked) and ends the turn; one that does not match is answered once with what was
 * wrong and the round is asked again; a second mismatch ends the turn (`invalid-structured-output`).
 */
export function checkAnswer(
  turn: TurnState,
  format: ResponseFormat,
  answer: string,
): { kind: 'answer'; text: string } | Again | End {
  const checked = answerChecker(format)(answer);
  if (checked.ok) {
    turn.emit({ type: 'text-delta', text: checked.json });
    return { kind: 'answer', text: checked.json };
  }
  if (!turn.reasked) {
    turn.reasked = true;
    turn.commit(
      { role: 'assistant', content: answer },
      { role: 'user', content: turn.text.answerMismatch(checked.problems) },
    );
    return AGAIN;
  }
  const message = `the model's answer does not match response_format after one more try: ${checked.problems}`;
  return end(
    finishTurn(turn, 'error', turn.text.invalidAnswer(checked.problems), {
      code: 'invalid-structured-output',
      message,
    }),
  );
}

/** The schema as the model is told it (compact: it goes into every request of the turn). */
export function formatInstructionSchema(format: ResponseFormat): string | undefined {
  return format.type === 'json_schema' ? JSON.stringify(format.schema) : undefined;
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  const modern = /2019-09|2020-12/.test(draft);
  const options = { allErrors: true, strict: false, validateFormats: false };
  let instance: AjvLike;
  if (modern) {
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    instance = ajv.draft2020 ??= new Ajv2020(options);
  } else {
    const { Ajv } = require('ajv') as typeof import('ajv');
    instance = ajv.draft7 ??= new Ajv(options);
  }
  // A schema that names a draft Ajv does not know (draft-04) is read as draft-07.
  const { $schema: _draft, ...rest } = schema;
  return instance.compile(modern ? schema : rest);
}

/** ```json … ``` around the whole answer: what models write by habit, off. */
function unfenced(answer: string): string {
  const text = answer.trim();
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced === null ? text : fenced[1]!.trim();
}

function describe(errors: readonly ErrorObject[]): string {
  const said = errors.slice(0, MAX_PROBLEMS).map((error) => {
    const at = error.instancePath === '' ? 'the answer' : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${String((error.params as { additionalProperty?: unknown }).additionalProperty)}")`
        : error.keyword === 'enum'
          ? ` (${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)})`
          : '';
    return `${at} ${error.message ?? 'is not valid'}${extra}`;
  });
  const more = errors.length > MAX_PROBLEMS ? `; and ${errors.length - MAX_PROBLEMS} more` : '';
  return said.join('; ') + more;
}
