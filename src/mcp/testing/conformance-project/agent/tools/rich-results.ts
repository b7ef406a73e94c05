// The tools the MCP conformance suite's content, logging, progress and JSON Schema scenarios call,
// written with the public contract as any tool author would: parts in `content`, `context.log`,
// `context.progress`, a full JSON Schema in `inputSchema`.
import { BaseTool, type ToolContext, type ToolResult } from 'riverse';

/** A 1×1 red pixel. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A tenth of a second of silence: a WAV file (8 kHz, 8-bit mono) made as bytes. */
function silentWav(): Uint8Array {
  const samples = 800;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let index = 0; index < value.length; index++) bytes[at + index] = value.charCodeAt(index);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  text(36, 'data');
  view.setUint32(40, samples, true);
  bytes.fill(128, 44);
  return bytes;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class ImageContentTool extends BaseTool {
  manifest() {
    return {
      name: 'test_image_content',
      description: 'Returns a small red image (a conformance scenario).',
      examples: ['show the test image', 'return an image'],
      annotations: { readOnlyHint: true },
    };
  }
  execute(): ToolResult {
    return { success: true, content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
  }
}

export class AudioContentTool extends BaseTool {
  manifest() {
    return {
      name: 'test_audio_content',
      description: 'Returns a short silent sound (a conformance scenario).',
      examples: ['play the test sound', 'return audio'],
      annotations: { readOnlyHint: true },
    };
  }
  execute(): ToolResult {
    return { success: true, content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] };
  }
}

export class EmbeddedResourceTool extends BaseTool {
  manifest() {
    return {
      name: 'test_embedded_resource',
      description: 'Returns a text file as an embedded resource (a conformance scenario).',
      examples: ['return the test resource', 'embed a resource'],
      annotations: { readOnlyHint: true },
    };
  }
  execute(): ToolResult {
    return {
      success: true,
      content: [
        {
          type: 'resource',
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      ],
    };
  }
}

export class MixedContentTool extends BaseTool {
  manifest() {
    return {
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and a resource together (a conformance scenario).',
      examples: ['return mixed content', 'show text and an image'],
      annotations: { readOnlyHint: true },
    };
  }
  execute(): ToolResult {
    return {
      success: true,
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      ],
    };
  }
}

export class LoggingTool extends BaseTool {
  manifest() {
    return {
      name: 'test_tool_with_logging',
      description: 'Logs three lines while it runs (a conformance scenario).',
      examples: ['run the logging test', 'log while running'],
      annotations: { readOnlyHint: true },
    };
  }
  async execute(_params: object, context: ToolContext): Promise<ToolResult> {
    context.log('info', 'Tool execution started');
    await pause(50, context.signal);
    context.log('info', 'Tool processing data');
    await pause(50, context.signal);
    context.log('info', 'Tool execution completed');
    return { success: true, data: 'Tool with logging executed successfully' };
  }
}

export class ProgressTool extends BaseTool {
  manifest() {
    return {
      name: 'test_tool_with_progress',
      description: 'Reports its progress in three steps (a conformance scenario).',
      examples: ['run the progress test', 'show progress'],
      annotations: { readOnlyHint: true },
    };
  }
  async execute(_params: object, context: ToolContext): Promise<ToolResult> {
    context.progress(0, 100);
    await pause(50, context.signal);
    context.progress(50, 100);
    await pause(50, context.signal);
    context.progress(100, 100);
    return { success: true, data: 'Tool with progress executed successfully' };
  }
}

export class JsonSchemaTool extends BaseTool {
  manifest() {
    return {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      examples: ['save a contact with an address', 'check the schema test'],
      annotations: { readOnlyHint: true },
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, not a promise's
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    };
  }
  execute(params: { name?: string }): ToolResult {
    return { success: true, data: `Saved ${params.name ?? 'the contact'}.` };
  }
}
