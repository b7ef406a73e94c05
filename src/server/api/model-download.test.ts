// The default model's download over real HTTP: POST /api/model/download against a local stand-in
// for the model hub (HF_ENDPOINT), progress as model-download events, one download at a time, the
// model used once it loads, a file that is not a model reported as such, and the install command
// when node-llama-cpp is missing.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tinyGguf } from '../../models/providers/local/gguf/write-tiny-gguf.ts';
import { installCommand } from '../../models/providers/local/local-llama-install.ts';
import { hasNodeLlamaCpp } from '../../models/providers/local/local-llama-runtime.ts';
import { DEFAULT_LOCAL_MODEL } from '../../models/resolve-model.ts';
import type { ServerContext } from '../server-context.ts';
import { raw, startTestService } from '../server-test-support.ts';
import { useFakeModelHub } from '../testing/fake-model-hub.ts';

const installed = await hasNodeLlamaCpp();
const FILE = DEFAULT_LOCAL_MODEL.split('/').pop()!;

interface Download {
  state: string;
  receivedBytes: number;
  totalBytes: number;
  loading?: boolean;
  error?: string;
  installCommand?: string;
}

/** The first model-download event that `test` accepts (20 s at most). */
function downloadEvent(context: ServerContext, test: (state: Download) => boolean): Promise<Download> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('no such model-download event within 20 s'));
    }, 20_000);
    const unsubscribe = context.events.subscribe((type, data) => {
      if (type !== 'model-download' || !test(data as Download)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(data as Download);
    });
  });
}

describe('downloading the default model', {
  skip: installed ? false : `node-llama-cpp is not installed (optional); to run these tests: ${installCommand()}`,
}, () => {
  describe('a model file', () => {
    it('shows progress, refuses a second download while it runs, and uses the model once it loads', async (t) => {
      const body = tinyGguf();
      const hub = await useFakeModelHub(t, body, { holdHalf: true });
      const { port, context, dir } = await startTestService(t);
      assert.equal((await raw(port, '/api/status')).json.model, null);
      const halfway = downloadEvent(
        context,
        (state) => state.state === 'downloading' && state.receivedBytes > 0 && state.receivedBytes < state.totalBytes,
      );
      const started = await raw(port, '/api/model/download', { method: 'POST' });
      assert.equal(started.status, 202, started.text);
      assert.equal(started.json.download.state, 'downloading');

      const progress = await halfway;
      assert.equal(progress.totalBytes, body.byteLength);
      const status = (await raw(port, '/api/status')).json;
      assert.equal(status.download.state, 'downloading');
      const second = await raw(port, '/api/model/download', { method: 'POST' });
      assert.equal(second.status, 409);
      assert.equal(second.json.error.code, 'download-running');

      const done = downloadEvent(context, (state) => state.state === 'done' || state.state === 'failed');
      hub.release();
      const end = await done;
      assert.equal(end.state, 'done', end.error);
      assert.equal(end.receivedBytes, body.byteLength);
      assert.equal((await raw(port, '/api/status')).json.model.id, `local:${FILE}`);
      const files = await readdir(join(dir, 'data', 'models'));
      assert.ok(
        files.some((name) => name.endsWith(FILE)),
        files.join(', '),
      );
      assert.ok(
        hub.requests.some((request) => request.startsWith('GET /Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/')),
        hub.requests.join(', '),
      );
    });
  });

  describe('a file that is not a model', () => {
    it('says the download worked but the file could not be loaded, and sets no model', async (t) => {
      await useFakeModelHub(t, new TextEncoder().encode('not a gguf file '.repeat(1000)));
      const { port, context } = await startTestService(t);
      const end = downloadEvent(context, (state) => state.state === 'done' || state.state === 'failed');
      assert.equal((await raw(port, '/api/model/download', { method: 'POST' })).status, 202);
      const state = await end;
      assert.equal(state.state, 'failed');
      assert.match(state.error ?? '', /could not load .* as a GGUF model/);
      const status = (await raw(port, '/api/status')).json;
      assert.equal(status.model, null);
      assert.equal(status.download.state, 'failed');
      // Failed is not running: it may be tried again.
      assert.equal((await raw(port, '/api/model/download', { method: 'POST' })).status, 202);
      await downloadEvent(context, (next) => next.state === 'failed');
    });
  });
});

describe('without node-llama-cpp', { skip: installed ? 'node-llama-cpp is installed here' : false }, () => {
  it('says how to install it, in the status and when asked to download', async (t) => {
    const { port } = await startTestService(t);
    const status = (await raw(port, '/api/status')).json;
    assert.equal(status.download.installCommand, installCommand());
    const response = await raw(port, '/api/model/download', { method: 'POST' });
    assert.equal(response.status, 409);
    assert.equal(response.json.error.code, 'local-runtime-missing');
    assert.ok(response.json.error.message.includes(installCommand()));
  });
});
