import type { Language } from '../core/language.ts';

// What Riverse says about riverse.yaml (load-config.ts, interpolate-env.ts, config-fields.ts,
// riverse-config.ts), in each language. Keyed by a stable id; the English text is also each
// problem's plain message (ConfigError.problems).

const en = {
  'config.cannot-read': (a: { error: string }) => `cannot be read: ${a.error}`,
  'config.not-found': (a: { by: string }) => `no such config file (named by ${a.by})`,
  'config.invalid-yaml': (a: { error: string }) => `invalid YAML: ${a.error}`,
  'config.env-unset': (a: { name: string }) =>
    `environment variable ${a.name} is not set (write \${${a.name}:-default} to give a default)`,
  'config.not-mapping': (a: { got: string }) => `the file must hold a mapping of settings (key: value), got ${a.got}`,
  'config.expected': (a: { expected: string; got: string }) => `expected ${a.expected}, got ${a.got}`,
  'config.at-most-ms': (a: { max: number }) => `at most ${a.max} ms (about 24 days)`,
  'config.mcp.takes-command': (a: { type: string }) => `type ${a.type} takes a command, not a url`,
  'config.mcp.takes-url': (a: { type: string }) => `type ${a.type} takes a url, not a command`,
  'config.mcp.needs-command': () =>
    'expected "command" (a program to start, speaking MCP on stdio) or "url" (a streamable HTTP endpoint)',
  'config.mcp.needs-url': () => 'expected "url", the streamable HTTP endpoint (such as https://example.com/mcp)',
  'config.mcp.both': () =>
    'has both "command" and "url": a server is either started here (command) or reached at an address (url)',
  // What was expected, and what was found.
  'config.kind.text': () => 'text',
  'config.kind.quoted-text': () => 'text (quote it)',
  'config.kind.flag': () => 'true or false',
  'config.kind.either': (a: { first: string; second: string }) => `${a.first} or ${a.second}`,
  'config.kind.one-of': (a: { values: string }) => `one of ${a.values}`,
  'config.kind.whole': (a: { min: number }) => `a whole number of at least ${a.min}`,
  'config.kind.whole-of': (a: { unit: string; min: number }) => `a whole number of ${a.unit}, at least ${a.min}`,
  'config.kind.port': () => 'a port number from 0 to 65535',
  'config.kind.sampling-rule': (a: { min: string; max: string }) =>
    `allow, ignore, a range {min, max} or {pin: value}, the numbers from ${a.min} to ${a.max}`,
  'config.kind.sampling-rule-whole': (a: { min: string; max: string }) =>
    `allow, ignore, a range {min, max} or {pin: value}, whole numbers from ${a.min} to ${a.max}`,
  'config.kind.stop-rule': () => 'allow, ignore or {pin: [texts]}',
  'config.kind.list': (a: { what: string }) => `a list of ${a.what}`,
  'config.kind.origin': () =>
    'an origin such as "https://app.example" (scheme, host and port, no path or trailing slash)',
  'config.kind.mapping': (a: { keys: string }) => `a mapping (${a.keys})`,
  'config.kind.tool-section': () => 'the tool\'s section (a mapping such as "enabled: false")',
  'config.kind.tools': () => 'a mapping (enabled, dirs, and one section per tool)',
  'config.kind.text-map': (a: { what: string }) => `a mapping of ${a.what} to their values`,
  'config.kind.mcp-url': () => 'an http:// or https:// address of a streamable HTTP MCP endpoint',
  'config.kind.mcp-server': () => "a server's settings (command and args, or url)",
  'config.kind.mcp-servers': () => 'a mapping of server names to their settings (as Claude Desktop\'s "mcpServers")',
  'config.what.folders': () => 'folder paths',
  'config.what.origins': () => 'origins (such as "https://app.example")',
  'config.what.tool-names': () => 'tool names',
  'config.what.host-names': () => 'host names',
  'config.what.arguments': () => 'arguments',
  'config.what.env': () => 'environment variables',
  'config.what.headers': () => 'header names',
  'config.unit.megabytes': () => 'megabytes',
  'config.unit.tokens': () => 'tokens',
  'config.unit.tools': () => 'tools',
  'config.unit.bytes': () => 'bytes',
  'config.unit.days': () => 'days',
  'config.unit.traces': () => 'traces',
  'config.kind.postgres-url': () =>
    'a PostgreSQL URL starting postgres:// or postgresql:// (like "postgres://riverse:secret@db.local:5432/riverse"); leave store.url out for the SQLite file in the data folder',
  'config.kind.http-url': () => 'an http:// or https:// URL (a collector\'s is like "http://localhost:4318")',
  'config.kind.text-mapping': () => 'a mapping of names to texts (name: value)',
  'config.telemetry.grpc': () =>
    'Riverse exports traces over OTLP/HTTP only, not "grpc": set "http/protobuf" (the default, port 4318) or "http/json"',
  'config.got.list': () => 'a list',
  'config.got.nothing': () => 'nothing',
  'config.got.mapping': () => 'a mapping',
  'config.got.value': (a: { type: string; value: string }) => `${a.type} ${a.value}`,
};

type Texts = { [K in keyof typeof en]: (a: Parameters<(typeof en)[K]>[0]) => string };

const zh: Texts = {
  'config.cannot-read': (a) => `无法读取：${a.error}`,
  'config.not-found': (a) => `没有这个配置文件（由 ${a.by} 指定）`,
  'config.invalid-yaml': (a) => `YAML 无效：${a.error}`,
  'config.env-unset': (a) => `环境变量 ${a.name} 未设置（写成 \${${a.name}:-默认值} 可给出默认值）`,
  'config.not-mapping': (a) => `文件应是设置的映射（键: 值），实际是 ${a.got}`,
  'config.expected': (a) => `应为 ${a.expected}，实际是 ${a.got}`,
  'config.at-most-ms': (a) => `最多 ${a.max} 毫秒（约 24 天）`,
  'config.mcp.takes-command': (a) => `类型 ${a.type} 需要 command，不是 url`,
  'config.mcp.takes-url': (a) => `类型 ${a.type} 需要 url，不是 command`,
  'config.mcp.needs-command': () => '应有 "command"（要启动的程序，通过 stdio 说 MCP）或 "url"（可流式的 HTTP 端点）',
  'config.mcp.needs-url': () => '应有 "url"，即可流式的 HTTP 端点（例如 https://example.com/mcp）',
  'config.mcp.both': () => '同时有 "command" 和 "url"：服务器要么在这里启动（command），要么通过地址访问（url）',
  'config.kind.text': () => '文本',
  'config.kind.quoted-text': () => '文本（请加引号）',
  'config.kind.flag': () => 'true 或 false',
  'config.kind.either': (a) => `${a.first} 或 ${a.second}`,
  'config.kind.one-of': (a) => `${a.values} 之一`,
  'config.kind.whole': (a) => `不小于 ${a.min} 的整数`,
  'config.kind.whole-of': (a) => `整数（${a.unit}），不小于 ${a.min}`,
  'config.kind.port': () => '0 到 65535 的端口号',
  'config.kind.sampling-rule': (a) => `allow、ignore、范围 {min, max} 或 {pin: 值}，数值在 ${a.min} 到 ${a.max} 之间`,
  'config.kind.sampling-rule-whole': (a) =>
    `allow、ignore、范围 {min, max} 或 {pin: 值}，整数，在 ${a.min} 到 ${a.max} 之间`,
  'config.kind.stop-rule': () => 'allow、ignore 或 {pin: [文本]}',
  'config.kind.list': (a) => `${a.what}的列表`,
  'config.kind.origin': () => '形如 "https://app.example" 的源（协议、主机和端口，不带路径或末尾斜杠）',
  'config.kind.mapping': (a) => `映射（${a.keys}）`,
  'config.kind.tool-section': () => '该工具的设置段（如 "enabled: false" 的映射）',
  'config.kind.tools': () => '映射（enabled、dirs，以及每个工具一段）',
  'config.kind.text-map': (a) => `从${a.what}到其值的映射`,
  'config.kind.mcp-url': () => '可流式 HTTP MCP 端点的 http:// 或 https:// 地址',
  'config.kind.mcp-server': () => '服务器的设置（command 和 args，或 url）',
  'config.kind.mcp-servers': () => '从服务器名到其设置的映射（同 Claude Desktop 的 "mcpServers"）',
  'config.what.folders': () => '文件夹路径',
  'config.what.origins': () => '源（如 "https://app.example"）',
  'config.what.tool-names': () => '工具名',
  'config.what.host-names': () => '主机名',
  'config.what.arguments': () => '参数',
  'config.what.env': () => '环境变量',
  'config.what.headers': () => '请求头名',
  'config.unit.megabytes': () => '兆字节',
  'config.unit.tokens': () => 'token',
  'config.unit.tools': () => '个工具',
  'config.unit.bytes': () => '字节',
  'config.unit.days': () => '天',
  'config.unit.traces': () => '条追踪',
  'config.kind.postgres-url': () =>
    '以 postgres:// 或 postgresql:// 开头的 PostgreSQL 地址（形如 "postgres://riverse:secret@db.local:5432/riverse"）；不写 store.url 则使用数据目录中的 SQLite 文件',
  'config.kind.http-url': () => 'http:// 或 https:// 地址（收集器的地址形如 "http://localhost:4318"）',
  'config.kind.text-mapping': () => '名称到文本的映射（name: value）',
  'config.telemetry.grpc': () =>
    'Riverse 只通过 OTLP/HTTP 导出追踪，不支持 "grpc"：请设为 "http/protobuf"（默认，端口 4318）或 "http/json"',
  'config.got.list': () => '列表',
  'config.got.nothing': () => '空值',
  'config.got.mapping': () => '映射',
  'config.got.value': (a) => `${a.type} ${a.value}`,
};

const ja: Texts = {
  'config.cannot-read': (a) => `読めません：${a.error}`,
  'config.not-found': (a) => `その設定ファイルはありません（${a.by} で指定）`,
  'config.invalid-yaml': (a) => `YAML が不正です：${a.error}`,
  'config.env-unset': (a) =>
    `環境変数 ${a.name} が設定されていません（\${${a.name}:-既定値} と書けば既定値を与えられます）`,
  'config.not-mapping': (a) => `ファイルは設定のマッピング（キー: 値）でなければなりません。実際は ${a.got} です`,
  'config.expected': (a) => `${a.expected} が必要ですが、実際は ${a.got} です`,
  'config.at-most-ms': (a) => `最大 ${a.max} ミリ秒（約 24 日）です`,
  'config.mcp.takes-command': (a) => `type ${a.type} には url ではなく command を指定します`,
  'config.mcp.takes-url': (a) => `type ${a.type} には command ではなく url を指定します`,
  'config.mcp.needs-command': () =>
    '"command"（stdio で MCP を話す、起動するプログラム）か "url"（ストリーミング可能な HTTP エンドポイント）が必要です',
  'config.mcp.needs-url': () =>
    '"url"（ストリーミング可能な HTTP エンドポイント、例：https://example.com/mcp）が必要です',
  'config.mcp.both': () =>
    '"command" と "url" の両方があります：サーバーはここで起動する（command）か、アドレスで接続する（url）かのどちらかです',
  'config.kind.text': () => 'テキスト',
  'config.kind.quoted-text': () => 'テキスト（引用符で囲む）',
  'config.kind.flag': () => 'true か false',
  'config.kind.either': (a) => `${a.first} か ${a.second}`,
  'config.kind.one-of': (a) => `${a.values} のいずれか`,
  'config.kind.whole': (a) => `${a.min} 以上の整数`,
  'config.kind.whole-of': (a) => `整数（${a.unit}、${a.min} 以上）`,
  'config.kind.port': () => '0 から 65535 のポート番号',
  'config.kind.sampling-rule': (a) =>
    `allow、ignore、範囲 {min, max}、{pin: 値} のいずれか（数値は ${a.min} から ${a.max}）`,
  'config.kind.sampling-rule-whole': (a) =>
    `allow、ignore、範囲 {min, max}、{pin: 値} のいずれか（${a.min} から ${a.max} の整数）`,
  'config.kind.stop-rule': () => 'allow、ignore、{pin: [テキスト]} のいずれか',
  'config.kind.list': (a) => `${a.what}のリスト`,
  'config.kind.origin': () =>
    '"https://app.example" のようなオリジン（スキーム、ホスト、ポートのみ。パスや末尾のスラッシュなし）',
  'config.kind.mapping': (a) => `マッピング（${a.keys}）`,
  'config.kind.tool-section': () => 'ツールのセクション（"enabled: false" のようなマッピング）',
  'config.kind.tools': () => 'マッピング（enabled、dirs、ツールごとのセクション）',
  'config.kind.text-map': (a) => `${a.what}から値へのマッピング`,
  'config.kind.mcp-url': () => 'ストリーミング可能な HTTP MCP エンドポイントの http:// または https:// アドレス',
  'config.kind.mcp-server': () => 'サーバーの設定（command と args、または url）',
  'config.kind.mcp-servers': () => 'サーバー名から設定へのマッピング（Claude Desktop の "mcpServers" と同じ）',
  'config.what.folders': () => 'フォルダーのパス',
  'config.what.origins': () => 'オリジン（"https://app.example" など）',
  'config.what.tool-names': () => 'ツール名',
  'config.what.host-names': () => 'ホスト名',
  'config.what.arguments': () => '引数',
  'config.what.env': () => '環境変数',
  'config.what.headers': () => 'ヘッダー名',
  'config.unit.megabytes': () => 'メガバイト',
  'config.unit.tokens': () => 'トークン',
  'config.unit.tools': () => 'ツール数',
  'config.unit.bytes': () => 'バイト',
  'config.unit.days': () => '日',
  'config.unit.traces': () => '件のトレース',
  'config.kind.postgres-url': () =>
    'postgres:// または postgresql:// で始まる PostgreSQL の URL（"postgres://riverse:secret@db.local:5432/riverse" のような形）。データフォルダーの SQLite ファイルを使うなら store.url を書かないでください',
  'config.kind.http-url': () =>
    'http:// または https:// の URL（コレクターの URL は "http://localhost:4318" のような形）',
  'config.kind.text-mapping': () => '名前からテキストへのマッピング（name: value）',
  'config.telemetry.grpc': () =>
    'Riverse のトレースのエクスポートは OTLP/HTTP のみで、"grpc" は使えません。"http/protobuf"（既定、ポート 4318）か "http/json" にしてください',
  'config.got.list': () => 'リスト',
  'config.got.nothing': () => '空',
  'config.got.mapping': () => 'マッピング',
  'config.got.value': (a) => `${a.type} ${a.value}`,
};

export const CONFIG_TEXT = { en, zh, ja } satisfies Record<Language, object>;
