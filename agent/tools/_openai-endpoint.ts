// The OpenAI-compatible endpoint of image_describe and voice_transcribe: tools.<name>.base_url
// (with /v1, as the openai client takes it), api_key and model.
import { toolSection, type AppConfig, type ToolSection } from 'riverse';

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
