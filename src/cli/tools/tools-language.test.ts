// Every `riverse tools` command speaks the person's language — chosen once per command as chat
// chooses it: --lang, else `language:` in riverse.yaml, else the locale — diagnostics included
// (their stable code stays; their message and hint are shown in that language).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createProject,
  ECHO_TOOL,
  NO_EXAMPLES_TOOL,
  parseJson,
  show,
  SYNTAX_ERROR_TOOL,
  type TempProject,
} from '../cli-test-support.ts';

describe('riverse tools in Chinese and Japanese', { concurrency: true }, () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'agent/tools/lonely.ts': NO_EXAMPLES_TOOL,
      'agent/tools/broken.ts': SYNTAX_ERROR_TOOL,
      'riverse.yaml': 'tools:\n  lonely:\n    enabled: false\n',
    });
  });
  after(() => project.remove());

  it('tools check --lang zh: diagnostics, hints and the summary in Chinese', async () => {
    const result = await project.run(['tools', 'check', '--lang', 'zh', '--no-types']);
    assert.equal(result.code, 1, show(result));
    assert.match(
      result.stdout,
      /^agent\/tools\/broken\.ts:6:\d+: 错误 \[syntax-error\] 语法错误：.*\n {2}→ 请修正这一行的代码；其他工具文件照常加载$/m,
    );
    assert.match(
      result.stdout,
      /^agent\/tools\/lonely\.ts:5:12: 警告 \[manifest-warning\] lonely: examples：没有示例：请添加 2–3 条应当触发此工具的用户消息/m,
    );
    assert.match(result.stdout, /^已检查 agent\/tools：1 个工具可用，1 个不可用；1 个错误，1 个警告。$/m);
    assert.doesNotMatch(result.stdout, /fix the code|no examples|Checked/);
  });

  it('tools check --json --lang ja: the same codes, the text in Japanese, no phrases in the output', async () => {
    const result = await project.run(['tools', 'check', '--json', '--lang', 'ja', '--no-types']);
    const report = parseJson(result);
    assert.deepEqual(report.diagnostics.map((diagnostic: { code: string }) => diagnostic.code).sort(), [
      'manifest-warning',
      'syntax-error',
    ]);
    const warning = report.diagnostics.find((diagnostic: { code: string }) => diagnostic.code === 'manifest-warning');
    assert.equal(
      warning.message,
      'examples：例がありません。このツールを呼ぶべきユーザーのメッセージを 2〜3 個加えてください。モデルとルーティングが使います',
    );
    assert.equal('text' in warning, false);
    assert.deepEqual(
      report.tools.find((tool: { name: string }) => tool.name === 'lonely'),
      {
        name: 'lonely',
        file: project.path('agent/tools/lonely.ts'),
        available: false,
        reason: '設定で無効にされています（tools.lonely.enabled: false）',
      },
    );
  });

  it('tools list under a Chinese locale (LANG=zh_CN.UTF-8)', async () => {
    const result = await project.run(['tools', 'list'], { env: { LANG: 'zh_CN.UTF-8' } });
    assert.equal(result.code, 1, show(result)); // broken.ts did not load
    assert.match(
      result.stdout,
      /^名称 +源文件 +状态\necho +agent\/tools\/echo\.ts +可用\nlonely +agent\/tools\/lonely\.ts +不可用：已在配置中关闭（tools\.lonely\.enabled: false）\n/,
    );
    assert.match(
      result.stderr,
      /有 1 个问题导致工具无法加载：\nagent\/tools\/broken\.ts:6:\d+: 错误 \[syntax-error\] 语法错误：/,
    );
    assert.match(result.stderr, /运行 `npx riverse tools check` 查看全部诊断。\n$/);
  });

  it('tools run and show: a name that did not load, and a mistyped one, in Japanese', async () => {
    const broken = await project.run(['tools', 'run', 'broken', '--lang', 'ja']);
    assert.equal(broken.code, 1, show(broken));
    assert.match(
      broken.stderr,
      /^エラー：ツール "broken" は読み込めなかったため、呼び出せません：\nagent\/tools\/broken\.ts:6:\d+: エラー \[syntax-error\] 構文エラー：/,
    );
    const typo = await project.run(['tools', 'show', 'ecko'], { env: { LANG: 'ja_JP.UTF-8' } });
    assert.equal(typo.code, 2, show(typo));
    assert.match(
      typo.stderr,
      /^エラー："ecko" というツールはありません（"echo" のことですか？）。使えるツール：echo。/,
    );
    const refused = await project.run(['tools', 'run', 'echo', 'times=many', '--lang', 'zh']);
    assert.equal(refused.code, 1, show(refused));
    assert.equal(
      refused.stderr,
      '错误：echo 的参数无效：\n- 缺少必需的参数 "text"\n- "times" 必须是 integer，实际是 string "many"\n应为：echo(text: string, times?: integer = 1)\n  text: string — 要返回的文本\n  times?: integer — How many times\n',
    );
    const off = await project.run(['tools', 'run', 'lonely', '--lang', 'zh']);
    assert.equal(off.stderr, '错误：工具 "lonely" 不可用：已在配置中关闭（tools.lonely.enabled: false）。\n');
    const pair = await project.run(['tools', 'run', 'echo', 'hello', '--lang', 'zh']);
    assert.equal(pair.stderr, '错误："hello" 不是参数：请写成 key=value，例如 city=Tokyo\n');
  });

  it('tools run: a throw and a result that is not one, in the language of the command, isolated or not', async () => {
    const files = {
      'agent/tools/boom.ts': `import { BaseTool } from 'riverse';

export class BoomTool extends BaseTool {
  manifest() {
    return { name: 'boom', description: 'Throws', examples: ['Blow up', 'Explode'] };
  }

  execute(): never {
    throw new Error('爆発');
  }
}
`,
      'agent/tools/objecty.ts': `import { BaseTool } from 'riverse';

export class ObjectyTool extends BaseTool {
  manifest() {
    return { name: 'objecty', description: 'Returns an object as data', examples: ['Give me data', 'Show an object'] };
  }

  execute(): never {
    return { success: true, data: { n: 1 } } as never;
  }
}
`,
      'agent/tools/mute.ts': `import { BaseTool } from 'riverse';

export class MuteTool extends BaseTool {
  manifest() {
    return { name: 'mute', description: 'Fails without a word', examples: ['Say nothing', 'Fail quietly'] };
  }

  execute(): never {
    return { success: false } as never;
  }
}
`,
    };
    for (const yaml of ['', 'tools:\n  isolation: none\n']) {
      const app = await createProject({ ...files, 'riverse.yaml': yaml });
      try {
        const ja = await app.run(['tools', 'run', 'boom', '--lang', 'ja']);
        assert.equal(ja.code, 1, show(ja));
        assert.equal(ja.stderr, 'エラー：boom が失敗しました：爆発（場所：agent/tools/boom.ts:9:11）\n', yaml);
        const zh = await app.run(['tools', 'run', 'objecty', '--lang', 'zh']);
        assert.equal(zh.code, 1, show(zh));
        assert.equal(
          zh.stderr,
          '错误：objecty 返回的 "data" 是 对象；"data" 必须是字符串（结构化数据请用 JSON.stringify）。应返回 { success: boolean, data: string, error?: string }；可使用 ToolResult.ok(data) 或 ToolResult.fail(error)。\n',
          yaml,
        );
        const zhThrow = await app.run(['tools', 'run', 'boom', '--lang', 'zh']);
        assert.equal(zhThrow.stderr, '错误：boom 执行失败：爆発（位于 agent/tools/boom.ts:9:11）\n', yaml);
        const jaResult = await app.run(['tools', 'run', 'objecty', '--lang', 'ja']);
        assert.match(jaResult.stderr, /^エラー：objecty は "data" を オブジェクト として返しました。/, yaml);
        const mute = await app.run(['tools', 'run', 'mute', '--lang', 'ja']);
        assert.equal(mute.stderr, 'エラー：ツールは失敗を報告しましたが、エラーメッセージがありません\n', yaml);
        // The result itself keeps the English a model reads.
        const json = parseJson(await app.run(['tools', 'run', 'boom', '--json', '--lang', 'ja']));
        assert.equal(json.error, 'boom failed: 爆発 (at agent/tools/boom.ts:9:11)');
      } finally {
        await app.remove();
      }
    }
  });

  it('tools new: the language of the config (language: ja), and --lang over it', async () => {
    const app = await createProject({ 'riverse.yaml': 'language: ja\n' });
    try {
      const created = await app.run(['tools', 'new', 'greet']);
      assert.equal(created.code, 0, show(created));
      assert.match(
        created.stdout,
        /^agent\/tools\/greet\.ts と agent\/tools\/greet\.test\.ts を作りました。\n次に：\n {2}npx riverse tools run greet text=hello +# 試しに実行する\n/,
      );
      const invalid = await app.run(['tools', 'new', '9lives', '--lang', 'zh']);
      assert.equal(invalid.code, 2, show(invalid));
      assert.match(invalid.stderr, /^错误："9lives" 不是有效的工具名/);
    } finally {
      await app.remove();
    }
  });

  it('a riverse.yaml with mistakes: every problem in the language of the command, where stays as it is', async () => {
    const broken = await createProject({
      'agent/tools/echo.ts': ECHO_TOOL,
      'riverse.yaml': 'tools:\n  enabled: "yes"\n  isolation: procss\n  memory_mb: 4\n',
    });
    try {
      const zh = await broken.run(['tools', 'list', '--lang', 'zh']);
      assert.equal(zh.code, 2, show(zh));
      assert.match(zh.stderr, /riverse\.yaml:2: tools\.enabled: 应为 true 或 false，实际是 string "yes"\n/);
      assert.match(
        zh.stderr,
        /riverse\.yaml:3: tools\.isolation: 应为 process, worker, none 之一，实际是 string "procss"\n/,
      );
      assert.match(zh.stderr, /riverse\.yaml:4: tools\.memory_mb: 应为 整数（兆字节），不小于 16，实际是 number 4\n/);
      const ja = await broken.run(['tools', 'list'], { env: { LANG: 'ja_JP.UTF-8' } });
      assert.match(
        ja.stderr,
        /riverse\.yaml:2: tools\.enabled: true か false が必要ですが、実際は string "yes" です\n/,
      );
      const en = await broken.run(['tools', 'list', '--lang', 'en']);
      assert.match(
        en.stderr,
        /riverse\.yaml:3: tools\.isolation: expected one of process, worker, none, got string "procss"\n/,
      );
    } finally {
      await broken.remove();
    }
  });
});
