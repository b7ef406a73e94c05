import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { Language } from '../core/language.ts';
import { renderPhrase, type Phrase } from '../core/phrase.ts';
import type { AskPerson, ToolContext } from '../tools/tool-context.ts';
import { checkFields } from '../tools/ask-form.ts';
import { mcpPhrase } from './mcp-client-text.ts';

/** The person a server's request reaches: the call's own channel (terminal, dashboard card, API event). */
export interface ElicitationChannel {
  ask: AskPerson;
  language: Language;
  /** The call's model (a server's `sampling/createMessage`, once the person allowed it: remote-sampling.ts). */
  sample?: ToolContext['sample'];
  /** The call's folders (a server's `roots/list`). */
  roots?: ToolContext['roots'];
}

/** A field of a form as the protocol describes it (a flat object of primitives, 2025-06-18 onwards). */
interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  anyOf?: Array<{ const?: unknown; title?: string }>;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown; title?: string }> };
}

/** Choices are offered only when they fit a question (the ask contract's limit). */
const MAX_CHOICES = 10;

/**
 * A server's `elicitation/create`, asked of the person through the channel of the call it came
 * with, as the questions tools ask are: a form in MCP's restricted schemas is ONE question with
 * those fields (036: one card in the dashboard, one prompt per field in the terminal, `fields` on
 * the API's event), which the person fills or declines. A schema outside them is asked field by
 * field: first whether to answer at all, then each field, with its default and choices offered. URL
 * mode shows the link (Riverse never opens it) and asks whether it is done. No answer in time is a
 * `cancel`; declining, or a call that cannot ask, a `decline`; the SDK fills omitted fields from their defaults.
 */
export async function elicit(
  server: string,
  params: ElicitRequestParams,
  channel: ElicitationChannel,
): Promise<ElicitResult> {
  const say = (phrase: Phrase) => renderPhrase(phrase, channel.language)!;
  const decline = say(mcpPhrase('mcp.elicit.choice.decline'));
  if (params.mode === 'url') {
    const url = new URL(params.url);
    const answer = await channel.ask(
      say(mcpPhrase('mcp.elicit.url', { server, message: params.message, url: url.href, domain: url.hostname })),
      { choices: [say(mcpPhrase('mcp.elicit.choice.done')), decline] },
    );
    if (!answer.answered) return { action: answer.reason === 'unavailable' ? 'decline' : 'cancel' };
    return { action: isDecline(answer.text, decline) ? 'decline' : 'accept' };
  }
  const schema = params.requestedSchema as { properties?: Record<string, FieldSchema>; required?: string[] };
  const fields = Object.entries(schema.properties ?? {});
  const form = checkFields(schema.properties, schema.required);
  const question = () =>
    say(
      mcpPhrase('mcp.elicit.form', {
        server,
        // A question is at most 2,000 characters (checkQuestion): a server's long message is cut.
        message: cut(params.message, 1_200),
        fields: fields.map(([key, field]) => field.title ?? key).join(', '),
      }),
    );
  if (typeof form !== 'string') {
    const answer = await channel.ask(question(), form);
    if (answer.answered) return { action: 'accept', content: answer.values ?? {} };
    return { action: answer.reason === 'timeout' ? 'cancel' : 'decline' };
  }
  const required = new Set(schema.required ?? []);
  const first = await channel.ask(question(), {
    choices: [say(mcpPhrase('mcp.elicit.choice.accept')), decline],
  });
  if (!first.answered) return { action: first.reason === 'unavailable' ? 'decline' : 'cancel' };
  if (isDecline(first.text, decline)) return { action: 'decline' };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [key, field] of fields) {
    const value = await askField(key, field, !required.has(key), channel, say);
    if (value === 'cancel') return { action: 'cancel' };
    if (value !== undefined) content[key] = value;
  }
  return { action: 'accept', content };
}

type FieldValue = string | number | boolean | string[];

/** One field: its answer as the schema's type, undefined when skipped, `cancel` when no answer came (or two that do not fit). */
async function askField(
  key: string,
  field: FieldSchema,
  optional: boolean,
  channel: ElicitationChannel,
  say: (phrase: Phrase) => string,
): Promise<FieldValue | undefined | 'cancel'> {
  const title = field.title ?? key;
  const values = optionsOf(field);
  const multiple = field.type === 'array';
  const kind = say(
    values !== undefined
      ? mcpPhrase(multiple ? 'mcp.elicit.kind.choices' : 'mcp.elicit.kind.choice', {
          choices: values.map((option) => option.label).join(', '),
        })
      : field.type === 'boolean'
        ? mcpPhrase('mcp.elicit.kind.boolean')
        : field.type === 'integer'
          ? mcpPhrase('mcp.elicit.kind.integer')
          : field.type === 'number'
            ? mcpPhrase('mcp.elicit.kind.number')
            : mcpPhrase('mcp.elicit.kind.text'),
  );
  const skip = say(mcpPhrase('mcp.elicit.choice.skip'));
  const yes = say(mcpPhrase('mcp.elicit.choice.yes'));
  const no = say(mcpPhrase('mcp.elicit.choice.no'));
  const fallback = field.default === undefined ? '' : String(field.default);
  const choices = [
    ...(field.type === 'boolean' ? [yes, no] : (values?.map((option) => option.label) ?? [])),
    ...(optional || field.default !== undefined ? [skip] : []),
  ];
  let question = say(
    mcpPhrase('mcp.elicit.field', { title, description: field.description ?? '', kind, optional, fallback }),
  );
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await channel.ask(question, choices.length <= MAX_CHOICES ? { choices } : {});
    if (!answer.answered) return 'cancel';
    const text = answer.text.trim();
    if (
      (text === '' || text.toLowerCase() === skip.toLowerCase() || text.toLowerCase() === 'skip') &&
      (optional || field.default !== undefined)
    )
      return undefined;
    const value = parseField(text, field, values, { yes, no });
    if (value !== undefined) return value;
    question = say(mcpPhrase('mcp.elicit.invalid', { title, kind }));
  }
  return 'cancel';
}

interface FieldOption {
  value: string;
  label: string;
}

function optionsOf(field: FieldSchema): FieldOption[] | undefined {
  const listed =
    field.type === 'array' ? (field.items?.enum ?? field.items?.anyOf) : (field.enum ?? field.oneOf ?? field.anyOf);
  if (!Array.isArray(listed)) return undefined;
  return listed.map((item) =>
    typeof item === 'object' && item !== null
      ? {
          value: String((item as { const?: unknown }).const),
          label: String((item as { title?: unknown }).title ?? (item as { const?: unknown }).const),
        }
      : { value: String(item), label: String(item) },
  );
}

function parseField(
  text: string,
  field: FieldSchema,
  options: FieldOption[] | undefined,
  words: { yes: string; no: string },
): FieldValue | undefined {
  const pick = (part: string) =>
    options?.find((option) => option.value === part || option.label.toLowerCase() === part.toLowerCase())?.value;
  if (options !== undefined && field.type === 'array') {
    const picked = text.split(/[,，、]/).map((part) => pick(part.trim()));
    return picked.every((value) => value !== undefined) ? (picked as string[]) : undefined;
  }
  if (options !== undefined) return pick(text);
  if (field.type === 'boolean') {
    const lower = text.toLowerCase();
    if ([words.yes.toLowerCase(), 'yes', 'y', 'true'].includes(lower)) return true;
    if ([words.no.toLowerCase(), 'no', 'n', 'false'].includes(lower)) return false;
    return undefined;
  }
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(text);
    if (text === '' || !Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number)))
      return undefined;
    return number;
  }
  return text;
}

function isDecline(text: string, decline: string): boolean {
  const lower = text.trim().toLowerCase();
  return lower === decline.toLowerCase() || lower === 'decline' || lower === 'no';
}

/** `text` at most `chars` long, an ellipsis where it was cut. */
export function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}
