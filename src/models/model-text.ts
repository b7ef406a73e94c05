import type { Language } from '../core/language.ts';

// What Riverse says when a model cannot be resolved or set up (resolve-model.ts, the providers'
// descriptors and adapters), in each language. Keyed by a stable id; the English text is also the
// ModelError's `message` (logs, the HTTP API).

type Lines = Record<string, string>;

const en = {
  // Lines of one message, in order (the no-model message is a heading, a row per provider, a tail).
  'model.lines': (a: Lines) => Object.values(a).join('\n'),
  'model.none': () => 'No model is configured. Set RIVERSE_MODEL, for example:',
  'model.none.row': (a: { example: string; hint: string }) => `  RIVERSE_MODEL=${a.example}  ${a.hint}`,
  'model.none.others': (a: { names: string }) => `  other providers: ${a.names}`,
  'model.none.tail': () =>
    'or write `model: openai:gpt-4.1-mini` in riverse.yaml. With only an API key set, its provider is used.',
  'model.hint.key': (a: { env: string }) => `with ${a.env}`,
  'model.hint.openai': () => 'with OPENAI_API_KEY=sk-…  (OPENAI_BASE_URL for any OpenAI-compatible server)',
  'model.hint.ollama': () => 'with Ollama running (OLLAMA_HOST if it is not on 127.0.0.1:11434)',
  'model.hint.local': (a: { command: string }) =>
    `(or local:hf:user/repo/file.gguf) with node-llama-cpp, which also lets a chat offer its default model: ${a.command}`,
  'model.unknown-provider': (a: { prefix: string; name: string; near: string; names: string }) =>
    `Unknown model provider "${a.prefix}" in "${a.name}"${a.near === '' ? '' : ` (did you mean "${a.near}"?)`}. Known providers: ${a.names}.`,
  'model.no-model': (a: { name: string; prefix: string; example: string }) =>
    `"${a.name}" names no model; write ${a.prefix}:<model>, e.g. ${a.prefix}:${a.example}.`,
  'model.no-model-file': (a: { name: string }) =>
    `"${a.name}" names no model file; write local:/path/to/model.gguf or local:hf:user/repo/file.gguf.`,
  'model.needs-key': (a: { name: string; env: string }) =>
    `${a.name} needs an API key: set ${a.env} (or model_options.api_key in riverse.yaml).`,
  'model.strict-tools': (a: { provider: string }) =>
    `model_options.strict_tools is for OpenAI-compatible providers; ${a.provider} does not take it (remove it from riverse.yaml).`,
  'model.bad-base-url': (a: { provider: string; url: string; example: string }) =>
    `${a.provider}: base URL "${a.url}" is not a URL (expected e.g. ${a.example})`,
  'model.gemini-no-model': () => 'gemini: no model named (e.g. gemini-2.5-flash)',
  'model.anthropic-max-tokens': (a: { value: string }) =>
    `anthropic: maxTokens must be a whole number above 0, not ${a.value}`,
  'model.local-vision': (a: { name: string }) =>
    `local:${a.name}: model_options.vision is true, but node-llama-cpp takes no images yet, so a local model cannot see them. Remove model_options.vision (pictures then reach it as a short description), or serve the model with llama-server --mmproj and use llamacpp:… with vision: true.`,
  'model.local-missing': (a: { version: string; root: string; command: string }) =>
    `Local models need node-llama-cpp ${a.version}, which is not installed (it is optional: ~83 MB). Install it in ${a.root} with:\n  ${a.command}`,
  // A model server that could not be reached (request-errors.ts): the URL, and the likely fix.
  'model.network.refused': (a: { url: string }) => `cannot reach ${a.url}: connection refused; is the server running?`,
  'model.network.not-found': (a: { url: string; host: string; code: string }) =>
    `cannot reach ${a.url}: host ${a.host} not found (${a.code}); check the base URL and the network`,
  'model.network.timed-out': (a: { url: string; code: string }) =>
    `cannot reach ${a.url}: the connection timed out (${a.code})`,
};

const zh: typeof en = {
  'model.lines': en['model.lines'],
  'model.none': () => '尚未配置模型。请设置 RIVERSE_MODEL，例如：',
  'model.none.row': en['model.none.row'],
  'model.none.others': (a) => `  其他提供方：${a.names}`,
  'model.none.tail': () =>
    '或在 riverse.yaml 中写入 `model: openai:gpt-4.1-mini`。只设置了某个 API 密钥时，会使用它所属的提供方。',
  'model.hint.key': (a) => `并设置 ${a.env}`,
  'model.hint.openai': () => '并设置 OPENAI_API_KEY=sk-…（任何兼容 OpenAI 的服务器用 OPENAI_BASE_URL）',
  'model.hint.ollama': () => '并运行 Ollama（不在 127.0.0.1:11434 时设置 OLLAMA_HOST）',
  'model.hint.local': (a) =>
    `（或 local:hf:user/repo/file.gguf）需要 node-llama-cpp，装好后对话也能提供默认模型：${a.command}`,
  'model.unknown-provider': (a) =>
    `“${a.name}”中的模型提供方“${a.prefix}”不存在${a.near === '' ? '' : `（你是想输入“${a.near}”吗？）`}。已知的提供方：${a.names}。`,
  'model.no-model': (a) => `“${a.name}”没有指定模型；请写成 ${a.prefix}:<模型>，例如 ${a.prefix}:${a.example}。`,
  'model.no-model-file': (a) =>
    `“${a.name}”没有指定模型文件；请写成 local:/path/to/model.gguf 或 local:hf:user/repo/file.gguf。`,
  'model.needs-key': (a) => `${a.name} 需要 API 密钥：请设置 ${a.env}（或 riverse.yaml 中的 model_options.api_key）。`,
  'model.strict-tools': (a) =>
    `model_options.strict_tools 只适用于兼容 OpenAI 的提供方；${a.provider} 不支持（请从 riverse.yaml 中删除）。`,
  'model.bad-base-url': (a) => `${a.provider}：基础 URL “${a.url}”不是 URL（应类似 ${a.example}）`,
  'model.gemini-no-model': () => 'gemini：没有指定模型（例如 gemini-2.5-flash）',
  'model.anthropic-max-tokens': (a) => `anthropic：maxTokens 必须是大于 0 的整数，而不是 ${a.value}`,
  'model.local-vision': (a) =>
    `local:${a.name}：model_options.vision 为 true，但 node-llama-cpp 还不支持图片输入，本地模型看不到图片。请删除 model_options.vision（图片将以简短描述的形式交给模型），或用 llama-server --mmproj 运行该模型，并以 llamacpp:… 配合 vision: true 使用。`,
  'model.local-missing': (a) =>
    `本地模型需要 node-llama-cpp ${a.version}，但它尚未安装（可选，约 83 MB）。请在 ${a.root} 中用以下命令安装：\n  ${a.command}`,
  'model.network.refused': (a) => `无法连接 ${a.url}：连接被拒绝；服务器在运行吗？`,
  'model.network.not-found': (a) => `无法连接 ${a.url}：找不到主机 ${a.host}（${a.code}）；请检查 base URL 和网络`,
  'model.network.timed-out': (a) => `无法连接 ${a.url}：连接超时（${a.code}）`,
};

const ja: typeof en = {
  'model.lines': en['model.lines'],
  'model.none': () => 'モデルが設定されていません。RIVERSE_MODEL を設定してください。例：',
  'model.none.row': en['model.none.row'],
  'model.none.others': (a) => `  その他のプロバイダー：${a.names}`,
  'model.none.tail': () =>
    'または riverse.yaml に `model: openai:gpt-4.1-mini` と書きます。API キーだけが設定されていれば、そのプロバイダーが使われます。',
  'model.hint.key': (a) => `${a.env} を設定して`,
  'model.hint.openai': () => 'OPENAI_API_KEY=sk-… を設定して（OpenAI 互換のサーバーなら OPENAI_BASE_URL も）',
  'model.hint.ollama': () => 'Ollama を起動して（127.0.0.1:11434 以外なら OLLAMA_HOST）',
  'model.hint.local': (a) =>
    `（または local:hf:user/repo/file.gguf）node-llama-cpp が必要です。入れるとチャットで既定のモデルも使えます：${a.command}`,
  'model.unknown-provider': (a) =>
    `「${a.name}」のモデルプロバイダー「${a.prefix}」はありません${a.near === '' ? '' : `（「${a.near}」のことですか？）`}。使えるプロバイダー：${a.names}。`,
  'model.no-model': (a) =>
    `「${a.name}」にモデル名がありません。${a.prefix}:<モデル> の形で書いてください（例：${a.prefix}:${a.example}）。`,
  'model.no-model-file': (a) =>
    `「${a.name}」にモデルファイルがありません。local:/path/to/model.gguf または local:hf:user/repo/file.gguf と書いてください。`,
  'model.needs-key': (a) =>
    `${a.name} には API キーが必要です：${a.env} を設定してください（または riverse.yaml の model_options.api_key）。`,
  'model.strict-tools': (a) =>
    `model_options.strict_tools は OpenAI 互換のプロバイダー用です。${a.provider} では使えません（riverse.yaml から削除してください）。`,
  'model.bad-base-url': (a) => `${a.provider}：ベース URL「${a.url}」は URL ではありません（例：${a.example}）`,
  'model.gemini-no-model': () => 'gemini：モデル名がありません（例：gemini-2.5-flash）',
  'model.anthropic-max-tokens': (a) => `anthropic：maxTokens は 1 以上の整数にしてください（${a.value} ではなく）`,
  'model.local-vision': (a) =>
    `local:${a.name}：model_options.vision が true ですが、node-llama-cpp はまだ画像入力に対応していないため、ローカルモデルは画像を見られません。model_options.vision を削除する（画像は短い説明としてモデルに渡ります）か、llama-server --mmproj でモデルを動かし、llamacpp:… と vision: true で使ってください。`,
  'model.local-missing': (a) =>
    `ローカルモデルには node-llama-cpp ${a.version} が必要ですが、インストールされていません（任意、約 83 MB）。${a.root} で次のコマンドでインストールしてください：\n  ${a.command}`,
  'model.network.refused': (a) => `${a.url} に接続できません：接続を拒否されました。サーバーは動いていますか？`,
  'model.network.not-found': (a) =>
    `${a.url} に接続できません：ホスト ${a.host} が見つかりません（${a.code}）。base URL とネットワークを確認してください`,
  'model.network.timed-out': (a) => `${a.url} に接続できません：接続がタイムアウトしました（${a.code}）`,
};

export const MODEL_TEXT: { readonly [L in Language]: typeof en } = { en, zh, ja };
