import { join } from 'node:path';
import { EmbeddingCache } from './embeddings/embedding-cache.ts';
import { createOpenAIEmbeddings } from './embeddings/openai-embeddings.ts';
import { SemanticIndex } from './embeddings/semantic-index.ts';
import type { RoutingSettings } from './routing-settings.ts';
import { ToolRouter } from './tool-router.ts';

/**
 * The router riverse.yaml asks for: lexical, plus the semantic stage when `routing.embeddings`
 * names a model, its vectors cached under `dataDir/embeddings`.
 */
export function createToolRouter(settings: RoutingSettings | null | undefined, dataDir: string | undefined, onSemanticError?: (error: unknown) => void): ToolRouter {
  const embeddings = settings?.embeddings;
  if (embeddings?.model === undefined) return new ToolRouter();
  const model = createOpenAIEmbeddings({
    baseUrl: embeddings.base_url ?? 'https://api.openai.com/v1',
    model: embeddings.model,
    ...(embeddings.api_key === undefined ? {} : { apiKey: embeddings.api_key }),
    ...(embeddings.timeout_ms === undefined ? {} : { timeoutMs: embeddings.timeout_ms }),
  });
  const cache = new EmbeddingCache(model.id, dataDir === undefined ? undefined : join(dataDir, 'embeddings'));
  return new ToolRouter({ semantic: new SemanticIndex(model, cache), ...(onSemanticError === undefined ? {} : { onSemanticError }) });
}
