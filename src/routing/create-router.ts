import { join } from 'node:path';
import { EmbeddingCache } from './embeddings/embedding-cache.ts';
import { EmbeddingError, type EmbeddingModel } from './embeddings/embedding-model.ts';
import { createOpenAIEmbeddings } from './embeddings/openai-embeddings.ts';
import { SemanticIndex } from './embeddings/semantic-index.ts';
import type { RoutingSettings } from './routing-settings.ts';
import { ToolRouter } from './tool-router.ts';

export interface RouterSetup {
  /** Where the embeddings are cached (`dataDir/embeddings`); none: in memory only. */
  dataDir?: string;
  /** Told when the semantic stage fails. */
  onSemanticError?: (error: unknown) => void;
  /** Makes the model for `model: local:/path/to/model.gguf` (node-llama-cpp lives with the model adapters). */
  localModel?: (path: string) => EmbeddingModel;
}

/**
 * The router riverse.yaml asks for: lexical, plus the semantic stage when `routing.embeddings`
 * names a model — at an OpenAI-compatible endpoint, or `local:` a GGUF file — its vectors cached
 * under `dataDir/embeddings`.
 */
export function createToolRouter(settings: RoutingSettings | null | undefined, setup: RouterSetup = {}): ToolRouter {
  const embeddings = settings?.embeddings;
  if (embeddings?.model === undefined) return new ToolRouter();
  const local = embeddings.model.startsWith('local:') ? embeddings.model.slice('local:'.length) : undefined;
  if (local !== undefined && setup.localModel === undefined)
    throw new EmbeddingError(
      `routing.embeddings.model: ${embeddings.model} needs the local model runtime, which this caller does not give`,
    );
  const model =
    local !== undefined
      ? setup.localModel!(local)
      : createOpenAIEmbeddings({
          baseUrl: embeddings.base_url ?? 'https://api.openai.com/v1',
          model: embeddings.model,
          ...(embeddings.api_key === undefined ? {} : { apiKey: embeddings.api_key }),
          ...(embeddings.timeout_ms === undefined ? {} : { timeoutMs: embeddings.timeout_ms }),
        });
  const cache = new EmbeddingCache(
    model.id,
    setup.dataDir === undefined ? undefined : join(setup.dataDir, 'embeddings'),
  );
  return new ToolRouter({
    semantic: new SemanticIndex(model, cache),
    ...(setup.onSemanticError === undefined ? {} : { onSemanticError: setup.onSemanticError }),
  });
}
