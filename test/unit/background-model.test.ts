/**
 * The background-model gateway's measure of one exchange's learning (llm/background-model.ts learningCostMs), which the
 * lane compares with the user's pauses: an extraction request as it is, plus the working memory update's share per
 * exchange (it covers a stretch of them), from the model's own times as the server reports them.
 */
import { describe, expect, it } from 'vitest';
import { Settings } from '../../shared/contract';
import { createBackgroundModel } from '../../electron/core/llm/background-model';
import type { ModelRequests } from '../../electron/core/llm/llm-provider';
import type { ChatResult } from '../../electron/core/llm/llm.port';
import { createModelLane } from '../../electron/core/llm/model-lane';

/** A server whose every answer took `ms` of model time (prompt and output halves, as Ollama reports them). */
function serverTaking(ms: Record<string, number>): ModelRequests {
  return {
    contextWindow: async () => 8192,
    toolSupport: async () => ({ tools: false }) as never,
    chat: async (request): Promise<ChatResult> => ({
      content: '{}',
      thinking: '',
      doneReason: 'stop',
      model: request.model,
      promptTokens: 100,
      completionTokens: 20,
      totalDurationMs: ms[request.purpose!]!,
      loadDurationMs: 0,
      promptEvalDurationMs: ms[request.purpose!]! / 2,
      evalDurationMs: ms[request.purpose!]! / 2,
    }) as ChatResult,
  };
}

describe('background model: the cost of one exchange’s learning', () => {
  it('is an extraction request plus the working memory update divided by the exchanges it covered', async () => {
    const settings = Settings.parse({});
    const lane = createModelLane({ settings: () => settings, signalFile: null, chatFirst: false });
    const model = createBackgroundModel({ llm: serverTaking({ extract: 4_000, focus: 9_000 }), lane, settings: () => settings });
    const ask = (purpose: 'extract' | 'focus', exchanges?: number) =>
      model.ask({ purpose, messages: [{ role: 'user', content: 'x' }], answerTokens: 100, signal: new AbortController().signal, ...(exchanges ? { exchanges } : {}) });
    expect(model.learningCostMs()).toBeNull();
    await ask('focus', 3);
    expect(model.learningCostMs()).toBeNull(); // no extraction measured yet
    await ask('extract');
    expect(model.learningCostMs()).toBe(4_000 + 9_000 / 3);
    await ask('focus'); // one exchange: 18 s of focus over 4 exchanges
    expect(model.learningCostMs()).toBe(4_000 + 18_000 / 4);
    lane.dispose();
  });
});
