// The tools the MCP conformance suite's server scenarios call, written as drop-in tools.
import { writeFile } from 'node:fs/promises';
import { BaseTool, ToolResult, type ToolContext } from 'riverse';

export class SimpleTextTool extends BaseTool {
  manifest() {
    return {
      name: 'test_simple_text',
      description: 'Returns a simple text (a conformance scenario).',
      examples: ['run the simple text test', 'say the test text'],
      annotations: { readOnlyHint: true },
    };
  }
  execute() {
    return ToolResult.ok('This is a simple text response for testing.');
  }
}

export class ErrorHandlingTool extends BaseTool {
  manifest() {
    return {
      name: 'test_error_handling',
      description: 'Always fails (a conformance scenario).',
      examples: ['run the error test', 'fail on purpose'],
    };
  }
  execute(): ToolResult {
    throw new Error('This tool intentionally returns an error for testing');
  }
}

/** The file test_trigger_tool_change writes beside this one. */
const CHANGED = new URL('./conformance-changed.ts', import.meta.url);

export class TriggerToolChangeTool extends BaseTool {
  manifest() {
    return {
      name: 'test_trigger_tool_change',
      description:
        'Writes a tool file beside this one holding a tool of a new name each time, so that the tool list changes (a conformance scenario).',
      examples: ['change the tool list', 'trigger a tool change'],
    };
  }
  async execute() {
    // A new name each call, not a file added then removed: two calls close together would cancel
    // out in one reload, and the list would not have changed at all.
    const name = `test_changed_tool_${Date.now().toString(36)}`;
    await writeFile(
      CHANGED,
      [
        "import { BaseTool, ToolResult } from 'riverse';",
        'export class ChangedTool extends BaseTool {',
        `  manifest() { return { name: '${name}', description: 'Written by test_trigger_tool_change.', examples: ['the changed tool', 'run the added tool'] }; }`,
        "  execute() { return ToolResult.ok('changed'); }",
        '}',
        '',
      ].join('\n'),
    );
    return ToolResult.ok(`Wrote ${name}: the tool list changes once it reloads.`);
  }
}

// A drop-in tool needs one thing of a client: a person to approve a call (`approval`), which MCP
// asks through elicitation. The two scenarios that check a server's asking are tools that need it.
export class StreamingElicitationTool extends BaseTool {
  manifest() {
    return {
      name: 'test_streaming_elicitation',
      description: 'Asks a person to approve each call before it runs (a conformance scenario).',
      examples: ['run the approval test', 'ask me before running'],
      approval: 'always' as const,
    };
  }
  execute() {
    return ToolResult.ok('Approved, and ran.');
  }
}

export class MissingCapabilityTool extends BaseTool {
  manifest() {
    return {
      name: 'test_missing_capability',
      description:
        "Needs the client's model, so a client that offers no sampling cannot run it (a conformance scenario).",
      examples: ['run the capability test', 'try sampling without a model'],
    };
  }
  async execute(_params: Record<string, never>, context: ToolContext) {
    const reply = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
      maxTokens: 20,
    });
    return ToolResult.ok(reply.content.type === 'text' ? reply.content.text : 'a picture');
  }
}

export class LoggingTool extends BaseTool {
  manifest() {
    return {
      name: 'test_logging_tool',
      description: 'Logs a line as it runs (a conformance scenario).',
      examples: ['run the logging test', 'log something'],
    };
  }
  execute(_params: Record<string, never>, context: { logger: { info(message: string): void } }) {
    context.logger.info('test_logging_tool ran');
    return ToolResult.ok('Logged a line.');
  }
}

export class ElicitationTool extends BaseTool<{ message: string }> {
  manifest() {
    return {
      name: 'test_elicitation',
      description: 'Asks the person the message it is given, and says what they answered (a conformance scenario).',
      parameters: { message: { type: 'string' as const, required: true, description: 'The question for the person' } },
      examples: ['ask me for my details', 'run the elicitation test'],
    };
  }
  async execute(
    params: { message: string },
    context: {
      ask(question: string): Promise<{ answered: true; text: string } | { answered: false; reason: string }>;
    },
  ) {
    const answer = await context.ask(params.message);
    if (answer.answered) return ToolResult.ok(`User response: ${answer.text}`);
    if (answer.reason === 'unavailable') return ToolResult.fail('This client cannot ask a person (no elicitation).');
    return ToolResult.ok(`User response: none (${answer.reason})`);
  }
}
