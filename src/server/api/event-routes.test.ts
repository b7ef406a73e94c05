// GET /api/events over real HTTP: a tool file saved on disk, a tool switched off, and whatever the
// service publishes reach every open stream; streams are counted, capped and let go.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { modelServer, testModel } from '../../assistant/turn-test-support.ts';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { openEvents, raw, startTestService } from '../server-test-support.ts';
import { MAX_EVENT_STREAMS } from './event-routes.ts';

/** Waits (bounded) until `check` holds; for what happens after a client has gone. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 400 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(check(), what);
}

describe('GET /api/events', () => {
  it("sends tools-changed when a tool file is saved, and when a tool is switched off, in the page's language", async (t) => {
    const service = await startTestService(t, { files: { 'clock.ts': toolSource('clock') }, watch: true });
    const events = await openEvents(t, service.url, { 'accept-language': 'ja' });
    assert.equal(events.response.status, 200);
    assert.equal(events.response.headers.get('content-type'), 'text/event-stream');
    await events.next((message) => message.event === ':' && message.data === 'connected', 'the first comment');

    await writeFile(join(service.tools, 'later.ts'), toolSource('later'));
    const added = await events.next(
      (message) =>
        message.event === 'tools-changed' &&
        message.data.changes.some((change: { event: string }) => change.event === 'added'),
      'the added file',
    );
    assert.deepEqual(
      added.data.changes.find((change: { event: string }) => change.event === 'added'),
      { event: 'added', file: join('agent', 'tools', 'later.ts'), tools: ['later'], diagnostics: [] },
    );

    await writeFile(
      join(service.tools, 'later.ts'),
      "export class LaterTool extends BaseTool {\n  manifest() { return { name: 'later'\n",
    );
    const broken = await events.next(
      (message) =>
        message.event === 'tools-changed' &&
        message.data.changes.some((change: { event: string }) => change.event === 'broken'),
      'the broken file',
    );
    const diagnostic = broken.data.changes[0].diagnostics[0];
    assert.equal(diagnostic.file, join('agent', 'tools', 'later.ts'));
    assert.match(diagnostic.message, /構文エラー/);

    const off = await raw(service.port, '/api/tools/clock/enabled', { method: 'PUT', body: { enabled: false } });
    assert.equal(off.status, 200);
    const switched = await events.next(
      (message) =>
        message.event === 'tools-changed' &&
        message.data.changes.some((change: { file: string }) => change.file.endsWith('clock.ts')),
      'the switch',
    );
    assert.equal(
      switched.data.changes.find((change: { file: string }) => change.file.endsWith('clock.ts')).event,
      'changed',
    );
  });

  it('sends what the service publishes (a model, a download) to every stream, with the token', async (t) => {
    const server = await modelServer(t, { text: 'hi' });
    const service = await startTestService(t, { server: { token: 'tok' } });
    assert.equal((await openEvents(t, service.url)).response.status, 401);
    const [one, two] = await Promise.all([
      openEvents(t, service.url, { authorization: 'Bearer tok' }),
      openEvents(t, service.url, { authorization: 'Bearer tok' }),
    ]);
    service.context.events.publish('model-download', { state: 'downloading', receivedBytes: 10, totalBytes: 100 });
    for (const events of [one!, two!])
      assert.deepEqual((await events.next((message) => message.event === 'model-download', 'the download')).data, {
        state: 'downloading',
        receivedBytes: 10,
        totalBytes: 100,
      });
    service.context.setModel(testModel(server));
    assert.deepEqual((await one!.next((message) => message.event === 'model', 'the model')).data, {
      id: 'openai:test-model',
    });
    assert.equal(
      (await raw(service.port, '/api/status', { headers: { authorization: 'Bearer tok' } })).json.model.id,
      'openai:test-model',
    );
  });

  it('lets a stream go when its page closes, refuses past the cap, and ends the streams when the service closes', async (t) => {
    const service = await startTestService(t);
    const streams = await Promise.all(Array.from({ length: MAX_EVENT_STREAMS }, () => openEvents(t, service.url)));
    assert.ok(streams.every((events) => events.response.status === 200));
    await eventually(() => service.context.events.size === MAX_EVENT_STREAMS, 'every stream subscribed');
    const refused = await raw(service.port, '/api/events');
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error.code, 'too-many-streams');
    streams[0]!.close();
    await eventually(() => service.context.events.size === MAX_EVENT_STREAMS - 1, 'the closed stream unsubscribed');
    const another = await openEvents(t, service.url);
    assert.equal(another.response.status, 200);
    // Closing the service ends them all, at once rather than after the grace.
    const ended = another
      .next(() => false, 'nothing')
      .then(
        () => 'not ended',
        (error: Error) => error.message,
      );
    await service.server.close();
    assert.match(await ended, /ended/);
    assert.equal(service.context.events.size, 0);
  });
});
