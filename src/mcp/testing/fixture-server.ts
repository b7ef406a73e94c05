// An MCP server over stdio, built with the official SDK, that misbehaves on request: the tests'
// stand-in for servers we did not write. Each tool is one behaviour; FIXTURE_* variables set the rest.
import { appendFileSync } from 'node:fs';
import { Server, type Tool } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

if (process.env.FIXTURE_STARTS_FILE !== undefined) appendFileSync(process.env.FIXTURE_STARTS_FILE, 'start\n');
if (process.env.FIXTURE_EXIT_AT_START === '1') {
  process.stderr.write('fixture: refusing to start\n');
  process.exit(3);
}

const tools: Tool[] = [
  {
    name: 'echo',
    description: 'Says the text back, a number of times.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'What to say' },
        times: { type: 'integer', minimum: 1, maximum: 5, description: 'How many times' },
        style: { type: 'string', enum: ['plain', 'loud'] },
        options: { type: 'object', properties: { separator: { type: 'string' } }, required: ['separator'] },
      },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'structured',
    description: 'Returns structured content.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
  },
  {
    name: 'media',
    description: 'Returns an image, a resource link and an embedded resource.',
    inputSchema: { type: 'object', properties: {} },
  },
  { name: 'fail', description: 'Reports a failure (isError).', inputSchema: { type: 'object', properties: {} } },
  { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: { type: 'object', properties: {} } },
  { name: 'hang', description: 'Never answers.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'add_tool',
    description: 'Adds the tool "added" and says the list changed.',
    inputSchema: { type: 'object', properties: {} },
  },
];

const server = new Server(
  { name: 'riverse-fixture', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);

server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request) => {
  const args = (request.params.arguments ?? {}) as Record<string, unknown>;
  switch (request.params.name) {
    case 'echo': {
      const said = String(args.text);
      const loud = args.style === 'loud' ? said.toUpperCase() : said;
      const separator = (args.options as { separator?: string } | undefined)?.separator ?? ' ';
      return {
        content: [
          { type: 'text' as const, text: Array.from({ length: Number(args.times ?? 1) }, () => loud).join(separator) },
        ],
      };
    }
    case 'added':
      return { content: [{ type: 'text', text: 'the added tool ran' }] };
    case 'structured':
      return { content: [{ type: 'text', text: 'It is 21 degrees.' }], structuredContent: { temperature: 21 } };
    case 'media':
      return {
        content: [
          { type: 'image', data: Buffer.alloc(2048).toString('base64'), mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# Read me' } },
        ],
      };
    case 'fail':
      return { content: [{ type: 'text', text: 'the disk is full' }], isError: true };
    case 'crash':
      process.stderr.write('fixture: crashing now\n');
      setImmediate(() => process.exit(7));
      return new Promise(() => {});
    case 'hang':
      return new Promise(() => {});
    case 'add_tool':
      if (!tools.some((tool) => tool.name === 'added'))
        tools.push({
          name: 'added',
          description: 'A tool added while connected.',
          inputSchema: { type: 'object', properties: {} },
        });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'added' }] };
    default:
      return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
  }
});

await server.connect(new StdioServerTransport());
