import type { Language } from '../core/language.ts';
import type { ModelError } from '../models/model-error.ts';

/**
 * How to connect a model, for a person who has none yet (the chat page, the start-up lines of
 * `riverse serve`). The full list of providers is `noModelMessage()`, which the command line prints.
 */
const CONNECT_HINT: Record<Language, string> = {
  en: "No model is connected. Download the default local model from the dashboard's chat page, or set RIVERSE_MODEL (for example openai:gpt-4.1-mini with OPENAI_API_KEY, or ollama:qwen3 with Ollama running) and start the service again.",
  zh: '尚未连接模型。可以在对话页面下载默认的本地模型，或设置 RIVERSE_MODEL（例如 openai:gpt-4.1-mini 并设置 OPENAI_API_KEY，或在运行 Ollama 时使用 ollama:qwen3），然后重新启动服务。',
  ja: 'モデルが接続されていません。チャット画面から既定のローカルモデルをダウンロードするか、RIVERSE_MODEL を設定して（例：openai:gpt-4.1-mini と OPENAI_API_KEY、または Ollama を起動して ollama:qwen3）サービスを起動し直してください。',
};

/** The same, read on the chat page itself: its Download button is right below the words. */
const CONNECT_HINT_HERE: Record<Language, string> = {
  en: 'No model is connected. Download the default local model with the button below, or set RIVERSE_MODEL (for example openai:gpt-4.1-mini with OPENAI_API_KEY, or ollama:qwen3 with Ollama running) and start the service again.',
  zh: '尚未连接模型。可以用下方的按钮下载默认的本地模型，或设置 RIVERSE_MODEL（例如 openai:gpt-4.1-mini 并设置 OPENAI_API_KEY，或在运行 Ollama 时使用 ollama:qwen3），然后重新启动服务。',
  ja: 'モデルが接続されていません。下のボタンで既定のローカルモデルをダウンロードするか、RIVERSE_MODEL を設定して（例：openai:gpt-4.1-mini と OPENAI_API_KEY、または Ollama を起動して ollama:qwen3）サービスを起動し直してください。',
};

/**
 * The hint in `language`; when a model was named but could not be made (a typo of a provider, a
 * missing key), why, first: otherwise a person who set RIVERSE_MODEL is only told to set it.
 * `onChatPage`: worded for the chat page, which shows the hint beside its Download button.
 */
export function connectHint(language: Language, problem: ModelError | undefined, onChatPage = false): string {
  const hint = (onChatPage ? CONNECT_HINT_HERE : CONNECT_HINT)[language];
  return problem === undefined ? hint : `${problem.localized(language)} ${hint}`;
}
