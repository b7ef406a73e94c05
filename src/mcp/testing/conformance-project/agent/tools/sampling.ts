// The conformance suite's tools that ask the client's model or its roots, as drop-in tools:
// `context.sample` and `context.roots()`, with a key where the suite names the request.
import { BaseTool, ToolResult, type SampleResult, type ToolContext } from 'riverse';

/** A model's reply in words. */
function replyText(reply: SampleResult): string {
  return reply.content.type === 'text' ? reply.content.text : `[a picture, ${reply.content.mimeType}]`;
}

export class SamplingTool extends BaseTool<{ prompt: string }> {
  manifest() {
    return {
      name: 'test_sampling',
      description: "Asks the client's model the prompt it is given and says what it answered (a conformance scenario).",
      parameters: { prompt: 'What to ask the model' },
      examples: ['ask the model something', 'run the sampling test'],
    };
  }
  async execute(params: { prompt: string }, context: ToolContext) {
    const reply = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: params.prompt } }],
      maxTokens: 100,
    });
    return ToolResult.ok(`LLM response: ${replyText(reply)}`);
  }
}

export class CapitalTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_sampling',
      description: "Asks the client's model for the capital of France (a conformance scenario).",
      examples: ['what does the model say the capital of France is', 'run the round sampling test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const reply = await context.sample({
      key: 'capital_question',
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
      maxTokens: 100,
    });
    return ToolResult.ok(replyText(reply));
  }
}

export class ListRootsTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_list_roots',
      description: 'Lists the folders the client works in (a conformance scenario).',
      examples: ['which folders do I work in', 'run the roots test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const { roots, reason } = await context.roots({ key: 'client_roots' });
    if (roots.length === 0) return ToolResult.ok(`No roots: ${reason}`);
    return ToolResult.ok(`Roots: ${roots.map((root) => `${root.name ?? root.uri} (${root.uri})`).join(', ')}`);
  }
}

export class MultipleInputsTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_multiple_inputs',
      description:
        "Asks the person's name, the model for a greeting and the client for its roots at once (a conformance scenario).",
      examples: ['greet me in my folders', 'run the several inputs test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const [name, greeting, { roots }] = await Promise.all([
      context.ask('What is your name?', { key: 'user_name', fields: { name: { type: 'string' } }, required: ['name'] }),
      context.sample({
        key: 'greeting',
        messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
        maxTokens: 50,
      }),
      context.roots({ key: 'client_roots' }),
    ]);
    const who = name.answered ? String(name.values?.name) : 'someone';
    return ToolResult.ok(
      `${replyText(greeting)} ${who}, in ${roots.map((root) => root.uri).join(', ') || 'no folder'}.`,
    );
  }
}

export class CapabilitiesTool extends BaseTool {
  manifest() {
    return {
      name: 'test_input_required_result_capabilities',
      description: 'Asks the person for a city, or the model when no one can be asked (a conformance scenario).',
      examples: ['pick a city for me', 'run the capabilities test'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const answer = await context.ask('Which city?');
    if (answer.answered) return ToolResult.ok(`City: ${answer.text}`);
    // No one to ask (the client offers no elicitation): the model picks.
    const reply = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Name one city.' } }],
      maxTokens: 20,
    });
    return ToolResult.ok(`City: ${replyText(reply)}`);
  }
}
