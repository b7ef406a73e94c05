/** `my_tool` → `MyTool`. */
function className(toolName: string): string {
  const words = toolName.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  const base = /^[0-9]/.test(name) ? `Tool${name}` : name;
  const result = base.endsWith('Tool') ? base : `${base}Tool`;
  // The template imports BaseTool: `class BaseTool extends BaseTool` would not even parse.
  return result === 'BaseTool' ? 'MyBaseTool' : result;
}

/** A working tool that `riverse tools check` accepts: one required parameter, localized text, examples. */
export function toolSource(toolName: string): string {
  return `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

export class ${className(toolName)} extends BaseTool<{ text: string }> {
  manifest(): ToolManifest {
    return {
      name: '${toolName}',
      // One sentence the model reads to decide when to use this tool.
      description: 'Echoes the given text back (replace with what your tool does)',
      parameters: {
        text: { type: 'string', required: true, description: 'The text to echo' },
      },
      // 2–3 messages a user would send that should trigger this tool.
      examples: ['Echo "hello"', 'Repeat after me: good morning'],
    };
  }

  async execute(params: { text: string }, context: ToolContext): Promise<ToolResult> {
    const text = params.text.trim();
    if (text === '') return ToolResult.fail('Missing text: pass the text to echo, e.g. {"text": "hello"}');
    context.logger.debug(\`echoing \${text.length} characters\`);
    return ToolResult.ok(text);
  }
}
`;
}

/** A test beside the tool, run with \`node --test\`, that goes through the same checks as the registry. */
export function testSource(toolName: string, fileName: string): string {
  const name = className(toolName);
  return `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTool } from 'riverse';
import { ${name} } from './${fileName}';

test('${toolName} answers with the text', async () => {
  const result = await runTool(${name}, { text: 'hello' });
  assert.deepEqual(result, { success: true, data: 'hello' });
});

test('${toolName} rejects a call without text', async () => {
  const result = await runTool(${name}, {});
  assert.equal(result.success, false);
  assert.match(result.error ?? '', /missing required parameter "text"/);
});
`;
}
