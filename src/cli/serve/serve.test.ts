// `riverse serve` as a user runs it: a separate process in a project folder, without a model.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createProject, ECHO_TOOL, show, type TempProject } from '../cli-test-support.ts';
import { SERVICE_V8_FLAGS } from './service-heap.ts';

describe('riverse serve', () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({ 'agent/tools/echo.ts': ECHO_TOOL });
  });
  after(() => project.remove());
  const env = () => ({ RIVERSE_DATA_DIR: project.path('data'), OLLAMA_HOST: '127.0.0.1:9' });

  it('starts without a model, prints the address and what is there, answers, and stops on Ctrl+C', async () => {
    let status: { status: number; body: any } | undefined;
    const result = await project.run(['serve', '--port', '0', '--token', 'tok en'], {
      env: env(),
      onStdout: (stdout, child) => {
        const url = /serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
        if (url === undefined || status !== undefined || !stdout.includes('Ctrl+C')) return;
        status = { status: 0, body: undefined };
        void fetch(`${url}api/status`, { headers: { authorization: 'Bearer tok en' } })
          .then(async (response) => (status = { status: response.status, body: await response.json() }))
          .finally(() => child.kill('SIGINT'));
      },
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /Dashboard: +http:\/\/127\.0\.0\.1:\d+\/#token=tok%20en\n/);
    assert.match(result.stdout, /OpenAI API: +http:\/\/127\.0\.0\.1:\d+\/v1 +\(model "riverse"\)/);
    assert.match(result.stdout, /Tools: +1 available of 1/);
    assert.match(result.stdout, /Model: +none yet .*RIVERSE_MODEL/);
    assert.doesNotMatch(result.stdout, /Telemetry/);
    assert.match(result.stdout, /Stopped\.\n$/);
    assert.equal(status?.status, 200);
    assert.equal(status?.body.model, null);
    assert.deepEqual(status?.body.tools, { total: 1, available: 1 });
  });

  it('says where OpenTelemetry spans go when telemetry is on, and nothing of it when off', async () => {
    let asked = false;
    const result = await project.run(['serve', '--port', '0'], {
      env: { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      onStdout: (stdout, child) => {
        const url = /serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
        if (url === undefined || asked || !stdout.includes('Ctrl+C')) return;
        asked = true;
        // Stopped once it answers, as a person would (a signal before that races its start).
        void fetch(`${url}api/status`).finally(() => child.kill('SIGINT'));
      },
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /Telemetry: +OpenTelemetry spans to http:\/\/127\.0\.0\.1:9\/v1\/traces \(http\/json\)\n/,
    );
  });

  it('a model named but not made (a typo of a provider): serve and the dashboard say why, in their language', async () => {
    let hint: string | undefined;
    const result = await project.run(['serve', '--port', '0', '--lang', 'ja'], {
      env: { ...env(), RIVERSE_MODEL: 'opeani:gpt-4.1-mini' },
      onStdout: (stdout, child) => {
        const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
        if (url === undefined || hint !== undefined || !stdout.includes('Ctrl+C')) return;
        hint = '';
        void fetch(`${url}api/status?lang=zh`)
          .then(async (response) => (hint = ((await response.json()) as { connectHint: string }).connectHint))
          .finally(() => child.kill('SIGINT'));
      },
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /モデル： +なし — 「opeani:gpt-4\.1-mini」のモデルプロバイダー「opeani」はありません（「openai」のことですか？）/,
    );
    assert.match(
      hint ?? '',
      /^“opeani:gpt-4\.1-mini”中的模型提供方“opeani”不存在（你是想输入“openai”吗？）。.* 尚未连接模型。/,
    );
  });

  it('runs in the process it was started as, with the V8 flags of a long-running service (decision 019)', {
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async () => {
    let cmdline: string[] | undefined;
    const result = await project.run(['serve', '--port', '0'], {
      env: env(),
      onStdout: (stdout, child) => {
        if (cmdline !== undefined || !stdout.includes('Ctrl+C')) return;
        cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
        child.kill('SIGINT');
      },
    });
    assert.equal(result.code, 0, show(result));
    for (const flag of SERVICE_V8_FLAGS) assert.ok(cmdline?.includes(flag), String(cmdline));
  });

  it("refuses to listen beyond loopback without a token, in the person's language", async () => {
    const result = await project.run(['serve', '--host', '0.0.0.0', '--port', '0'], { env: env() });
    assert.equal(result.code, 2, show(result));
    assert.match(
      result.stderr,
      /^error: refusing to listen on 0\.0\.0\.0 without an access token: .*--token, RIVERSE_TOKEN or server\.token/,
    );
    const zh = await project.run(['serve', '--host', '0.0.0.0', '--port', '0', '--lang', 'zh'], { env: env() });
    assert.equal(zh.code, 2, show(zh));
    assert.match(zh.stderr, /没有访问令牌时拒绝在 0\.0\.0\.0 上监听/);
  });

  it('is what bare `riverse` runs; takes the token from RIVERSE_TOKEN; a bad port is a usage error', async () => {
    const bad = await project.run(['serve', '--port', '70000'], { env: env() });
    assert.equal(bad.code, 2, show(bad));
    assert.match(bad.stderr, /port number from 0 to 65535/);
    const result = await project.run(['--host', '0.0.0.0', '--port', '0'], {
      env: { ...env(), RIVERSE_TOKEN: 'from-env' },
      onStdout: (stdout, child) => {
        if (stdout.includes('Ctrl+C') && !stdout.includes('Stopped')) child.kill('SIGTERM');
      },
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /#token=from-env\n/);
  });
});
