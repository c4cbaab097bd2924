/**
 * A bounded retrieval (issue 28, item 6), through the real core on real SQLite and the real adapters talking to the
 * fake model servers (the real protocols):
 * - the prompt's retrieval waits for the question's embedding at most settings.retrieval.timeBudgetMs; a slow
 *   embedding model (the fake embedder held by a gate the test opens, never a timer) gives the keyword matches only,
 *   and "what the model saw" says so;
 * - every chat request carries an output cap (num_predict for Ollama, max_tokens for an OpenAI-compatible server) of
 *   what the context window leaves after its prompt, and "what the model saw" shows the cap the request carried.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type OllamaBody = { messages: Array<{ role: string; content: string }>; options?: { num_ctx?: number; num_predict?: number } };

/** A promise the test resolves when it chooses. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('a bounded retrieval', () => {
  const tempDir = useTempDirs();

  it('a question’s embedding slower than the time budget: keyword results only, and the context says so; in time: both', async () => {
    const slow = gate();
    const embedder = createBagOfWordsEmbedder({ concepts: { espresso: 'coffee', coffee: 'coffee' }, queryGate: () => slow.promise });
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, embedder } });
    const { client, fake } = h;
    const byMeaning = unwrap(await client.call('memory.create', { content: 'Loves espresso' }));
    const byWord = unwrap(await client.call('memory.create', { content: 'Buys coffee beans at the market' }));
    unwrap(await client.call('settings.update', { patch: { retrieval: { timeBudgetMs: 50 } } }));

    // The gate stays shut: the embedding never arrives while this answer is written.
    const late = unwrap(await client.call('chat.send', { text: 'Any coffee tips?' }));
    expect(late.memoriesUsed.map((m) => [m.memoryId, m.reason])).toEqual([[byWord.id, 'keyword']]);
    const system = (fake.requests.filter((q) => q.path === '/api/chat').at(-1)!.body as OllamaBody).messages[0]!.content;
    expect(system).toContain('coffee beans');
    expect(system).not.toContain('espresso');
    expect(unwrap(await client.call('chat.context', { messageId: late.assistantMessage.id }))!.retrieval).toEqual({ semanticTimedOut: true });

    // The model answers in time (the gate open, a budget it cannot miss): meaning and keywords, no note.
    slow.open();
    unwrap(await client.call('settings.update', { patch: { retrieval: { timeBudgetMs: 30_000 } } }));
    const inTime = unwrap(await client.call('chat.send', { text: 'Any coffee tips?' }));
    expect(inTime.memoriesUsed.map((m) => m.memoryId).sort()).toEqual([byMeaning.id, byWord.id].sort());
    expect(unwrap(await client.call('chat.context', { messageId: inTime.assistantMessage.id }))!.retrieval).toEqual({ semanticTimedOut: false });
  });

  it('Ollama: num_predict is what num_ctx leaves after the prompt, smaller in a tool round whose prompt grew; the context shows the cap sent', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, embedder: null } });
    const { client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { memoryAccess: 'tools' } }));
    unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso, a grey tabby who likes boxes' }));
    fake.script({ toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] }, { content: 'Miso.' });
    const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));

    const [first, second] = fake.requests.filter((q) => q.path === '/api/chat').map((q) => (q.body as OllamaBody).options!);
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    for (const options of [first!, second!]) {
      expect(options.num_ctx).toBe(context.budget.contextWindow);
      expect(options.num_predict).toBeGreaterThanOrEqual(context.budget.reply);
      expect(options.num_predict).toBeLessThan(context.budget.contextWindow);
    }
    // The prompt of the second round holds the tool's answer: less room is left for the reply.
    expect(second!.num_predict).toBeLessThan(first!.num_predict!);
    expect(context.replyCap).toBe(second!.num_predict);
  });

  it('an OpenAI-compatible server: max_tokens carries the cap, and the context shows it', async () => {
    const h = await harnesses.openAi(tempDir(), { core: { embedder: null } });
    const { client, fake } = h;
    fake.script({ content: 'Hello.' });
    const r = unwrap(await client.call('chat.send', { text: 'Hi' }));
    const body = fake.requests.find((q) => q.path === '/v1/chat/completions')!.body as { max_tokens?: number };
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(body.max_tokens).toBe(context.replyCap);
    expect(body.max_tokens).toBeGreaterThanOrEqual(context.budget.reply);
    expect(body.max_tokens).toBeLessThan(context.budget.contextWindow);
  });
});
