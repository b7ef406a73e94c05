import { definePhrases } from '../core/phrase.ts';

// What Riverse's MCP client says to a person: the sign-in of a server (OAuth), a server's
// request for input (elicitation) and for Riverse's model (sampling), in each language.

const en = {
  'mcp.sign-in.needed': (a: { server: string; url: string }) =>
    `MCP server "${a.server}" needs you to sign in. Open this link in a browser on this computer:\n  ${a.url}`,
  'mcp.sign-in.waiting': (a: { server: string }) =>
    `waiting for you to sign in to ${a.server} (the link is shown in the terminal, in the dashboard and at GET /api/mcp/sign-ins)`,
  'mcp.sign-in.page-done': (a: { server: string }) =>
    `Signed in to ${a.server}. You can close this tab and go back to Riverse.`,
  'mcp.sign-in.page-unknown': () =>
    'This sign-in link is not (or no longer) awaited by Riverse: it finished, timed out, or Riverse restarted. Start the sign-in again from Riverse.',
  'mcp.sign-in.page-refused': (a: { error: string }) =>
    `The sign-in was refused by the authorization server (${a.error}). Riverse will show a new link when it tries again.`,
  'mcp.elicit.form': (a: { server: string; message: string; fields: string }) =>
    `MCP server "${a.server}" asks for: ${a.message}\nIt wants: ${a.fields}. Answer, or decline to send nothing.`,
  'mcp.elicit.url': (a: { server: string; message: string; url: string; domain: string }) =>
    `MCP server "${a.server}" asks you to open a page at ${a.domain} (${a.message}):\n  ${a.url}\nOpen it yourself in a browser; Riverse never opens it. Say when you are done, or decline.`,
  'mcp.elicit.field': (a: { title: string; description: string; kind: string; optional: boolean; fallback: string }) =>
    `${a.title}${a.description === '' ? '' : ` — ${a.description}`} (${a.kind}${a.optional ? ', optional: leave it with "skip"' : ''}${a.fallback === '' ? '' : `; default ${a.fallback}`})`,
  'mcp.elicit.invalid': (a: { title: string; kind: string }) => `That is not ${a.kind}. ${a.title} again:`,
  'mcp.elicit.choice.accept': () => 'Answer',
  'mcp.elicit.choice.done': () => 'Done',
  'mcp.elicit.choice.decline': () => 'Decline',
  'mcp.elicit.choice.skip': () => 'skip',
  'mcp.elicit.choice.yes': () => 'yes',
  'mcp.elicit.choice.no': () => 'no',
  'mcp.elicit.kind.text': () => 'text',
  'mcp.elicit.kind.number': () => 'a number',
  'mcp.elicit.kind.integer': () => 'a whole number',
  'mcp.elicit.kind.boolean': () => 'yes or no',
  'mcp.elicit.kind.choice': (a: { choices: string }) => `one of ${a.choices}`,
  'mcp.elicit.kind.choices': (a: { choices: string }) => `some of ${a.choices}, separated by commas`,
  'mcp.sample.ask': (a: { server: string; prompt: string; system: string; maxTokens: number }) =>
    `MCP server "${a.server}" asks to use Riverse's model for a reply of at most ${a.maxTokens} tokens:\n${a.prompt}${a.system === '' ? '' : `\n(its instructions: ${a.system})`}\nAllow it once, or decline.`,
  'mcp.sample.allow': () => 'Allow',
  'mcp.sample.declined': (a: { server: string }) =>
    `The person declined ${a.server}'s request to use Riverse's model; the model was not asked.`,
  'mcp.sample.timeout': (a: { server: string }) =>
    `No one answered ${a.server}'s request to use Riverse's model in time; the model was not asked.`,
  'mcp.sample.nobody': (a: { server: string }) =>
    `${a.server} asked to use Riverse's model, and no one can be asked to allow it here (riverse ask, a /v1 request, or no call under way); the model was not asked.`,
};

const zh: typeof en = {
  'mcp.sign-in.needed': (a) => `MCP 服务器"${a.server}"需要你登录。请在本机的浏览器中打开此链接：\n  ${a.url}`,
  'mcp.sign-in.waiting': (a) => `正在等待你登录 ${a.server}（链接显示在终端、仪表板和 GET /api/mcp/sign-ins 中）`,
  'mcp.sign-in.page-done': (a) => `已登录 ${a.server}。可以关闭此标签页，回到 Riverse。`,
  'mcp.sign-in.page-unknown': () =>
    'Riverse 没有（或不再）在等待这个登录链接：登录已完成、已超时，或 Riverse 已重启。请从 Riverse 重新开始登录。',
  'mcp.sign-in.page-refused': (a) => `授权服务器拒绝了登录（${a.error}）。Riverse 重试时会显示新的链接。`,
  'mcp.elicit.form': (a) =>
    `MCP 服务器"${a.server}"请求：${a.message}\n需要：${a.fields}。请回答，或拒绝（什么都不发送）。`,
  'mcp.elicit.url': (a) =>
    `MCP 服务器"${a.server}"请你打开 ${a.domain} 上的页面（${a.message}）：\n  ${a.url}\n请自己在浏览器中打开；Riverse 不会替你打开。完成后告诉我，或拒绝。`,
  'mcp.elicit.field': (a) =>
    `${a.title}${a.description === '' ? '' : `——${a.description}`}（${a.kind}${a.optional ? '，可选：回答"skip"跳过' : ''}${a.fallback === '' ? '' : `；默认 ${a.fallback}`}）`,
  'mcp.elicit.invalid': (a) => `这不是${a.kind}。请重新填写 ${a.title}：`,
  'mcp.elicit.choice.accept': () => '回答',
  'mcp.elicit.choice.done': () => '完成',
  'mcp.elicit.choice.decline': () => '拒绝',
  'mcp.elicit.choice.skip': () => 'skip',
  'mcp.elicit.choice.yes': () => '是',
  'mcp.elicit.choice.no': () => '否',
  'mcp.elicit.kind.text': () => '文本',
  'mcp.elicit.kind.number': () => '数字',
  'mcp.elicit.kind.integer': () => '整数',
  'mcp.elicit.kind.boolean': () => '是或否',
  'mcp.elicit.kind.choice': (a) => `${a.choices} 之一`,
  'mcp.elicit.kind.choices': (a) => `${a.choices} 中的若干项，用逗号分隔`,
  'mcp.sample.ask': (a) =>
    `MCP 服务器"${a.server}"请求使用 Riverse 的模型，回复最多 ${a.maxTokens} 个 token：\n${a.prompt}${a.system === '' ? '' : `\n（它的指示：${a.system}）`}\n允许这一次，或拒绝。`,
  'mcp.sample.allow': () => '允许',
  'mcp.sample.declined': (a) => `你拒绝了 ${a.server} 使用 Riverse 模型的请求；没有询问模型。`,
  'mcp.sample.timeout': (a) => `没有人及时回应 ${a.server} 使用 Riverse 模型的请求；没有询问模型。`,
  'mcp.sample.nobody': (a) =>
    `${a.server} 请求使用 Riverse 的模型，但这里无法询问任何人是否允许（riverse ask、/v1 请求，或没有正在进行的调用）；没有询问模型。`,
};

const ja: typeof en = {
  'mcp.sign-in.needed': (a) =>
    `MCP サーバー「${a.server}」にサインインが必要です。このコンピューターのブラウザーで次のリンクを開いてください：\n  ${a.url}`,
  'mcp.sign-in.waiting': (a) =>
    `${a.server} へのサインインを待っています（リンクはターミナル、ダッシュボード、GET /api/mcp/sign-ins に表示されます）`,
  'mcp.sign-in.page-done': (a) => `${a.server} にサインインしました。このタブを閉じて Riverse に戻ってください。`,
  'mcp.sign-in.page-unknown': () =>
    'このサインインのリンクは Riverse が待っているものではありません（完了した、期限が切れた、または Riverse が再起動した）。Riverse からもう一度サインインを始めてください。',
  'mcp.sign-in.page-refused': (a) =>
    `認可サーバーがサインインを拒否しました（${a.error}）。Riverse が再試行するときに新しいリンクを表示します。`,
  'mcp.elicit.form': (a) =>
    `MCP サーバー「${a.server}」からの依頼：${a.message}\n必要な項目：${a.fields}。答えるか、断って何も送らないかを選んでください。`,
  'mcp.elicit.url': (a) =>
    `MCP サーバー「${a.server}」が ${a.domain} のページを開くよう求めています（${a.message}）：\n  ${a.url}\nご自分でブラウザーで開いてください。Riverse が開くことはありません。終わったら知らせるか、断ってください。`,
  'mcp.elicit.field': (a) =>
    `${a.title}${a.description === '' ? '' : ` — ${a.description}`}（${a.kind}${a.optional ? '、任意：「skip」で省略' : ''}${a.fallback === '' ? '' : `、既定値 ${a.fallback}`}）`,
  'mcp.elicit.invalid': (a) => `${a.kind}ではありません。もう一度 ${a.title}：`,
  'mcp.elicit.choice.accept': () => '答える',
  'mcp.elicit.choice.done': () => '完了',
  'mcp.elicit.choice.decline': () => '断る',
  'mcp.elicit.choice.skip': () => 'skip',
  'mcp.elicit.choice.yes': () => 'はい',
  'mcp.elicit.choice.no': () => 'いいえ',
  'mcp.elicit.kind.text': () => 'テキスト',
  'mcp.elicit.kind.number': () => '数値',
  'mcp.elicit.kind.integer': () => '整数',
  'mcp.elicit.kind.boolean': () => 'はい・いいえ',
  'mcp.elicit.kind.choice': (a) => `${a.choices} のいずれか`,
  'mcp.elicit.kind.choices': (a) => `${a.choices} から複数（カンマ区切り）`,
  'mcp.sample.ask': (a) =>
    `MCP サーバー「${a.server}」が Riverse のモデルで最大 ${a.maxTokens} トークンの返答を求めています：\n${a.prompt}${a.system === '' ? '' : `\n（その指示：${a.system}）`}\n今回だけ許可するか、断ってください。`,
  'mcp.sample.allow': () => '許可',
  'mcp.sample.declined': (a) =>
    `${a.server} による Riverse のモデルの利用は断られました。モデルには問い合わせていません。`,
  'mcp.sample.timeout': (a) =>
    `${a.server} による Riverse のモデルの利用に、時間内に誰も答えませんでした。モデルには問い合わせていません。`,
  'mcp.sample.nobody': (a) =>
    `${a.server} が Riverse のモデルの利用を求めましたが、ここでは許可を尋ねられる人がいません（riverse ask、/v1 のリクエスト、または実行中の呼び出しがない）。モデルには問い合わせていません。`,
};

/** The MCP client's phrases: sign-in and elicitation. */
export const mcpPhrase = definePhrases({ en, zh, ja });
