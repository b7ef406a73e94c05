// Pictures through /v1/chat/completions, judged by the official `openai` client: an image part a
// front end sends (as Open WebUI and LibreChat do) reaches the request the model server receives,
// a link is passed on to an API that fetches links, a model that cannot see is refused with a 400
// naming it and the setting; and the links the service fetches itself, for an API that takes none.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import type { ChatModel } from '../../models/chat-model.ts';
import { PNG_BASE64, PNG_BYTES } from '../../models/testing/test-image.ts';
import { ApiError } from '../api-error.ts';
import { imagesForModel } from './image-input.ts';
import { openaiService } from './openai-test-support.ts';

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
const PNG_URL = `data:image/png;base64,${PNG_BASE64}`;

describe('/v1 with pictures', () => {
  it("passes a user's image part to a vision model: the data URL as it came, a link with its detail", async (t) => {
    const { client, model } = await openaiService(
      t,
      { text: 'A small red and green square.' },
      {},
      { vision: true, imageUrls: true },
    );
    const completion = await client.chat.completions.create({
      model: 'riverse',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: PNG_URL } },
            { type: 'image_url', image_url: { url: 'https://pictures.test/cat.jpg', detail: 'high' } },
          ],
        },
      ],
    });
    assert.equal(completion.choices[0]?.message.content, 'A small red and green square.');
    const user = model.requests[0]!.body.messages.find((message) => message.role === 'user')!;
    assert.deepEqual(user.content as unknown as Part[], [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: PNG_URL } },
      { type: 'image_url', image_url: { url: 'https://pictures.test/cat.jpg', detail: 'high' } },
    ]);
  });

  it('streamed: the picture reaches the model the same way', async (t) => {
    const { client, model } = await openaiService(t, { text: 'A square.' }, {}, { vision: true });
    const stream = await client.chat.completions.create({
      model: 'riverse',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } }] }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'A square.');
    const user = model.requests[0]!.body.messages.find((message) => message.role === 'user')!;
    // A picture with no text is its parts alone, with the client's detail.
    assert.deepEqual(user.content as unknown as Part[], [
      { type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } },
    ]);
  });

  it('refuses a picture for a model that does not take images: 400 naming the model, the setting and the part', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' });
    await assert.rejects(
      client.chat.completions.create({
        model: 'riverse',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And this?' },
              { type: 'image_url', image_url: { url: PNG_URL } },
            ],
          },
        ],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.code, 'model-without-vision');
        assert.equal(error.param, 'messages[2].content[1]');
        assert.match(error.message, /openai:test-model does not take images/);
        assert.match(error.message, /model_options\.vision: true/);
        return true;
      },
    );
    assert.equal(model.requests.length, 0);
  });

  it('refuses a picture of a type the model does not take, naming the types it does', async (t) => {
    const { client, model } = await openaiService(t, { text: 'unused' }, {}, { vision: true });
    await assert.rejects(
      client.chat.completions.create({
        model: 'riverse',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/bmp;base64,${PNG_BASE64}` } }] },
        ],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.match(error.message, /type image\/bmp .* takes only image\/png, image\/jpeg, image\/webp, image\/gif/);
        return true;
      },
    );
    assert.equal(model.requests.length, 0);
  });
});

/** A model that sees, through an API that takes no links (as Gemini's, Ollama's). */
const SEES_NO_LINKS: ChatModel = {
  id: 'test:eyes',
  toolCalling: 'native',
  vision: true,
  imageUrls: false,
  imageTypes: ['image/png', 'image/jpeg'],
  stream: () => [] as never,
};

/** A local server answering every request with `body` as `type`. */
async function pictureServer(t: { after(fn: () => unknown): void }, type: string, body: Uint8Array): Promise<string> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': type }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/picture`;
}

describe('imagesForModel', () => {
  it("fetches a link for an API that takes none, and passes the picture's bytes as they came", async (t) => {
    const url = await pictureServer(t, 'image/png', PNG_BYTES);
    const [message] = await imagesForModel(
      [{ role: 'user', content: 'look', images: [{ type: 'image-url', url }] }],
      SEES_NO_LINKS,
      'messages[0].content[1]',
      { allowPrivate: true },
    );
    assert.equal(message?.role, 'user');
    const image = message?.role === 'user' ? message.images?.[0] : undefined;
    assert.equal(image?.type, 'image');
    assert.equal(image?.type === 'image' ? image.mimeType : '', 'image/png');
    assert.deepEqual(image?.type === 'image' ? new Uint8Array(image.data as Uint8Array) : [], PNG_BYTES);
  });

  it('refuses what is not a picture, a type the model does not take, and a private address unless allowed, saying why', async (t) => {
    const page = await pictureServer(t, 'text/html', new TextEncoder().encode('<p>no</p>'));
    const gif = await pictureServer(t, 'image/gif', new TextEncoder().encode('GIF89a'));
    const ask = (url: string, allowPrivate: boolean) =>
      imagesForModel([{ role: 'user', content: '', images: [{ type: 'image-url', url }] }], SEES_NO_LINKS, 'x', {
        allowPrivate,
      });
    await assert.rejects(ask(page, true), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.status === 400, String(error));
      assert.match(error.message, /text\/html, not an image/);
      return true;
    });
    await assert.rejects(ask(gif, true), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.status === 400, String(error));
      assert.match(error.message, /image\/gif, and the model takes only image\/png, image\/jpeg/);
      return true;
    });
    await assert.rejects(ask(page, false), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.status === 400, String(error));
      assert.match(error.message, /could not be fetched for the model/);
      return true;
    });
  });
});
