// The `riverse` command line itself, run as a user runs it: a mistyped command is answered with
// the one meant, at every level; the help says what no command does and how the model is chosen;
// both in the person's language (--lang, the config's language:, the locale).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PROVIDER_NAMES } from '../models/providers/provider-names.ts';
import { createProject, show, type TempProject } from './cli-test-support.ts';

describe('riverse command line', { concurrency: true }, () => {
  let project: TempProject;
  before(async () => (project = await createProject()));
  after(() => project.remove());

  it('a mistyped command suggests the one meant, at the top and under tools (exit 2, no tool loaded)', async () => {
    const top = await project.run(['tols', 'list']);
    assert.equal(top.code, 2, show(top));
    assert.equal(top.stdout, '');
    assert.equal(
      top.stderr,
      "error: unknown command 'tols'; did you mean 'tools'?\nRun `npx riverse --help` for its usage.\n",
    );
    const sub = await project.run(['tools', 'lsit']);
    assert.equal(sub.code, 2, show(sub));
    assert.equal(
      sub.stderr,
      "error: unknown command 'lsit'; did you mean 'list'?\nRun `npx riverse tools --help` for its usage.\n",
    );
    const question = await project.run(['What is the weather in Tokyo?']);
    assert.equal(question.code, 2, show(question));
    assert.match(
      question.stderr,
      /^error: unknown command 'What is the weather in Tokyo\?'; the commands are 'tools', 'chat', 'ask', 'mcp', 'serve', 'trace', 'tasks'; to ask a question: npx riverse ask "What is the weather in Tokyo\?"\n/,
    );
    const far = await project.run(['tools', 'frobnicate']);
    assert.match(
      far.stderr,
      /^error: unknown command 'frobnicate'; the commands are 'list', 'show', 'run', 'check', 'new', 'eval'\n/,
    );
  });

  it('other usage errors name what is wrong and where the help is', async () => {
    const option = await project.run(['tools', 'list', '--jsn']);
    assert.equal(option.code, 2, show(option));
    assert.equal(
      option.stderr,
      "error: unknown option '--jsn'; did you mean '--json'?\nRun `npx riverse tools list --help` for its usage.\n",
    );
    const missing = await project.run(['tools', 'show']);
    assert.equal(
      missing.stderr,
      "error: missing required argument 'name'\nRun `npx riverse tools show --help` for its usage.\n",
    );
    const choice = await project.run(['tools', 'show', 'x', '--lang', 'fr']);
    assert.match(
      choice.stderr,
      /^error: option '--lang <language>' argument 'fr' is invalid\. Allowed choices are en, zh, ja\.\n/,
    );
  });

  it('--help says that no command means serve and how the model is chosen', async () => {
    const result = await project.run(['--help']);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /^Usage: riverse \[options\] \[command\]\n/);
    assert.match(result.stdout, /With no command, npx riverse serves \(as `npx riverse serve` does\)/);
    assert.match(result.stdout, /RIVERSE_MODEL=provider:model .* or `model:` in riverse\.yaml/);
    assert.match(result.stdout, /Providers: openai, anthropic, gemini, ollama, .*local/);
    assert.ok(
      result.stdout.includes(`Providers: ${PROVIDER_NAMES.join(', ')} (local:/path/to/model.gguf).`),
      'every provider, dashscope too',
    );
    // Any OpenAI-compatible server is one variable away; `bench` measures Riverse, not for a newcomer.
    assert.match(result.stdout, /OPENAI_BASE_URL=http:\/\/host:port\/v1 with RIVERSE_MODEL=openai:<model>/);
    assert.doesNotMatch(result.stdout, /bench/);
    const bench = await project.run(['bench', '--help']);
    assert.equal(bench.code, 0, show(bench));
    assert.match(bench.stdout, /^Usage: riverse bench/);
  });

  it('every error the command prints starts the same way: error: (a typo of a provider too)', async () => {
    const model = await project.run(['ask', 'hi'], { env: { RIVERSE_MODEL: 'opeani:gpt-4.1-mini' } });
    assert.equal(model.code, 2, show(model));
    assert.match(model.stderr, /^error: Unknown model provider "opeani" .*\(did you mean "openai"\?\).*, local\.\n/);
    // …and in the person's language after the prefix, not English inside it.
    const zh = await project.run(['ask', 'hi', '--lang', 'zh'], { env: { RIVERSE_MODEL: 'opeani:x' } });
    assert.match(
      zh.stderr,
      /^错误：“opeani:x”中的模型提供方“opeani”不存在（你是想输入“openai”吗？）。已知的提供方：openai, .*, local。\n/,
    );
    const ja = await project.run(['ask', 'hi', '--lang', 'ja'], { env: { RIVERSE_MODEL: 'anthropic:claude' } });
    assert.match(ja.stderr, /^エラー：anthropic:claude には API キーが必要です：ANTHROPIC_API_KEY を設定してください/);
    const none = await project.run(['ask', 'hi', '--lang', 'zh'], { env: { RIVERSE_MODEL: 'openai:' } });
    assert.match(none.stderr, /^错误：“openai:”没有指定模型；请写成 openai:<模型>/);
  });

  it('speaks Chinese and Japanese: --lang, the locale, the config', async () => {
    const zh = await project.run(['tools', 'lsit', '--lang', 'zh']);
    assert.equal(
      zh.stderr,
      "错误：没有 'lsit' 这个命令；你是想输入 'list' 吗？\n用法见 `npx riverse tools --help`。\n",
    );
    const ja = await project.run(['tols'], { env: { LANG: 'ja_JP.UTF-8' } });
    assert.equal(
      ja.stderr,
      "エラー：'tols' というコマンドはありません。'tools' のことですか？\n使い方は `npx riverse --help` で確認できます。\n",
    );
    const help = await project.run(['--help'], { env: { LANG: 'zh_CN.UTF-8' } });
    assert.match(help.stdout, /^用法： riverse/);
    assert.match(help.stdout, /不带命令时，npx riverse 以服务方式运行/);
    assert.match(help.stdout, /-c, --config <file> +配置文件/);
    const configured = await createProject({ 'riverse.yaml': 'language: ja\n' });
    try {
      const result = await configured.run(['tools', 'run', '--help']);
      assert.match(result.stdout, /^使い方： riverse tools run/);
      assert.match(result.stdout, /--lang <language> +メッセージ・説明・回答の言語.*\(選択肢:\s+"en", "zh", "ja"\)/s);
    } finally {
      await configured.remove();
    }
  });
});
