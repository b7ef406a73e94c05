// The OpenAI-compatible endpoint of image_describe and voice_transcribe: tools.<name>.base_url
// (with /v1, as the openai client takes it), api_key and model.
import { toolSection, type AppConfig, type LocalizedText, type ToolSection } from 'riverse';

export interface Endpoint {
  base: string;
  key: string;
  model: string;
}

/** The endpoint, or why there is none (for isAvailable()). */
export function endpoint(section: ToolSection, name: string, defaultModel?: string): Endpoint | string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const base = text(section.base_url);
  const key = text(section.api_key);
  const model = text(section.model) || defaultModel || '';
  if (base === '' && key === '')
    return `no OpenAI-compatible API is configured; set tools.${name}.base_url (e.g. http://localhost:11434/v1) or tools.${name}.api_key (for api.openai.com)${defaultModel === undefined ? `, and tools.${name}.model` : ''} in riverse.yaml`;
  if (model === '') return `set tools.${name}.model to the model of ${base || 'api.openai.com'} to use`;
  return { base: (base || 'https://api.openai.com/v1').replace(/\/+$/, ''), key, model };
}

export function configuredEndpoint(config: AppConfig, name: string, defaultModel?: string): Endpoint | string {
  return endpoint(toolSection(config, name), name, defaultModel);
}

/** Why there is no endpoint, in each language (for `unavailable()`); undefined when there is one. */
export function missingEndpoint(config: AppConfig, name: string, defaultModel?: string): LocalizedText | undefined {
  const found = configuredEndpoint(config, name, defaultModel);
  if (typeof found !== 'string') return undefined;
  const section = toolSection(config, name);
  const configured = [section.base_url, section.api_key].some(
    (value) => typeof value === 'string' && value.trim() !== '',
  );
  if (configured) {
    const base =
      typeof section.base_url === 'string' && section.base_url.trim() !== ''
        ? section.base_url.trim()
        : 'api.openai.com';
    return {
      en: found,
      zh: `请将 tools.${name}.model 设置为 ${base} 上要使用的模型`,
      ja: `tools.${name}.model に ${base} で使うモデルを設定してください`,
    };
  }
  const model = defaultModel === undefined ? `，以及 tools.${name}.model` : '';
  const modelJa = defaultModel === undefined ? `と tools.${name}.model ` : '';
  return {
    en: found,
    zh: `尚未配置 OpenAI 兼容的 API；请在 riverse.yaml 中设置 tools.${name}.base_url（例如 http://localhost:11434/v1）或 tools.${name}.api_key（用于 api.openai.com）${model}`,
    ja: `OpenAI 互換の API が設定されていません。riverse.yaml で tools.${name}.base_url（例：http://localhost:11434/v1）または tools.${name}.api_key（api.openai.com 用）${modelJa}を設定してください`,
  };
}

/** The service's own error text, when it sent one in OpenAI's shape. */
export async function serviceError(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return `HTTP ${response.status}: ${message}`;
  } catch {
    // not JSON
  }
  return `HTTP ${response.status} ${response.statusText}${text === '' ? '' : `: ${text.slice(0, 200)}`}`;
}
