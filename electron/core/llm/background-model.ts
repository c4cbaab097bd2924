/**
 * The gateway for background model work: every job that asks the model (extract, focus, summary, title, episode,
 * profile, consolidate) asks here, so each is read, prompt, ask, parse, commit, and what they share lives once:
 * - the lane (model-lane.ts): a request waits while the chat needs the model and is stopped when a chat begins
 *   (PREEMPTED: the queue gives the job back with its attempt);
 * - the request: the background model, temperature 0, reasoning off, the job's output cap (num_predict), the model
 *   load timeout, and a time limit derived from the server's measured speed, so no request holds the model for
 *   minutes whatever the model does (a small model can loop without stopping);
 * - the answer: a model that never closed `<think>` put its answer in the reasoning; it is handed back marked so;
 * - the count: prompt and output tokens and model time per purpose, and the measured speed (queue.usage).
 * Prompts are the jobs' own (each says what its data is); the fence they put user and model text in is
 * text/data-fence.ts's.
 */
import type { ModelUsage, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { estimateTokens } from '../text/token-estimate';
import type { ModelRequests } from './llm-provider';
import type { ChatMessage, ChatRequest, ChatResult } from './llm.port';
import type { ModelLane } from './model-lane';

export type BackgroundPurpose = ModelUsage['purposes'][number]['purpose'];
export const BACKGROUND_PURPOSES: readonly BackgroundPurpose[] = ['extract', 'focus', 'summary', 'title', 'episode', 'profile', 'consolidate'];

export interface BackgroundQuestion {
  purpose: BackgroundPurpose;
  messages: ChatMessage[];
  /** Structured output: a JSON schema, or 'json'. */
  format?: ChatRequest['format'];
  /** The output cap (num_predict): what the purpose really needs. */
  answerTokens: number;
  temperature?: number;
  /** How many exchanges the request learns from, for the cost of one exchange's learning (default 1). */
  exchanges?: number;
  signal: AbortSignal;
}

export interface BackgroundAnswer {
  /** The answer; when the model put everything inside an unclosed `<think>`, that reasoning behind a `<think>` tag. */
  text: string;
  result: ChatResult;
}

export interface BackgroundModel {
  /** The background model's context window (the prompt room every job sizes its prompt by). */
  contextWindow(): Promise<number>;
  ask(question: BackgroundQuestion): Promise<BackgroundAnswer>;
  usage(): ModelUsage;
  /**
   * The model time one exchange's learning takes, as measured: an extraction request (a batch counts as one request,
   * so batching makes it look dearer, never cheaper) plus a working memory update's share per exchange (it waits for a
   * stretch of exchanges at any speed, so a request per exchange would overstate it). Null until an extraction has
   * been measured.
   */
  learningCostMs(): number | null;
}

/** Before the first measurement: half a CPU laptop's speed, so the first limits are generous. */
const ASSUMED_SPEED = { promptPerSecond: 30, outputPerSecond: 5 };
/** A request may take this many times what the measured speed predicts, plus the slack, before it is stopped. */
const TIME_LIMIT_FACTOR = 3;
const TIME_LIMIT_SLACK_MS = 20_000;
/** Speeds are a moving average: one slow request (the model loading, the machine busy) moves them a fifth of the way. */
const SPEED_WEIGHT = 0.2;

export function createBackgroundModel(deps: { llm: ModelRequests; lane: ModelLane; settings: () => Settings; now?: () => number }): BackgroundModel {
  const now = deps.now ?? Date.now;
  const counts = new Map<BackgroundPurpose, ModelUsage['purposes'][number]>();
  /** Exchanges the answered requests of a purpose learned from. */
  const exchangesOf = new Map<BackgroundPurpose, number>();
  let speed: ModelUsage['speed'] = null;

  function count(purpose: BackgroundPurpose): ModelUsage['purposes'][number] {
    let entry = counts.get(purpose);
    if (!entry) {
      entry = { purpose, requests: 0, promptTokens: 0, outputTokens: 0, modelMs: 0, preempted: 0 };
      counts.set(purpose, entry);
    }
    return entry;
  }

  function observe(result: ChatResult): void {
    const { promptTokens, completionTokens, promptEvalDurationMs: promptMs, evalDurationMs } = result;
    if (promptTokens === null || completionTokens === null || promptMs === null || evalDurationMs === null) return;
    if (promptMs <= 0 || evalDurationMs <= 0 || promptTokens < 16 || completionTokens < 4) return;
    const measured = { promptPerSecond: (promptTokens * 1000) / promptMs, outputPerSecond: (completionTokens * 1000) / evalDurationMs };
    speed = speed
      ? {
          promptPerSecond: speed.promptPerSecond + SPEED_WEIGHT * (measured.promptPerSecond - speed.promptPerSecond),
          outputPerSecond: speed.outputPerSecond + SPEED_WEIGHT * (measured.outputPerSecond - speed.outputPerSecond),
        }
      : measured;
  }

  /** What a request may take once the model started on it: its prompt and its whole output cap at the measured speed. */
  function timeLimitMs(promptTokens: number, answerTokens: number): number {
    const { promptPerSecond, outputPerSecond } = speed ?? ASSUMED_SPEED;
    const expected = (promptTokens / promptPerSecond + answerTokens / outputPerSecond) * 1000;
    return Math.round(expected * TIME_LIMIT_FACTOR + TIME_LIMIT_SLACK_MS);
  }

  /**
   * How long the request should hold the model, for the lane's "does it fit in this pause": its prompt, and as much
   * output as this purpose has written on average (a quarter of the cap before it has answered once). Unknown (no
   * fitting) until the server's speed has been measured.
   */
  function expectedMs(purpose: BackgroundPurpose, promptTokens: number, answerTokens: number): number | undefined {
    if (!speed) return undefined;
    const entry = count(purpose);
    const output = entry.requests > 0 ? Math.min(answerTokens, entry.outputTokens / entry.requests) : answerTokens / 4;
    return (promptTokens / speed.promptPerSecond + output / speed.outputPerSecond) * 1000;
  }

  return {
    contextWindow: () => deps.llm.contextWindow(deps.settings().backgroundModel),
    async ask({ purpose, messages, format, answerTokens, temperature, exchanges, signal }) {
      const settings = deps.settings();
      const entry = count(purpose);
      const promptEstimate = messages.reduce((n, m) => n + estimateTokens(m.content), 0);
      try {
        const result = await deps.lane.runBackground(signal, async (laneSignal) => {
          const loadMs = settings.modelLoadTimeoutSeconds * 1000;
          const limitMs = timeLimitMs(promptEstimate, answerTokens) + loadMs;
          const limit = new AbortController();
          const timer = setTimeout(() => limit.abort(), limitMs);
          const started = now();
          try {
            const answer = await deps.llm.chat({
              model: settings.backgroundModel,
              purpose,
              messages,
              ...(format !== undefined ? { format } : {}),
              options: { temperature: temperature ?? 0, num_predict: answerTokens },
              // Reasoning would come before the answer and cost a small model most of its time; answering directly is enough.
              reasoning: 'off',
              firstChunkTimeoutMs: loadMs,
              signal: AbortSignal.any([laneSignal, limit.signal]),
            });
            // The model's own time when the server says it (its total also counts the wait for a free slot).
            entry.modelMs += answer.promptEvalDurationMs !== null && answer.evalDurationMs !== null ? (answer.loadDurationMs ?? 0) + answer.promptEvalDurationMs + answer.evalDurationMs : now() - started;
            return answer;
          } catch (e) {
            entry.modelMs += now() - started;
            if (limit.signal.aborted && !laneSignal.aborted) {
              throw new MnemoError(
                'LLM_STREAM_ERROR',
                `The background model took longer than ${Math.round(limitMs / 1000)} s for one ${purpose} request and was stopped; it will be tried again later.`,
                { details: { purpose, limitMs }, cause: e },
              );
            }
            throw e;
          } finally {
            clearTimeout(timer);
          }
        }, expectedMs(purpose, promptEstimate, answerTokens));
        entry.requests++;
        exchangesOf.set(purpose, (exchangesOf.get(purpose) ?? 0) + Math.max(1, exchanges ?? 1));
        entry.promptTokens += result.promptTokens ?? promptEstimate;
        entry.outputTokens += result.completionTokens ?? estimateTokens(result.content + result.thinking);
        observe(result);
        // A model that never closed <think> put its answer inside it; the adapter then reports everything as thinking.
        const text = result.content.trim() === '' && result.thinking.trim() !== '' ? `<think>${result.thinking}` : result.content;
        return { text, result };
      } catch (e) {
        if (e instanceof MnemoError && e.code === 'PREEMPTED') entry.preempted++;
        throw e;
      }
    },
    usage: () => ({ purposes: BACKGROUND_PURPOSES.map((p) => ({ ...count(p) })), speed }),
    learningCostMs() {
      const extract = count('extract');
      if (extract.requests === 0) return null;
      const focus = count('focus');
      return extract.modelMs / extract.requests + (focus.requests > 0 ? focus.modelMs / exchangesOf.get('focus')! : 0);
    },
  };
}
