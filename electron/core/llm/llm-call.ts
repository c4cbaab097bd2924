/**
 * What every LLM adapter (ollama.llm.ts, openai.llm.ts) does the same way around one HTTP call: the call's own abort
 * controller joined to the caller's signal, the time budgets (first chunk, idle gap, metadata answer), telling "nothing
 * answers at that address" from "the answer broke off", gathering a streamed reply (thinking split from the answer),
 * and the failures that read the same whichever server it is. The adapters keep what differs: the wire format, and
 * what an HTTP error from their server means.
 *
 * Every chat request says what it is for (`purpose`: 'chat' or a background job) in the PURPOSE_HEADER header, never
 * in the body: model servers ignore headers they do not know (Ollama, llama-server, LM Studio), and the tests' fake
 * servers answer by it, so changing a prompt's wording breaks no test about another request.
 */
import { MnemoError, type ErrorCode } from '../../../shared/errors';
import type { ChatRequest, ChatResult, RequestPurpose } from './llm.port';
import { appendDelta, ThinkSplitter, type ThinkDelta } from './think-splitter';

export const DEFAULT_FIRST_CHUNK_TIMEOUT_MS = 120_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_METADATA_TIMEOUT_MS = 15_000;

/** The header a chat request carries its purpose in. */
export const PURPOSE_HEADER = 'X-Mnemo-Purpose';

export function purposeHeaders(purpose: RequestPurpose | undefined): Record<string, string> {
  return purpose === undefined ? {} : { [PURPOSE_HEADER]: purpose };
}

export type Timeout = 'first-chunk' | 'idle' | 'metadata' | null;

/** Per-call state the fetch and the error mapping share. */
export interface LlmCall {
  /** Set once the server sent response headers: failures after that are a broken reply, not an unreachable server. */
  responded: boolean;
  status: number | null;
  timedOut: Timeout;
  /** Aborts this call only. */
  controller: AbortController;
  callerSignal: AbortSignal | undefined;
  /** The caller's signal and this call's controller together: what the fetch listens to. */
  signal: AbortSignal;
}

/** How failures name the server: "Ollama" at its host, or "The model server" at its base URL. */
export interface ServerLabel {
  name: string;
  host: string;
  unreachable: Extract<ErrorCode, 'OLLAMA_UNREACHABLE' | 'LLM_UNREACHABLE'>;
}

export function openLlmCall(callerSignal: AbortSignal | undefined): LlmCall {
  const controller = new AbortController();
  const signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
  return { responded: false, status: null, timedOut: null, controller, callerSignal, signal };
}

export function startTimer(call: LlmCall, kind: Exclude<Timeout, null>, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(() => {
    call.timedOut = kind;
    call.controller.abort();
  }, ms);
}

/** Network failures that mean "nothing is answering at that address". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A request that never got an answer: a system error code anywhere in the cause chain, or undici's "fetch failed". */
export function neverAnswered(err: unknown): boolean {
  return hasCode(err, UNREACHABLE_CODES) || (err instanceof TypeError && err.message === 'fetch failed');
}

/** Looks through `cause` chains and AggregateError members (several addresses tried) for a system error code. */
function hasCode(err: unknown, codes: ReadonlySet<string>, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 5) return false;
  const { code, cause, errors } = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && codes.has(code)) return true;
  if (Array.isArray(errors) && errors.some((e) => hasCode(e, codes, depth + 1))) return true;
  return hasCode(cause, codes, depth + 1);
}

export function abortedError(server: ServerLabel, cause?: unknown): MnemoError {
  return new MnemoError('ABORTED', `The request to ${server.name} was cancelled.`, cause === undefined ? {} : { cause });
}

/**
 * The failures that read the same for every server: the caller stopped it, or a time budget ran out. Null when the
 * failure is something else (an HTTP error, an unreachable server, a broken stream): the adapter maps those.
 */
export function stoppedOrTimedOut(err: unknown, call: LlmCall, server: ServerLabel, context: { model?: string; timeoutMs?: number }): MnemoError | null {
  if (err instanceof MnemoError) return err;
  if (call.callerSignal?.aborted) return abortedError(server, err);
  const { model, timeoutMs } = context;
  const seconds = timeoutMs === undefined ? '' : `${Math.round(timeoutMs / 100) / 10} s`;
  if (call.timedOut === 'first-chunk') {
    return new MnemoError(
      'MODEL_LOAD_TIMEOUT',
      `Model "${model}" did not start answering within ${seconds}. It may still be loading: try again, raise the model load timeout in Settings, or choose a smaller model.`,
      { details: { model, timeoutMs }, cause: err },
    );
  }
  if (call.timedOut === 'idle') {
    return new MnemoError('LLM_STREAM_ERROR', `${server.name} stopped sending the reply for ${seconds}.`, { details: { model, timeoutMs }, cause: err });
  }
  if (call.timedOut === 'metadata') {
    return new MnemoError(server.unreachable, `${server.name} at ${server.host} did not answer within ${seconds}. Is it running and responsive?`, {
      details: { host: server.host },
      cause: err,
    });
  }
  return null;
}

/**
 * Gathers a streamed reply: splits inline `<think>` blocks from the answer, adds reasoning the server sends apart, and
 * hands each non-empty piece to the caller's onChunk. An exception from onChunk is the caller's own: it is wrapped so
 * the adapter can give it back unchanged instead of mapping it as a server failure.
 */
export class ReplyCollector {
  content = '';
  thinking = '';
  private readonly splitter = new ThinkSplitter();

  constructor(private readonly onChunk: ChatRequest['onChunk']) {}

  /** `text` may hold inline <think> blocks; `reasoning` is thinking the server sent in its own field. */
  push(text: string, reasoning = ''): void {
    const split = this.splitter.push(text);
    this.emit({ ...split, thinking: reasoning + split.thinking });
  }

  finish(): void {
    this.emit(this.splitter.flush());
  }

  /** A caller that was shown part of the reply before stopping it keeps that part; one shown nothing sees ABORTED. */
  keepsPartialAfterAbort(signal: AbortSignal | undefined): boolean {
    return Boolean(signal?.aborted && this.onChunk && (this.content || this.thinking));
  }

  private emit(delta: ThinkDelta): void {
    // The result follows the think rule whole; chunks already shown stay shown (think-splitter.ts).
    ({ content: this.content, thinking: this.thinking } = appendDelta(this, delta));
    if ((!delta.content && !delta.thinking) || !this.onChunk) return;
    try {
      this.onChunk({ content: delta.content, thinking: delta.thinking });
    } catch (error) {
      throw new CallerCallbackError(error);
    }
  }
}

export class CallerCallbackError extends Error {
  constructor(readonly error: unknown) {
    super('onChunk threw');
  }
}

/** A reply stopped by the caller after part of it was shown: what was shown, marked 'aborted'. */
export function abortedResult(model: string, reply: ReplyCollector): ChatResult {
  return {
    content: reply.content,
    thinking: reply.thinking,
    doneReason: 'aborted',
    model,
    promptTokens: null,
    completionTokens: null,
    totalDurationMs: null,
    loadDurationMs: null,
    promptEvalDurationMs: null,
    evalDurationMs: null,
  };
}

export function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** For logs: the error's class and message, and its cause's message (never a request body). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.name}: ${err.message}${cause}`;
}
