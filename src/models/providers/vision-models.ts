/**
 * Which of a provider's models take pictures, as the provider documents its model families: a
 * descriptor's table of patterns over the model part of the name, the first that matches saying
 * yes or no; a name no pattern matches is taken as text-only. `model_options.vision` overrides it.
 */
export type VisionTable = readonly (readonly [pattern: RegExp, vision: boolean])[];

/** What the table says of a model; no table, or no row that matches: no. */
export function takesImages(table: VisionTable | undefined, model: string): boolean {
  for (const [pattern, vision] of table ?? []) if (pattern.test(model)) return vision;
  return false;
}

/**
 * The open-weight families with a vision encoder, in the names Ollama (`gemma3:4b`, `qwen2.5vl`,
 * `llama3.2-vision`) and Hugging Face (`Qwen/Qwen2.5-VL-7B-Instruct`, `google/gemma-3-4b-it`) give
 * them: for the servers that run such models (Ollama, vLLM, LM Studio, llama.cpp, Groq).
 */
export const OPEN_WEIGHT_VISION: VisionTable = [
  // Gemma 3's smallest sizes have no vision encoder.
  [/gemma-?3n?[:_-]?(1b|270m)/i, false],
  [
    /llava|moondream|minicpm-?v|pixtral|vision|llama-?4|gemma-?3|qwen[\d.]*-?vl|qvq|internvl|mistral-small-?3\.[12]|smolvlm|idefics|multimodal|[-_]vl\b/i,
    true,
  ],
];
