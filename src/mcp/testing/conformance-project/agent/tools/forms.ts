// The conformance suite's form-shaped questions, as drop-in tools: `context.ask` with fields (MCP's
// elicitation schemas), and a key where the suite names the question (its input-required rounds).
import { BaseTool, ToolResult, type AskAnswer, type ToolContext } from 'riverse';

/** What the suite's elicitation scenarios want back: the action and the content. */
function completed(answer: AskAnswer): ToolResult {
  if (answer.answered)
    return ToolResult.ok(`Elicitation completed: action=accept, content=${JSON.stringify(answer.values)}`);
  if (answer.reason === 'unavailable') return ToolResult.fail('This client cannot ask a person (no elicitation).');
  return ToolResult.ok(
    `Elicitation completed: action=${answer.reason === 'cancelled' ? 'decline' : answer.reason}, content={}`,
  );
}

export class DefaultsTool extends BaseTool {
  manifest() {
    return {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Asks for a form whose every field has a default (a conformance scenario).',
      examples: ['ask me with defaults', 'run the form defaults test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    return completed(
      await context.ask('Your details (each has a default)', {
        fields: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      }),
    );
  }
}

export class EnumsTool extends BaseTool {
  manifest() {
    return {
      name: 'test_elicitation_sep1330_enums',
      description:
        'Asks for a form of every kind of choice: one or several, with labels or without (a conformance scenario).',
      examples: ['ask me to pick options', 'run the form choices test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    return completed(
      await context.ask('Pick your options', {
        fields: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      }),
    );
  }
}

/** Why a question got no answer, as a tool would say it. */
const unanswered = (answer: AskAnswer & { answered: false }) =>
  answer.reason === 'unavailable'
    ? ToolResult.fail('This client cannot ask a person (no elicitation).')
    : ToolResult.ok(`No answer (${answer.reason}).`);

export class GreetingTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_elicitation',
      description: 'Asks the person their name and greets them (a conformance scenario).',
      examples: ['greet me by name', 'ask my name'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const answer = await context.ask('What is your name?', {
      key: 'user_name',
      fields: { name: { type: 'string' } },
      required: ['name'],
    });
    return answer.answered ? ToolResult.ok(`Hello, ${answer.values?.name}!`) : unanswered(answer);
  }
}

export class ConfirmTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_request_state',
      description:
        'Asks the person to confirm, and says the answer came back with its signed state (a conformance scenario).',
      examples: ['ask me to confirm', 'run the request state test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const answer = await context.ask('Please confirm', {
      key: 'confirm',
      fields: { ok: { type: 'boolean' } },
      required: ['ok'],
    });
    // Over MCP's rounds an answer reaches a tool only beside the state the server signed for this call.
    return answer.answered ? ToolResult.ok(`Confirmed: ok=${answer.values?.ok} (state-ok)`) : unanswered(answer);
  }
}

export class TwoStepsTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_multi_round',
      description: 'Asks two questions one after the other: a name, then a color (a conformance scenario).',
      examples: ['ask me two questions', 'run the multi-round test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const name = await context.ask('Step 1: What is your name?', {
      key: 'step1',
      fields: { name: { type: 'string' } },
      required: ['name'],
    });
    if (!name.answered) return unanswered(name);
    const color = await context.ask('Step 2: What is your favorite color?', {
      key: 'step2',
      fields: { color: { type: 'string' } },
      required: ['color'],
    });
    if (!color.answered) return unanswered(color);
    return ToolResult.ok(`${name.values?.name} likes ${color.values?.color}.`);
  }
}

export class SignedStateTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_tampered_state',
      description: 'Asks the person to confirm; a changed state on the way back is refused (a conformance scenario).',
      examples: ['run the tampered state test', 'ask me to confirm once more'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const answer = await context.ask('Please confirm', {
      key: 'confirm',
      fields: { ok: { type: 'boolean' } },
      required: ['ok'],
    });
    return answer.answered ? ToolResult.ok(`Confirmed: ok=${answer.values?.ok}.`) : unanswered(answer);
  }
}

// SEP-2243: a parameter a client mirrors into a header (`Mcp-Param-Region`), so that a gateway can
// route on it; /mcp checks that the header says what the body says (param-headers.ts).
export class RegionTool extends BaseTool<{ region: string }> {
  manifest() {
    return {
      name: 'test_region_header',
      description: 'Says which region it was asked about; the region travels in a header too (a conformance scenario).',
      examples: ['which region is this', 'run the header test'],
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object' as const,
        properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    };
  }
  execute(params: { region: string }) {
    return ToolResult.ok(`Region: ${params.region}`);
  }
}
