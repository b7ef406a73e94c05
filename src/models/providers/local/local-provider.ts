import type { ProviderDescriptor } from '../provider-descriptor.ts';
import { defaultLocalModel } from './local-default-model.ts';
import { createLocalModel } from './local-llama.ts';
import { installCommand } from './local-llama-install.ts';
import { LOCAL_TOOLS } from './local-llama-prompt.ts';
import { ModelError } from '../../model-error.ts';
import { phrase } from '../../model-phrases.ts';

/**
 * A GGUF model run in this process by node-llama-cpp: `local:/path/model.gguf`, or
 * `local:hf:user/repo/file.gguf` downloaded on first use. No server, so no key or base URL; the
 * model_options of the HTTP adapters do not apply to it.
 */
export const LOCAL_PROVIDER: ProviderDescriptor = {
  name: 'local',
  example: '/path/to/model.gguf',
  wires: { local: LOCAL_TOOLS },
  discover: defaultLocalModel,
  // One line, as the others: the same install also lets a chat offer the embedded default model.
  setupHint: () => phrase('model.hint.local', { command: installCommand() }),
  noModelNamed: (name) => phrase('model.no-model-file', { name }),
  create: ({ model, modelsDirectory, vision }) => {
    // node-llama-cpp 3 has no image input yet (decision 029): say so rather than describe pictures to a model set to see them.
    if (vision === true) throw new ModelError('not-configured', phrase('model.local-vision', { name: model }));
    return createLocalModel({ modelPath: model, ...(modelsDirectory === undefined ? {} : { modelsDirectory }) });
  },
};
