/**
 * The LLM port: what the core needs from a local model server. Two adapters implement it: Ollama's own API
 * (ollama.llm.ts) and the OpenAI-compatible API of LM Studio, llama-server, vLLM and others (openai.llm.ts); tests
 * point the same adapters at fake servers on loopback (fakes only at the process edge).
 *
 * Failures are thrown as MnemoError with one of: OLLAMA_UNREACHABLE or LLM_UNREACHABLE (details.host),
 * MODEL_NOT_FOUND (details.model), MODEL_LOAD_TIMEOUT, LLM_STREAM_ERROR, LLM_HTTP_ERROR (details.status),
 * UNAUTHORIZED (the server refused the API key), ABORTED.
 * A reply cut by the context length is NOT an error: it resolves with doneReason 'length'.
 */
import type { ModelUsage } from '../../../shared/contract';

/** What a request to the model is for: the user's chat, or one background job (queue.usage's purposes). */
export type RequestPurpose = 'chat' | ModelUsage['purposes'][number]['purpose'];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant turn that asked for tools, sent back with the results that answer it. */
  toolCalls?: ToolCall[];
  /** A 'tool' message: the tool it answers (Ollama's tool_name) and the call's id when the server gave one (OpenAI's tool_call_id). */
  toolName?: string;
  toolCallId?: string;
}

/** A function the model may call (Ollama and OpenAI-compatible servers both take this shape as a JSON schema). */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** One call the model asked for. */
export interface ToolCall {
  /** The server's id for the call (OpenAI-compatible servers); null when it gives none (Ollama). */
  id: string | null;
  name: string;
  /**
   * The arguments as the server sent them: an object from Ollama, a JSON string from OpenAI-compatible servers, and
   * anything at all from a confused model. Parsed and checked by whoever runs the tool (chat/memory-tools.ts).
   */
  arguments: unknown;
}

export interface ChatChunk {
  /** Answer text added by this chunk (thinking removed). */
  content: string;
  /** Reasoning text added by this chunk (from the `thinking` field or from `<think>` blocks). */
  thinking: string;
}

export interface ChatResult {
  /**
   * The whole answer and reasoning by the think rule (think-splitter.ts): the chunks joined, except that when the
   * reply's first tag is a `</think>` the answer streamed before it is reasoning here.
   */
  content: string;
  thinking: string;
  /** 'stop', 'length', or whatever the server reported; 'aborted' when the caller's signal stopped it. */
  doneReason: string;
  model: string;
  promptTokens: number | null;
  completionTokens: number | null;
  totalDurationMs: number | null;
  loadDurationMs: number | null;
  /** Time spent reading the prompt (Ollama's prompt_eval_duration, llama-server's timings.prompt_ms); null when not said. */
  promptEvalDurationMs: number | null;
  evalDurationMs: number | null;
  /** Tools the model asked to run instead of (or before) answering; absent or empty: none. */
  toolCalls?: ToolCall[];
}

export interface ChatRequest {
  model: string;
  /** Sent as a header only, never in the body (llm-call.ts `purposeHeaders`). */
  purpose?: RequestPurpose;
  messages: ChatMessage[];
  /** A JSON schema the answer must follow (structured outputs), or 'json' for any JSON object. */
  format?: Record<string, unknown> | 'json';
  /**
   * Model options, named as Ollama names them. Services never set num_ctx themselves: the LLM provider does
   * (llm-provider.ts). An OpenAI-compatible server has no num_ctx (its context is fixed when it loads the model).
   */
  options?: { num_ctx?: number; num_predict?: number; temperature?: number; seed?: number };
  /** Ollama's `think` field. Sent only when set; a model without the "thinking" capability refuses `think: true`. */
  think?: boolean;
  /** Functions the model may call; the reply then may carry toolCalls. Only for a model that supports tools. */
  tools?: ToolDefinition[];
  /** Stops the request; the promise then rejects with ABORTED unless partial output was streamed (see onChunk). */
  signal?: AbortSignal;
  onChunk?: (chunk: ChatChunk) => void;
  /** Time allowed until the first chunk arrives (model load included). Default 120 s. -> MODEL_LOAD_TIMEOUT */
  firstChunkTimeoutMs?: number;
  /** Time allowed between two chunks once streaming. Default 60 s. -> LLM_STREAM_ERROR */
  idleTimeoutMs?: number;
}

export interface ModelInfo {
  name: string;
  sizeBytes: number;
  family: string | null;
  parameterSize: string | null;
  modifiedAt: string | null;
}

export interface ModelDetails {
  name: string;
  /** The most context the server can give this model (Ollama: model_info "<arch>.context_length"); null when it does not say. */
  contextLength: number | null;
  /** Ollama's capabilities list, e.g. ['completion', 'tools', 'thinking', 'embedding']; [] when the server does not say. */
  capabilities: string[];
}

export interface PullProgress {
  status: string;
  completedBytes: number | null;
  totalBytes: number | null;
  /** 0..100 when known. */
  percent: number | null;
}

export interface LlmPort {
  /** Which API the server speaks: Ollama's, or the OpenAI-compatible one. Model names are spelled after it. */
  readonly api: 'ollama' | 'openai';
  /** The base URL this port talks to, e.g. http://127.0.0.1:11434 (shown to the user in errors). */
  readonly host: string;
  version(signal?: AbortSignal): Promise<string>;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  showModel(name: string, signal?: AbortSignal): Promise<ModelDetails>;
  /** Streams when onChunk is given; always resolves with the whole reply. */
  chat(request: ChatRequest): Promise<ChatResult>;
  pull(name: string, onProgress: (p: PullProgress) => void, signal?: AbortSignal): Promise<void>;
  embed(model: string, input: string[], signal?: AbortSignal): Promise<number[][]>;
}
