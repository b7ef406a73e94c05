import type { Language } from '../tools/tool-manifest.ts';
import { createAssistant } from './create-assistant.ts';
import type { GlobalOptions } from './load-tools.ts';
import { printJson } from './format.ts';

/** `riverse ask "…"`: one question, the reply on stdout (`--json`: the whole trace). Exit 1 when the turn failed. */
export async function ask(question: string, options: GlobalOptions & { session?: string; lang?: Language; json?: boolean }): Promise<number> {
  const { assistant, store, tools } = await createAssistant({ ...options, persist: options.session !== undefined, watch: false });
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  try {
    const result = await assistant.turn(question, { signal: controller.signal, ...(options.session === undefined ? {} : { session: options.session }) });
    if (options.json === true) printJson({ model: assistant.model.id, ...result });
    else if (result.stopReason === 'error' || result.stopReason === 'aborted') process.stderr.write(`${result.text}\n`);
    else process.stdout.write(`${result.text}\n`);
    return result.stopReason === 'error' || result.stopReason === 'aborted' ? 1 : 0;
  } finally {
    process.off('SIGINT', cancel);
    store?.close();
    await tools.close();
  }
}
