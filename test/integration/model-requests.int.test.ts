/**
 * What every request to Ollama carries, seen from the fake's side of the wire: one num_ctx per model whoever asks
 * (so a model shared by chat and background work is loaded once), `think: false` for background work only where the
 * model can think, bounded titles and summaries.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { TITLE_MAX_COLUMNS, TITLE_MAX_TOKENS, columnsOf } from '../../electron/core/chat/title.job';
import { SUMMARY_MAX_TOKENS } from '../../electron/core/chat/summary.job';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import type { RequestPurpose } from '../support/request-kind';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type Body = { purpose: RequestPurpose | null; model: string; options?: { num_ctx?: number; num_predict?: number }; think?: unknown; format?: unknown; messages: Array<{ role: string; content: string }> };

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const isTitle = (r: FakeInferenceRequest) => r.purpose === 'title';
const isSummary = (r: FakeInferenceRequest) => r.purpose === 'summary';
const kindOf = (body: Body) => (body.purpose === 'extract' ? 'extraction' : body.purpose);
const chatBodies = (fake: FakeOllama) => fake.requests.filter((r) => r.path === '/api/chat').map((r) => ({ ...(r.body as Omit<Body, 'purpose'>), purpose: r.purpose }));

/** Background answers that are valid (no retries, so every request is one the product chose to send). */
function answerEverything(fake: FakeOllama, title = 'Garden plans'): void {
  fake.setDefaultReply((req) => {
    if (isExtraction(req)) return { content: '{"memories": []}' };
    if (req.purpose === 'focus') return { content: '{"focus": "Planning the garden", "tasks": []}' };
    if (isTitle(req)) return { content: title };
    if (isSummary(req)) return { content: 'The user plans a vegetable garden.' };
    return { content: 'That sounds like a fine plan for the garden this year.' };
  });
}

describe('requests a real Ollama can serve', () => {
  const tempDir = useTempDirs();

  it('chat and extraction alternating on one model over 20 exchanges: every request carries the same num_ctx, and the model is loaded once', { timeout: 120_000 }, async () => {
    // llama3.2's trained context, which chat used to send as num_ctx (a 15 GB KV cache on a real Ollama).
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 131_072 } });
    const { core, client, fake } = h;
    answerEverything(fake);
    const thread = unwrap(await client.call('thread.create', {}));
    for (let i = 0; i < 20; i++) {
      unwrap(await client.call('chat.send', { threadId: thread.id, text: `Exchange ${i}: I want to plant tomatoes and basil in the garden this spring.` }));
      await core.queue.waitForIdle();
    }

    const bodies = chatBodies(fake);
    const kinds = bodies.map(kindOf);
    expect(kinds.filter((k) => k === 'chat')).toHaveLength(20);
    expect(kinds.filter((k) => k === 'extraction')).toHaveLength(20);
    expect(kinds).toContain('summary');
    expect(kinds).toContain('title');
    // Chat and background really alternated on the one model: an extraction between every two answers.
    expect(bodies.every((b) => b.model === 'llama3.2')).toBe(true);
    const chats = kinds.flatMap((k, i) => (k === 'chat' ? [i] : []));
    for (const [a, b] of chats.slice(1).map((b, i) => [chats[i]!, b])) expect(kinds.slice(a, b)).toContain('extraction');
    expect(bodies.map((b) => b.options?.num_ctx)).toEqual(bodies.map(() => 8192));
    expect(fake.loads).toEqual([{ model: 'llama3.2:latest', numCtx: 8192, reload: false }]);
    // Ollama's own report: only the first answer waited for a load.
    const replies = unwrap(await client.call('thread.messages', { threadId: thread.id, limit: 100 })).messages.filter((m) => m.role === 'assistant');
    expect(replies.map((m) => m.loadDurationMs)).toEqual([200, ...Array(19).fill(0)]);
  });

  it('the window is the setting capped at the model maximum, the prompt fits it, and a changed setting applies to every request', { timeout: 60_000 }, async () => {
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 32_768 } });
    const { core, client, fake } = h;
    answerEverything(fake);
    const long = (i: number) => `Message ${i}: ${'the garden needs careful planning for every season '.repeat(30).trim()}`;
    const thread = unwrap(await client.call('thread.create', {}));
    unwrap(await client.call('chat.send', { threadId: thread.id, text: long(0) }));
    await core.queue.waitForIdle();
    expect(chatBodies(fake).map((b) => b.options?.num_ctx)).toEqual(chatBodies(fake).map(() => 8192));

    const refused = await client.call('settings.update', { patch: { contextWindowTokens: 1000 } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: 'patch.contextWindowTokens', message: 'Invalid request at "patch.contextWindowTokens": The context window must be at least 2048 tokens.' } });
    expect(await client.call('settings.update', { patch: { contextWindowTokens: 4096.5 } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    unwrap(await client.call('settings.update', { patch: { contextWindowTokens: 2048 } }));
    const from = fake.requests.length;
    for (let i = 1; i <= 5; i++) {
      unwrap(await client.call('chat.send', { threadId: thread.id, text: long(i) }));
      await core.queue.waitForIdle();
    }
    const after = fake.requests.slice(from).filter((r) => r.path === '/api/chat').map((r) => ({ ...(r.body as Omit<Body, 'purpose'>), purpose: r.purpose }));
    expect(after.map((b) => b.options?.num_ctx)).toEqual(after.map(() => 2048));
    // One reload for the new setting, none after.
    expect(fake.loads.map((l) => [l.numCtx, l.reload])).toEqual([
      [8192, false],
      [2048, true],
    ]);
    // The budget follows the window: the last prompt leaves the reply its share, so old messages stayed out.
    const last = after.filter((b) => kindOf(b) === 'chat').at(-1)!;
    const promptTokens = last.messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
    expect(promptTokens).toBeLessThanOrEqual(2048 * 0.8);
    expect(last.messages.some((m) => m.content === long(0))).toBe(false);
    expect(last.messages.at(-1)!.content).toBe(long(5));
  });

  it('an extraction request fits the window it carries, with its answer reserved as num_predict, for a long Chinese message', { timeout: 60_000 }, async () => {
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 32_768 } });
    const { core, client, fake } = h;
    answerEverything(fake);
    unwrap(await client.call('settings.update', { patch: { contextWindowTokens: 2048 } }));
    // About a token per character: 3,000 characters are more than the whole window.
    const text = `我住在上海，在一家机器人公司工作。${'周末我喜欢去公园跑步，然后和朋友一起吃火锅。'.repeat(140)}最后：我养了一只叫豆豆的橘猫。`;
    unwrap(await client.call('chat.send', { text }));
    await core.queue.waitForIdle();
    const extraction = chatBodies(fake).find((b) => kindOf(b) === 'extraction')!;
    const numPredict = extraction.options!.num_predict!;
    expect(extraction.options?.num_ctx).toBe(2048);
    expect(numPredict).toBeGreaterThanOrEqual(256);
    const promptTokens = extraction.messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
    expect(promptTokens + numPredict).toBeLessThanOrEqual(2048);
    // The instructions survive whole and the user's words keep both ends.
    expect(extraction.messages[0]!.role).toBe('system');
    expect(extraction.messages[1]!.content).toContain('我住在上海');
    expect(extraction.messages[1]!.content).toContain('我养了一只叫豆豆的橘猫');
  });

  it('a model above the setting is never asked for more than its own maximum', async () => {
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 4096 }, core: { startQueue: false } });
    unwrap(await h.client.call('chat.send', { text: 'hello there, how are you today?' }));
    expect(chatBodies(h.fake).map((b) => b.options?.num_ctx)).toEqual([4096]);
  });

  it('background requests send think:false to a model that can think, and no think field to one that cannot', { timeout: 60_000 }, async () => {
    const h = await harnesses.ollama(tempDir());
    const { core, client, fake } = h;
    fake.setDefaultReply((req) => {
      // A thinking model that is not told otherwise reasons first; think:false keeps that out (the fake drops it).
      const thinking = 'Let me think about what to answer.';
      if (isExtraction(req)) return { content: '{"memories": []}', thinking };
      if (req.purpose === 'focus') return { content: '{"focus": "Planning the garden", "tasks": []}', thinking };
      if (isTitle(req)) return { content: 'Garden plans', thinking };
      return { content: 'A fine plan for the garden this spring, I think.', thinking };
    });
    unwrap(await client.call('settings.update', { patch: { backgroundModel: 'qwen3:4b' } }));
    const first = unwrap(await client.call('chat.send', { text: 'I want to plant tomatoes in the garden this spring.' }));
    await core.queue.waitForIdle();
    unwrap(await client.call('settings.update', { patch: { backgroundModel: 'llama3.2' } }));
    unwrap(await client.call('chat.send', { threadId: first.threadId, text: 'And basil next to the tomatoes, is that wise?' }));
    await core.queue.waitForIdle();

    const bodies = chatBodies(fake);
    const background = bodies.filter((b) => kindOf(b) !== 'chat');
    expect(background.filter((b) => b.model === 'qwen3:4b').map((b) => `${kindOf(b)} think:${String(b.think)}`).sort()).toEqual(['extraction think:false', 'focus think:false', 'title think:false']);
    const withoutThinking = bodies.filter((b) => b.model === 'llama3.2');
    expect(withoutThinking.map(kindOf)).toEqual(['chat', 'chat', 'extraction', 'focus']);
    expect(withoutThinking.every((b) => !('think' in b))).toBe(true);
    // The thread's title came without the model's reasoning.
    expect(unwrap(await client.call('thread.get', { threadId: first.threadId })).title).toBe('Garden plans');
  });

  it('the fake refuses think:true to a model without the capability, as Ollama does', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    const llm = createOllamaLlm({ host: h.fake.url });
    await expect(llm.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], think: true })).rejects.toMatchObject({
      code: 'LLM_HTTP_ERROR',
      message: expect.stringContaining('does not support thinking'),
    });
    await expect(llm.chat({ model: 'qwen3:4b', messages: [{ role: 'user', content: 'hi' }], think: true })).resolves.toMatchObject({ doneReason: 'stop' });
  });

  it('titles and summaries carry num_predict limits, and a long title is stored cut at a word', { timeout: 60_000 }, async () => {
    const h = await harnesses.ollama(tempDir());
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 2, minNewTokens: 100_000 } } }));
    const rambling = 'Planning a vegetable garden with tomatoes basil and peppers for the coming spring and summer seasons';
    answerEverything(fake, rambling);
    const sent = unwrap(await client.call('chat.send', { text: 'I want to plant tomatoes in the garden this spring.' }));
    await core.queue.waitForIdle();

    const bodies = chatBodies(fake);
    expect(bodies.filter((b) => kindOf(b) === 'title').map((b) => b.options?.num_predict)).toEqual([TITLE_MAX_TOKENS]);
    expect(bodies.filter((b) => kindOf(b) === 'summary').map((b) => b.options?.num_predict)).toEqual([SUMMARY_MAX_TOKENS]);
    const title = unwrap(await client.call('thread.get', { threadId: sent.threadId })).title;
    expect(columnsOf(title)).toBeLessThanOrEqual(TITLE_MAX_COLUMNS);
    expect(title.endsWith('…')).toBe(true);
    // Whole words only: what precedes the ellipsis is a prefix of the answer ending where a word ends.
    const kept = title.slice(0, -1);
    expect(rambling.startsWith(kept)).toBe(true);
    expect(rambling[kept.length]).toBe(' ');
  });
});
