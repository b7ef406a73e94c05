// image_describe and voice_transcribe against a local server speaking OpenAI's wire formats:
// chat completions with an image part, and a multipart /audio/transcriptions upload.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('image_describe and voice_transcribe (against a local OpenAI-compatible API)', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-media-')));
  let server: Server;
  let registry: ToolRegistry;
  const seen: Array<{ path: string; authorization?: string; json?: any; form?: FormData }> = [];
  before(async () => {
    writeFileSync(join(root, 'cat.png'), PNG);
    writeFileSync(join(root, 'memo.wav'), Buffer.from('RIFF....WAVEfmt '));
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const body = Buffer.concat(chunks);
        const entry: (typeof seen)[number] = { path: request.url ?? '', authorization: request.headers.authorization };
        seen.push(entry);
        const json = (status: number, value: unknown) =>
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (request.url === '/v1/chat/completions') {
          entry.json = JSON.parse(body.toString());
          if (entry.json.model === 'no-vision')
            return json(400, {
              error: { message: 'model no-vision does not support images', type: 'invalid_request_error' },
            });
          return json(200, {
            id: 'c1',
            object: 'chat.completion',
            model: entry.json.model,
            choices: [
              { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: ' A small cat on a sofa. ' } },
            ],
          });
        }
        if (request.url === '/v1/audio/transcriptions') {
          entry.form = await new Response(body, {
            headers: { 'content-type': String(request.headers['content-type']) },
          }).formData();
          return json(200, { text: 'Buy milk on the way home.' });
        }
        json(404, { error: { message: 'not found' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: root,
      config: {
        tools: {
          image_describe: { base_url: base, api_key: 'KEY', model: 'vision-1' },
          voice_transcribe: { base_url: `${base}/` },
        },
      },
    });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  test('unavailable with the reason until an API is configured', async () => {
    const fresh = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { image_describe: { base_url: 'http://localhost:1/v1' } } },
    });
    const image = fresh.list().find((tool) => tool.name === 'image_describe');
    const voice = fresh.list().find((tool) => tool.name === 'voice_transcribe');
    assert.equal(image?.available, false);
    assert.match(image?.reason ?? '', /set tools\.image_describe\.model/);
    assert.equal(voice?.available, false);
    assert.match(voice?.reason ?? '', /no OpenAI-compatible API is configured; set tools\.voice_transcribe\.base_url/);
  });

  test('the Japanese reasons keep the space between a setting name and the particle after it', async () => {
    const fresh = await ToolRegistry.load({ folders: [TOOL_FOLDER], config: {} });
    const image = fresh.find('image_describe')?.reasonTexts?.ja ?? '';
    const voice = fresh.find('voice_transcribe')?.reasonTexts?.ja ?? '';
    assert.match(image, /（api\.openai\.com 用）と tools\.image_describe\.model を設定してください$/);
    assert.match(voice, /（api\.openai\.com 用）を設定してください$/);
  });

  test('a workspace image goes as a data URL in an image part, with the question; the answer comes back', async () => {
    const result = await registry.execute('image_describe', { image: 'cat.png', question: 'What animal is this?' });
    assert.deepEqual(result, { success: true, data: 'A small cat on a sofa.' });
    const request = seen.find((entry) => entry.path === '/v1/chat/completions');
    assert.equal(request?.authorization, 'Bearer KEY');
    assert.equal(request?.json.model, 'vision-1');
    assert.deepEqual(request?.json.messages[0].content, [
      { type: 'text', text: 'What animal is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
  });

  test('an image part of an earlier result, as a data URL, is sent as it is', async () => {
    const image = `data:image/png;base64,${PNG.toString('base64')}`;
    const result = await registry.execute('image_describe', { image });
    assert.deepEqual(result, { success: true, data: 'A small cat on a sofa.' });
    const request = seen.filter((entry) => entry.path === '/v1/chat/completions').at(-1);
    assert.deepEqual(request?.json.messages[0].content[1], { type: 'image_url', image_url: { url: image } });
  });

  test("a picture an earlier call returned, by that call's id (context.resultPart, across the tool's host)", async () => {
    const asked: Array<[string, number | undefined]> = [];
    const findPart = async (callId: string, index: number | undefined) => {
      asked.push([callId, index]);
      if (callId === 'call_pic') return { type: 'image' as const, data: new Uint8Array(PNG), mimeType: 'image/png' };
      if (callId === 'call_song') return { type: 'audio' as const, data: 'AAAA', mimeType: 'audio/wav' };
      return undefined;
    };
    for (const image of ['call_pic', 'call_pic#2', 'part:call_pic']) {
      const result = await registry.execute('image_describe', { image }, { findPart });
      assert.deepEqual(result, { success: true, data: 'A small cat on a sofa.' }, image);
      const request = seen.filter((entry) => entry.path === '/v1/chat/completions').at(-1);
      assert.deepEqual(request?.json.messages[0].content[1], {
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` },
      });
    }
    assert.deepEqual(asked, [
      ['call_pic', undefined],
      ['call_pic', 2],
      ['call_pic', undefined],
    ]);
    const sent = seen.length;
    assert.match(
      (await registry.execute('image_describe', { image: 'call_gone#1' }, { findPart })).error ?? '',
      /^No call call_gone with part 1 is in this conversation/,
    );
    assert.match(
      (await registry.execute('image_describe', { image: 'call_song' }, { findPart })).error ?? '',
      /^Part 1 of call call_song is audio, not a png, jpeg, gif or webp picture\.$/,
    );
    // Without a conversation (tools run) there is none to find.
    assert.match((await registry.execute('image_describe', { image: 'call_pic' })).error ?? '', /^No call call_pic/);
    assert.equal(seen.length, sent, 'nothing was sent for them');
  });

  test("an image outside the workspace is refused; the API's own error is passed on", async () => {
    assert.match(
      (await registry.execute('image_describe', { image: '/etc/hostname.png' })).error ?? '',
      /outside the folders|does not exist/,
    );
    const other = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: root,
      config: {
        tools: {
          image_describe: {
            base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
            model: 'no-vision',
          },
        },
      },
    });
    assert.equal(
      (await other.execute('image_describe', { image: 'cat.png' })).error,
      'The image API answered HTTP 400: model no-vision does not support images',
    );
  });

  test('a recording is uploaded as multipart with the model and language; the text comes back', async () => {
    const result = await registry.execute('voice_transcribe', { audio: 'memo.wav', language: 'en' });
    assert.deepEqual(result, { success: true, data: 'Buy milk on the way home.' });
    const form = seen.find((entry) => entry.path === '/v1/audio/transcriptions')?.form;
    assert.equal(form?.get('model'), 'whisper-1');
    assert.equal(form?.get('language'), 'en');
    assert.equal(form?.get('response_format'), 'json');
    const file = form?.get('file') as File;
    assert.equal(file.name, 'memo.wav');
    assert.equal(Buffer.from(await file.arrayBuffer()).toString(), 'RIFF....WAVEfmt ');
  });

  test('a recording outside the workspace is refused', async () => {
    assert.match(
      (await registry.execute('voice_transcribe', { audio: '../x.wav' })).error ?? '',
      /outside the folders|does not exist/,
    );
  });
});
