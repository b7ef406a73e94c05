// Pictures through /v1/responses, judged by the official `openai` client's `responses.create`: an
// `input_image` part (a data: URL or an https link) reaches the request the model server receives
// as chat completions' image parts do, is kept in the stored chain for `previous_response_id`, and
// a model that cannot see is refused with the same 400 naming it, the setting and the part.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import { PNG_BASE64 } from '../../models/testing/test-image.ts';
import { replies } from '../../models/testing/wire-server.ts';
import { openaiService } from './openai-test-support.ts';

/** `chart()`: a caption, and a PNG as its bytes (as a tool that draws one has them). */
const CHART_TOOL = `import { BaseTool } from 'riverse';

export class ChartTool extends BaseTool {
  manifest() {
    return { name: 'chart', description: 'Draws the week as a chart', examples: ['Chart this week'] };
  }
  async execute() {
    const png = new Uint8Array(Buffer.from('${PNG_BASE64}', 'base64'));
    return { success: true, data: 'The week, as a chart.', content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
  }
}
`;

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
const PNG_URL = `data:image/png;base64,${PNG_BASE64}`;

describe('/v1/responses with pictures', () => {
  it("passes a user's input_image parts to a vision model: the data URL as it came, a link with its detail", async (t) => {
    const { client, model } = await openaiService(
      t,
      { text: 'A small red and green square.' },
      {},
      { vision: true, imageUrls: true },
    );
    const response = await client.responses.create({
      model: 'riverse',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in these?' },
            { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
            { type: 'input_image', image_url: 'https://pictures.test/cat.jpg', detail: 'high' },
          ],
        },
      ],
    });
    assert.equal(response.output_text, 'A small red and green square.');
    const user = model.requests[0]!.body.messages.find((message) => message.role === 'user')!;
    assert.deepEqual(user.content as unknown as Part[], [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: PNG_URL, detail: 'auto' } },
      { type: 'image_url', image_url: { url: 'https://pictures.test/cat.jpg', detail: 'high' } },
    ]);
  });

  it('streamed, and continued with previous_response_id: the stored chain keeps the picture', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies([{ text: 'A square.' }, { text: 'Red and green.' }]),
      {},
      { vision: true },
    );
    const stream = await client.responses.create({
      model: 'riverse',
      stream: true,
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: PNG_URL, detail: 'low' }] }],
    });
    let id = '';
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') id = event.response.id;
    }
    assert.equal(text, 'A square.');
    const first = model.requests[0]!.body.messages.find((message) => message.role === 'user')!;
    assert.deepEqual(first.content as unknown as Part[], [
      { type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } },
    ]);
    const next = await client.responses.create({ model: 'riverse', previous_response_id: id, input: 'Which colours?' });
    assert.equal(next.output_text, 'Red and green.');
    const users = model.requests[1]!.body.messages.filter((message) => message.role === 'user');
    assert.deepEqual(
      users.map((message) => message.content),
      [[{ type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } }] as unknown as string, 'Which colours?'],
    );
  });

  it('refuses a picture for a model that does not take images: 400 naming the model, the setting and the part', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' });
    await assert.rejects(
      client.responses.create({
        model: 'riverse',
        input: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello.' },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'And this?' },
              { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
            ],
          },
        ],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.code, 'model-without-vision');
        assert.equal(error.param, 'input[2].content[1]');
        assert.match(error.message, /openai:test-model does not take images/);
        assert.match(error.message, /model_options\.vision: true/);
        return true;
      },
    );
    assert.equal(model.requests.length, 0);
  });

  it('refuses what it cannot take, naming the field: a file id, a broken data URL, a type the model does not take, a picture from the assistant', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' }, {}, { vision: true });
    const refused = async (content: unknown[], param: string, message: RegExp, role: 'user' | 'assistant' = 'user') =>
      assert.rejects(
        client.responses.create({ model: 'riverse', input: [{ role, content } as never] }),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.BadRequestError, String(error));
          assert.equal(error.param, param);
          assert.match(error.message, message);
          return true;
        },
      );
    await refused(
      [{ type: 'input_image', file_id: 'file-123', detail: 'auto' }],
      'input[0].content[0].file_id',
      /files are not kept here; send the picture as "image_url"/,
    );
    await refused(
      [
        { type: 'input_text', text: 'look' },
        { type: 'input_image', image_url: 'data:image/png;base64,%%%', detail: 'auto' },
      ],
      'input[0].content[1].image_url',
      /is a data URL that is not a base64 image/,
    );
    await refused(
      [{ type: 'input_image', image_url: 'ftp://pictures.test/cat.jpg', detail: 'auto' }],
      'input[0].content[0].image_url',
      /must be a data: URL or an http\(s\) link/,
    );
    await refused(
      [{ type: 'input_image', image_url: `data:image/bmp;base64,${PNG_BASE64}`, detail: 'auto' }],
      'input',
      /type image\/bmp is in the input, and the model openai:test-model takes only image\/png, image\/jpeg, image\/webp, image\/gif/,
    );
    await refused(
      [{ type: 'input_image', image_url: PNG_URL, detail: 'auto' }],
      'input[0].content[0]',
      /only a user message takes pictures/,
      'assistant',
    );
    await refused([{ type: 'input_file', file_id: 'f' }], 'input[0].content[0]', /pictures, \{"type": "input_image"/);
    assert.equal(model.requests.length, 0);
  });

  it('a picture of our own tool, kept in the stored chain as base64, reaches the model again after previous_response_id', async (t) => {
    const { client, model } = await openaiService(
      t,
      replies([
        { toolCalls: [{ name: 'chart', arguments: {} }] },
        { text: 'A rising week.' },
        { text: 'Still rising.' },
      ]),
      { files: { 'chart.ts': CHART_TOOL } },
      { vision: true },
    );
    const first = await client.responses.create({ model: 'riverse', input: 'Chart this week' });
    assert.equal(first.output_text, 'A rising week.');
    const next = await client.responses.create({ model: 'riverse', previous_response_id: first.id, input: 'And now?' });
    assert.equal(next.output_text, 'Still rising.');
    const pictures = (request: (typeof model.requests)[number]) =>
      request.body.messages.flatMap((message) =>
        Array.isArray(message.content)
          ? (message.content as unknown as Part[]).filter((part) => part.type === 'image_url')
          : [],
      );
    const sent = [{ type: 'image_url', image_url: { url: PNG_URL } }];
    assert.deepEqual(pictures(model.requests[1]!), sent, 'in the turn that ran the tool');
    assert.deepEqual(pictures(model.requests[2]!), sent, 'and from the stored chain');
  });
});
