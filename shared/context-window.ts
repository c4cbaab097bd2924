/**
 * The context window (Ollama's num_ctx) of every request to a model: chat, extraction, summaries, titles. One value
 * per model, because Ollama reloads a model whenever a request asks for another num_ctx; capped at the model's own
 * maximum (electron/core/llm/llm-provider.ts). Its KV cache grows with it: 8192 tokens of a 3B model take well under
 * 1 GB, its full 131072 about 15 GB. Plain data, so the settings contract and the renderer's form share it.
 */
export const CONTEXT_WINDOW_TOKENS = { min: 2048, max: 1_048_576, default: 8192 } as const;
