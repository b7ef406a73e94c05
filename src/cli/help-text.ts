import type { Language } from '../core/language.ts';
import { PROVIDER_NAMES } from '../models/providers/provider-names.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';

/** The model providers `RIVERSE_MODEL=provider:model` takes, for the help: the cheap list, no adapter is loaded. */
const PROVIDERS = PROVIDER_NAMES.join(', ');

/** The `riverse` command's help and usage errors, in each language. */
export interface HelpText {
  program: string;
  /** Before a usage error. */
  error: string;
  /** After the root help: no command means serve, and how the model is chosen. */
  programAfter: string;
  config: string;
  version: string;
  help: string;
  helpCommand: string;
  /** Commander's section titles (`Usage:`, `Options:`…) and the words of its option notes. */
  titles: Record<string, string>;
  choices: string;
  default: string;
  tools: string;
  list: string;
  show: string;
  toolName: string;
  json: string;
  lang: string;
  dialect: string;
  run: string;
  params: string;
  paramsJson: string;
  timeout: string;
  runJson: string;
  check: string;
  strict: string;
  types: string;
  noTypes: string;
  watch: string;
  new: string;
  newName: string;
  dir: string;
  chat: string;
  serve: string;
  mcp: string;
  mcpList: string;
  host: string;
  port: string;
  token: string;
  portNumber: string;
  session: string;
  ask: string;
  question: string;
  askSession: string;
  askJson: string;
  trace: string;
  traceId: string;
  traceJson: string;
  tasks: string;
  tasksList: string;
  tasksAll: string;
  tasksShow: string;
  tasksCancel: string;
  taskId: string;
  bench: string;
  benchRoute: string;
  benchTools: string;
  benchQueries: string;
  benchK: string;
  benchJson: string;
  eval: string;
  evalK: string;
  evalModel: string;
  evalJson: string;
  positiveInteger: string;
  /** A word where a command was expected: the close one, else the commands there are. */
  unknownCommand: (word: string, near: string | undefined, commands: string[]) => string;
  /** After an unknown top-level word that is no typo of a command: a question is asked with `ask`. */
  askInstead: (words: string) => string;
  missingArgument: (name: string) => string;
  unknownOption: (flag: string, near: string | undefined) => string;
  excessArguments: (command: string, expected: number, got: string[]) => string;
  optionMissingArgument: (flags: string) => string;
  /** A required option not given. */
  missingOption: (flags: string) => string;
  /** `why`: the parser's own reason, or `oneOf(choices)`. */
  invalidValue: (flags: string, value: string, why: string) => string;
  oneOf: (choices: string[]) => string;
  /** After a usage error: the help of the command that was given. */
  seeHelp: (command: string) => string;
}

export const HELP_TEXT: Record<Language, HelpText> = {
  en: {
    error: 'error: ',
    program: 'A personal AI assistant whose abilities come from drop-in tools',
    programAfter: [
      '',
      `With no command, ${RIVERSE_COMMAND} serves (as \`${RIVERSE_COMMAND} serve\` does): the dashboard, the API and an OpenAI-compatible endpoint; \`${RIVERSE_COMMAND} chat\` chats in the terminal.`,
      'The model: RIVERSE_MODEL=provider:model (e.g. openai:gpt-4.1-mini with OPENAI_API_KEY), or `model:` in riverse.yaml;',
      'when neither names one, the first that is there: an API key (OpenAI, Anthropic, Gemini), then a local Ollama, then (in a chat, after asking) the embedded default model.',
      'Any other OpenAI-compatible server: OPENAI_BASE_URL=http://host:port/v1 with RIVERSE_MODEL=openai:<model> (no key needed).',
      `Providers: ${PROVIDERS} (local:/path/to/model.gguf).`,
    ].join('\n'),
    config: 'config file (default: $RIVERSE_CONFIG, else ./riverse.yaml)',
    version: 'print the version number',
    help: 'show help for the command',
    helpCommand: 'show help for a command',
    titles: {
      'Usage:': 'Usage:',
      'Arguments:': 'Arguments:',
      'Options:': 'Options:',
      'Commands:': 'Commands:',
      'Global Options:': 'Global Options:',
    },
    choices: 'choices',
    default: 'default',
    tools: 'list, inspect, run, check and create drop-in tools',
    list: 'every tool found: name, source file, available or why not (exit 1 if a tool file did not load)',
    show: "a tool's manifest and the JSON Schema models are given",
    toolName: 'tool name',
    json: 'print JSON',
    lang: 'language of messages, descriptions and answers (default: language: in riverse.yaml, else the locale)',
    dialect: 'print the tool definition as this provider is given it',
    run: 'run a tool: prints its data, or its error with exit code 1',
    params: 'parameters as key=value',
    paramsJson: 'parameters as a JSON object',
    timeout: 'time limit in milliseconds',
    runJson: 'print the whole result as JSON',
    check: 'load every tool and print every diagnostic; exit 1 on errors',
    strict: 'treat warnings as errors',
    types: 'type-check the TypeScript tool files against the tool contract (default: when TypeScript is installed)',
    noTypes: 'do not type-check the tool files',
    watch: 'check again on every save, printing what changed (with --json: one object per event)',
    new: 'write a new tool file, and a test for it, into the tool folder',
    newName: 'tool name, e.g. my_tool',
    dir: 'folder to write into (default: the first tool folder)',
    chat: 'chat in the terminal; the assistant uses the drop-in tools',
    serve: 'run the assistant as a service: a dashboard in the browser, an HTTP API and an OpenAI-compatible endpoint',
    mcp: 'serve the drop-in tools to an MCP client (Claude Desktop, Cursor, VS Code…) over stdio; `mcp list` shows the MCP servers Riverse uses',
    mcpList: 'each MCP server of riverse.yaml: its transport, whether it is connected (or why not) and its tools',
    host: 'address to listen on (default: server.host in riverse.yaml, else 127.0.0.1; anything else needs a token)',
    port: 'port to listen on (default: server.port in riverse.yaml, else 8400)',
    token: 'access token every request must bring (default: server.token in riverse.yaml, else $RIVERSE_TOKEN)',
    portNumber: 'expected a port number from 0 to 65535',
    session: 'session to resume or start',
    ask: 'ask one question; the reply goes to stdout',
    question: 'the question',
    askSession: 'keep the exchange in this session (default: not kept)',
    askJson: 'print the whole turn: reply, tool calls, messages, usage',
    trace: "print a turn's trace as a tree: model requests, tool calls, approval waits, times",
    traceId: 'the turn: "last" (default) or its id (a start of it, 4 characters or more)',
    traceJson: 'print the whole trace as JSON, as GET /api/traces/turns/:id gives it',
    tasks: 'the tool calls that run apart from their turn (long_running tools): list, show, cancel',
    tasksList: 'the running tasks, newest first: tool, status, progress, session',
    tasksAll: 'the ended tasks too (completed, failed, cancelled, interrupted)',
    tasksShow: 'one task whole: its arguments, progress, reason and result',
    tasksCancel: 'cancel a running task: the process running it stops its call',
    taskId: "the task's id (or a start of it, 4 characters or more)",
    bench: 'measure Riverse on benchmark data',
    benchRoute: 'measure the tool router: hit@k and recall@k, time per request, tokens sent',
    benchTools: 'the tools, one JSON object a line (name, description, parameters, examples)',
    benchQueries: 'the requests, one JSON object a line (query, lang, gold)',
    benchK: 'the k to report, separated by commas',
    benchJson: 'print the figures as one JSON object',
    eval: "replay every tool's examples through the router and list those that miss their tool (exit 1 on a miss)",
    evalK: 'an example passes when its tool is in the top k',
    evalModel:
      'also send each example to the configured model, with the tools a turn would offer, and check it calls the tool (nothing is run)',
    evalJson: 'print the misses as JSON',
    positiveInteger: 'expected a positive whole number of milliseconds',
    unknownCommand: (word, near, commands) =>
      `unknown command '${word}'; ${near === undefined ? `the commands are ${commands.map((name) => `'${name}'`).join(', ')}` : `did you mean '${near}'?`}`,
    askInstead: (words) => `; to ask a question: ${RIVERSE_COMMAND} ask ${JSON.stringify(words)}`,
    missingArgument: (name) => `missing required argument '${name}'`,
    unknownOption: (flag, near) => `unknown option '${flag}'${near === undefined ? '' : `; did you mean '${near}'?`}`,
    excessArguments: (command, expected, got) =>
      `too many arguments for '${command}': it takes ${expected}, and got ${got.length}: ${got.join(', ')}`,
    optionMissingArgument: (flags) => `option '${flags}' needs a value`,
    missingOption: (flags) => `option '${flags}' is required`,
    invalidValue: (flags, value, why) => `option '${flags}' argument '${value}' is invalid. ${why}`,
    oneOf: (choices) => `Allowed choices are ${choices.join(', ')}.`,
    seeHelp: (command) => `Run \`${command} --help\` for its usage.`,
  },
  zh: {
    error: '错误：',
    program: '个人 AI 助理，能力来自放入文件夹即可使用的工具',
    programAfter: [
      '',
      `不带命令时，${RIVERSE_COMMAND} 以服务方式运行（与 \`${RIVERSE_COMMAND} serve\` 相同）：浏览器里的控制台、HTTP API 和兼容 OpenAI 的接口；\`${RIVERSE_COMMAND} chat\` 在终端里对话。`,
      '选择模型：设置 RIVERSE_MODEL=提供方:模型（例如 openai:gpt-4.1-mini，并设置 OPENAI_API_KEY），或在 riverse.yaml 中写 `model:`；',
      '两者都没有时，按顺序使用第一个可用的：API 密钥（OpenAI、Anthropic、Gemini），然后是本机的 Ollama，再然后（在对话中，先询问）内置的默认模型。',
      '其他兼容 OpenAI 的服务器：设置 OPENAI_BASE_URL=http://主机:端口/v1 和 RIVERSE_MODEL=openai:<模型>（不需要密钥）。',
      `提供方：${PROVIDERS}（local:/path/to/model.gguf）。`,
    ].join('\n'),
    config: '配置文件（默认：$RIVERSE_CONFIG，否则为 ./riverse.yaml）',
    version: '显示版本号',
    help: '显示该命令的帮助',
    helpCommand: '显示某个命令的帮助',
    titles: {
      'Usage:': '用法：',
      'Arguments:': '参数：',
      'Options:': '选项：',
      'Commands:': '命令：',
      'Global Options:': '全局选项：',
    },
    choices: '可选值',
    default: '默认',
    tools: '列出、查看、运行、检查和新建工具',
    list: '列出找到的所有工具：名称、源文件、是否可用（不可用时说明原因）；有工具文件无法加载时退出码为 1',
    show: '显示工具的清单（manifest）以及提供给模型的 JSON Schema',
    toolName: '工具名',
    json: '以 JSON 输出',
    lang: '消息、描述和回答所用的语言（默认：riverse.yaml 中的 language:，否则按系统语言环境）',
    dialect: '按该模型提供方收到的格式输出工具定义',
    run: '运行工具：输出其数据；失败时输出错误，退出码为 1',
    params: '参数，写作 key=value',
    paramsJson: '参数，写作一个 JSON 对象',
    timeout: '时间限制（毫秒）',
    runJson: '以 JSON 输出完整结果',
    check: '加载所有工具并输出全部诊断；有错误时退出码为 1',
    strict: '把警告也当作错误',
    types: '按工具契约对 TypeScript 工具文件做类型检查（默认：安装了 TypeScript 时进行）',
    noTypes: '不对工具文件做类型检查',
    watch: '每次保存后重新检查并输出变化（配合 --json：每个事件输出一个对象）',
    new: '在工具文件夹中新建一个工具文件及其测试',
    newName: '工具名，例如 my_tool',
    dir: '写入的文件夹（默认：第一个工具文件夹）',
    chat: '在终端里对话；助理会使用这些工具',
    serve: '以服务方式运行助理：浏览器里的控制台、HTTP API 和兼容 OpenAI 的接口',
    mcp: '通过 stdio 把工具提供给 MCP 客户端（Claude Desktop、Cursor、VS Code 等）；`mcp list` 显示 Riverse 使用的 MCP 服务器',
    mcpList: 'riverse.yaml 中的每个 MCP 服务器：传输方式、是否已连接（未连接的原因）及其工具数',
    host: '监听的地址（默认：riverse.yaml 中的 server.host，否则为 127.0.0.1；其他地址需要访问令牌）',
    port: '监听的端口（默认：riverse.yaml 中的 server.port，否则为 8400）',
    token: '每个请求都必须带上的访问令牌（默认：riverse.yaml 中的 server.token，否则为 $RIVERSE_TOKEN）',
    portNumber: '应为 0 到 65535 之间的端口号',
    session: '要继续或新建的会话',
    ask: '提一个问题；回答输出到 stdout',
    question: '问题',
    askSession: '把这次问答保存到该会话（默认不保存）',
    askJson: '以 JSON 输出整个回合：回答、工具调用、消息、用量',
    trace: '以树状打印一个回合的追踪：模型请求、工具调用、等待批准、耗时',
    traceId: '回合："last"（默认）或其 id（或其开头，至少 4 个字符）',
    traceJson: '以 JSON 输出完整追踪，与 GET /api/traces/turns/:id 相同',
    tasks: '脱离其回合运行的工具调用（long_running 工具）：列出、查看、取消',
    tasksList: '正在运行的任务，最新的在前：工具、状态、进度、会话',
    tasksAll: '同时列出已结束的任务（已完成、失败、已取消、被中断）',
    tasksShow: '查看一个任务的全部内容：参数、进度、原因和结果',
    tasksCancel: '取消一个正在运行的任务：运行它的进程会停止该调用',
    taskId: '任务的 id（或其开头，至少 4 个字符）',
    bench: '用基准数据衡量 Riverse',
    benchRoute: '衡量工具路由：hit@k 与 recall@k、每条请求的耗时、发送的 token',
    benchTools: '工具文件，每行一个 JSON 对象（name、description、parameters、examples）',
    benchQueries: '请求文件，每行一个 JSON 对象（query、lang、gold）',
    benchK: '要报告的 k，用逗号分隔',
    benchJson: '以一个 JSON 对象输出数据',
    eval: '用路由器重放每个工具的示例，列出没有到达自己工具的示例（有遗漏时退出码为 1）',
    evalK: '工具排在前 k 名内即算通过',
    evalModel: '同时把每条示例连同回合会提供的工具发给配置的模型，检查它是否调用该工具（不会执行任何工具）',
    evalJson: '以 JSON 输出遗漏',
    positiveInteger: '应为正整数（毫秒）',
    unknownCommand: (word, near, commands) =>
      `没有 '${word}' 这个命令；${near === undefined ? `可用的命令有 ${commands.map((name) => `'${name}'`).join('、')}` : `你是想输入 '${near}' 吗？`}`,
    askInstead: (words) => `；要提问，请用：${RIVERSE_COMMAND} ask ${JSON.stringify(words)}`,
    missingArgument: (name) => `缺少必需的参数 '${name}'`,
    unknownOption: (flag, near) => `没有 '${flag}' 这个选项${near === undefined ? '' : `；你是想输入 '${near}' 吗？`}`,
    excessArguments: (command, expected, got) =>
      `'${command}' 的参数过多：它接受 ${expected} 个，实际收到 ${got.length} 个：${got.join(', ')}`,
    optionMissingArgument: (flags) => `选项 '${flags}' 需要一个值`,
    missingOption: (flags) => `必须给出选项 '${flags}'`,
    invalidValue: (flags, value, why) => `选项 '${flags}' 不能是 '${value}'：${why}`,
    oneOf: (choices) => `请使用 ${choices.join('、')} 之一`,
    seeHelp: (command) => `用法见 \`${command} --help\`。`,
  },
  ja: {
    error: 'エラー：',
    program: 'フォルダーに置くだけで使えるツールで能力を広げるパーソナル AI アシスタント',
    programAfter: [
      '',
      `コマンドを付けずに実行すると、${RIVERSE_COMMAND} はサービスとして動きます（\`${RIVERSE_COMMAND} serve\` と同じ）：ブラウザーのダッシュボード、HTTP API、OpenAI 互換のエンドポイント。\`${RIVERSE_COMMAND} chat\` はターミナルでチャットします。`,
      'モデルの選び方：RIVERSE_MODEL=プロバイダー:モデル（例：openai:gpt-4.1-mini と OPENAI_API_KEY）、または riverse.yaml の `model:`。',
      'どちらもなければ、使えるものを順に探します：API キー（OpenAI、Anthropic、Gemini）、次にこのマシンの Ollama、その次に（チャットでは確認のうえ）内蔵の既定のモデル。',
      'そのほかの OpenAI 互換サーバー：OPENAI_BASE_URL=http://ホスト:ポート/v1 と RIVERSE_MODEL=openai:<モデル> を設定します（キーは不要）。',
      `プロバイダー：${PROVIDERS}（local:/path/to/model.gguf）。`,
    ].join('\n'),
    config: '設定ファイル（既定：$RIVERSE_CONFIG、なければ ./riverse.yaml）',
    version: 'バージョン番号を表示する',
    help: 'このコマンドのヘルプを表示する',
    helpCommand: 'コマンドのヘルプを表示する',
    titles: {
      'Usage:': '使い方：',
      'Arguments:': '引数：',
      'Options:': 'オプション：',
      'Commands:': 'コマンド：',
      'Global Options:': '共通オプション：',
    },
    choices: '選択肢',
    default: '既定',
    tools: 'ツールの一覧・表示・実行・チェック・新規作成',
    list: '見つかったすべてのツール：名前、ソースファイル、使えるかどうか（使えない理由）。読み込めないツールファイルがあれば終了コード 1',
    show: 'ツールのマニフェストと、モデルに渡す JSON Schema を表示する',
    toolName: 'ツール名',
    json: 'JSON で出力する',
    lang: 'メッセージ・説明・回答の言語（既定：riverse.yaml の language:、なければロケール）',
    dialect: 'このプロバイダーに渡す形のままツール定義を出力する',
    run: 'ツールを実行する：データを出力し、失敗したらエラーを出力して終了コード 1',
    params: 'パラメーター（key=value）',
    paramsJson: 'パラメーター（JSON オブジェクト）',
    timeout: '制限時間（ミリ秒）',
    runJson: '結果全体を JSON で出力する',
    check: 'すべてのツールを読み込み、診断をすべて出力する。エラーがあれば終了コード 1',
    strict: '警告もエラーとして扱う',
    types: 'TypeScript のツールファイルをツールの契約に照らして型チェックする（既定：TypeScript が入っていれば行う）',
    noTypes: 'ツールファイルの型チェックをしない',
    watch: '保存するたびにチェックし直し、変わったことを出力する（--json なら 1 イベントにつき 1 オブジェクト）',
    new: 'ツールフォルダーに新しいツールファイルとそのテストを作る',
    newName: 'ツール名（例：my_tool）',
    dir: '書き込むフォルダー（既定：最初のツールフォルダー）',
    chat: 'ターミナルでチャットする。アシスタントはツールを使います',
    serve: 'アシスタントをサービスとして動かす：ブラウザーのダッシュボード、HTTP API、OpenAI 互換のエンドポイント',
    mcp: 'ツールを stdio で MCP クライアント（Claude Desktop、Cursor、VS Code など）に提供する。`mcp list` は Riverse が使う MCP サーバーを表示',
    mcpList: 'riverse.yaml の各 MCP サーバー：トランスポート、接続しているか（していない理由）、ツールの数',
    host: '待ち受けるアドレス（既定：riverse.yaml の server.host、なければ 127.0.0.1。それ以外はアクセストークンが必要）',
    port: '待ち受けるポート（既定：riverse.yaml の server.port、なければ 8400）',
    token: 'すべてのリクエストに必要なアクセストークン（既定：riverse.yaml の server.token、なければ $RIVERSE_TOKEN）',
    portNumber: '0 から 65535 までのポート番号を指定してください',
    session: '再開する、または新しく始めるセッション',
    ask: '質問を 1 つする。回答は stdout に出力します',
    question: '質問',
    askSession: 'このやり取りをこのセッションに残す（既定：残さない）',
    askJson: 'ターン全体を出力する：回答、ツール呼び出し、メッセージ、使用量',
    trace: 'ターンのトレースをツリーで表示する：モデルへのリクエスト、ツール呼び出し、承認待ち、時間',
    traceId: 'ターン："last"（既定）またはその id（4 文字以上の先頭部分でも可）',
    traceJson: 'トレース全体を JSON で出力する（GET /api/traces/turns/:id と同じ）',
    tasks: 'ターンから離れて動くツール呼び出し（long_running のツール）：一覧、表示、取り消し',
    tasksList: '実行中のタスクを新しい順に：ツール、状態、進捗、セッション',
    tasksAll: '終わったタスクも表示する（完了、失敗、取り消し、中断）',
    tasksShow: 'タスク 1 件のすべて：引数、進捗、理由、結果',
    tasksCancel: '実行中のタスクを取り消す：実行しているプロセスが呼び出しを止める',
    taskId: 'タスクの id（4 文字以上の先頭部分でも可）',
    bench: 'ベンチマークデータで Riverse を測る',
    benchRoute: 'ツールルーターを測る：hit@k と recall@k、リクエストごとの時間、送るトークン',
    benchTools: 'ツールのファイル（1 行に 1 つの JSON オブジェクト：name、description、parameters、examples）',
    benchQueries: 'リクエストのファイル（1 行に 1 つの JSON オブジェクト：query、lang、gold）',
    benchK: '報告する k（カンマ区切り）',
    benchJson: '数値を 1 つの JSON オブジェクトとして出力する',
    eval: '各ツールの例をルーターで再生し、自分のツールに届かない例を一覧にする（届かない例があれば終了コード 1）',
    evalK: 'ツールが上位 k 以内なら合格',
    evalModel:
      '各例を、ターンが提供するツールとともに設定されたモデルにも送り、そのツールを呼ぶか確かめる（何も実行しない）',
    evalJson: '届かなかった例を JSON で出力する',
    positiveInteger: '正の整数（ミリ秒）を指定してください',
    unknownCommand: (word, near, commands) =>
      `'${word}' というコマンドはありません。${near === undefined ? `使えるコマンド：${commands.map((name) => `'${name}'`).join('、')}` : `'${near}' のことですか？`}`,
    askInstead: (words) => `。質問するには：${RIVERSE_COMMAND} ask ${JSON.stringify(words)}`,
    missingArgument: (name) => `必須の引数 '${name}' がありません`,
    unknownOption: (flag, near) =>
      `'${flag}' というオプションはありません${near === undefined ? '' : `。'${near}' のことですか？`}`,
    excessArguments: (command, expected, got) =>
      `'${command}' の引数が多すぎます：受け取るのは ${expected} 個ですが、${got.length} 個ありました：${got.join(', ')}`,
    optionMissingArgument: (flags) => `オプション '${flags}' には値が必要です`,
    missingOption: (flags) => `オプション '${flags}' が必要です`,
    invalidValue: (flags, value, why) => `オプション '${flags}' に '${value}' は使えません：${why}`,
    oneOf: (choices) => `${choices.join('、')} のいずれかにしてください`,
    seeHelp: (command) => `使い方は \`${command} --help\` で確認できます。`,
  },
};
