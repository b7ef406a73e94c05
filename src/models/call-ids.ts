/** Makes the ids of tool calls a server sends without one (Ollama, llama.cpp, Gemini, a local model). */
export type CallIdSource = () => string;

/**
 * `call_1_k3f9`, `call_2_k3f9`, …: numbered in order, with a tag so that ids made after a restart
 * do not repeat those already stored in a conversation.
 */
export function callIdSource(): CallIdSource {
  const tag = Math.random().toString(36).slice(2, 6);
  let count = 0;
  return () => `call_${++count}_${tag}`;
}
