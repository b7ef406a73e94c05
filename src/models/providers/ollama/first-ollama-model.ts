import { ollamaHost } from './ollama-host.ts';

/** The first model an Ollama server at OLLAMA_HOST has pulled, or undefined when none answers quickly. */
export async function firstOllamaModel(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const response = await fetch(`${ollamaHost(env.OLLAMA_HOST)}/api/tags`, { signal: AbortSignal.timeout(500) });
    if (!response.ok) return undefined;
    const { models } = (await response.json()) as { models?: Array<{ name?: string }> };
    return models?.find((model) => typeof model.name === 'string')?.name;
  } catch {
    return undefined;
  }
}
