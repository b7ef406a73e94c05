// The tools the MCP conformance suite's server scenarios call, written as drop-in tools.
import { BaseTool, ToolResult } from 'riverse';

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
