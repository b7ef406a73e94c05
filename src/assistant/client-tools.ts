import { randomBytes } from 'node:crypto';
import type { ToolCallRequest } from '../models/chat-message.ts';
import type { ToolDefinition } from '../models/chat-model.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import type { Dialect } from '../schema/dialect.ts';
import { normalizeArguments } from '../schema/normalize-arguments.ts';
import type { JsonSchema } from '../tool-runtime/parameter-schema.ts';

/**
 * A tool the caller runs itself (an OpenAI client's `tools`): offered to the model beside ours; a
 * call to it ends the turn and goes back to the caller.
 */
export interface ClientTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments, as the caller wrote it (default: an object without properties). */
  parameters?: Record<string, unknown>;
}

/** The caller's tools compiled for one model: what it is shown, and how its calls go back. */
export interface ClientToolSet {
  readonly definitions: readonly ToolDefinition[];
  has(name: string): boolean;
  /**
   * The call as the caller's schema expects it: the dialect's encoding undone (nulls for
   * optional parameters dropped, JSON text parsed), and an id of its own. Arguments that are not
   * JSON go back as they came, for the caller to refuse.
   */
  callForClient(call: ToolCallRequest): ToolCallRequest;
}

const EMPTY_OBJECT = { type: 'object', properties: {} };

/**
 * Compiles the caller's tools to the model's dialect (plain JSON Schema without one), like ours.
 * Throws when a schema cannot be compiled; the turn reports that as `invalid-client-tool`.
 */
export function clientToolSet(tools: readonly ClientTool[], dialect: Dialect | undefined): ClientToolSet {
  const originals = new Map<string, unknown>();
  const definitions = tools.map((tool): ToolDefinition => {
    const schema = tool.parameters ?? EMPTY_OBJECT;
    originals.set(tool.name, schema);
    let parameters: JsonSchema;
    try {
      parameters = (dialect === undefined ? schema : compileSchema(schema, dialect)) as JsonSchema;
    } catch (error) {
      throw new Error(
        `the parameters of client tool "${tool.name}" could not be compiled: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { name: tool.name, description: tool.description ?? '', parameters };
  });
  return {
    definitions,
    has: (name) => originals.has(name),
    callForClient(call) {
      const id = clientCallId();
      if (dialect === undefined) return { ...call, id };
      let args: unknown;
      try {
        args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
      } catch {
        return { ...call, id };
      }
      return {
        id,
        name: call.name,
        arguments: JSON.stringify(normalizeArguments(args, originals.get(call.name), dialect)),
      };
    },
  };
}

/** The names of the caller's tools that one of ours already has: two tools cannot answer to one name. */
export function clientToolClashes(tools: readonly ClientTool[], ours: (name: string) => boolean): string[] {
  return tools.filter((tool) => ours(tool.name)).map((tool) => tool.name);
}

/**
 * `call_` and 24 random characters: the caller keys its results by this id and we key the
 * server-side calls made before it by it (call-memory.ts), so it must be unique across
 * conversations — which the ids a model server makes (`call_1`, or none) are not.
 */
function clientCallId(): string {
  return `call_${randomBytes(18).toString('base64url')}`;
}
