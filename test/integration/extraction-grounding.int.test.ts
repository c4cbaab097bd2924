/**
 * What a small model really writes, through the real extraction path: chat.send, the queue, the real Ollama adapter
 * against the fake Ollama, the parser, the job's commit, SQLite, the review inbox. A candidate phrased in the third
 * person or reworded is learned; one that slips in a city the user did not name is not, though its quote is true;
 * English content drawn from a Chinese message waits in the review inbox with its reason, whatever the memory mode,
 * and the user can put it into their language when approving.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const fact = (content: string, evidence: string) => ({ content, category: 'knowledge', importance: 0.7, confidence: 0.9, validity: 'permanent', evidence });

/** A core whose background model answers every extraction with `memories`. */
async function setup(tempDir: () => string, memories: Array<ReturnType<typeof fact>>) {
  const h = await harnesses.ollama(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
  h.fake.setDefaultReply((req) => {
    if (isExtraction(req)) return { content: JSON.stringify({ memories }) };
    if (req.purpose === 'title') return { content: 'A title' };
    return { content: 'That is good to know, thank you for telling me about it!' };
  });
  const events: EventMessage[] = [];
  h.core.subscribe((m) => events.push(m));
  return { ...h, events };
}

describe('learning from what small models write', () => {
  const tempDir = useTempDirs();

  it('learns a third-person answer; refuses a city the user did not name, though its quote is true', async () => {
    const { core, client, events } = await setup(tempDir, [
      fact('Lives in Porto', 'The user lives in Porto.'),
      fact('Lives in Lisbon', 'I moved to Porto last year for work'),
    ]);
    unwrap(await client.call('chat.send', { text: 'I moved to Porto last year for work, and the weather is so much better here.' }));
    await core.queue.runUntilIdle();
    const all = unwrap(await client.call('memory.list', { statuses: ['active', 'review'] })).items;
    expect(all.map((m) => [m.content, m.status, m.evidence])).toEqual([['Lives in Porto', 'active', 'The user lives in Porto.']]);
    expect(events.find((e) => e.event === 'extraction.completed')?.payload).toMatchObject({ dropped: 1 });
  });

  it('a Chinese message: Chinese content is learned, English content waits for review with its reason, even in auto mode', async () => {
    const { core, client, fake } = await setup(tempDir, [
      fact('养了一只叫豆豆的橘猫', '养了一只叫豆豆的橘猫'),
      fact('Has an orange cat named Doudou, 3 years old', '我养了一只橘猫，名字叫豆豆，今年三岁了'),
    ]);
    expect(unwrap(await client.call('settings.get', {})).memoryMode).toBe('auto');
    unwrap(await client.call('chat.send', { text: '我养了一只橘猫，名字叫豆豆，今年三岁了。' }));
    await core.queue.runUntilIdle();

    // The prompt asked for Chinese content.
    const request = fake.requests.find((r) => r.purpose === 'extract')!.body as { messages: Array<{ content: string }> };
    expect(request.messages[0]!.content).toContain('不要翻译成英文');

    expect(unwrap(await client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['养了一只叫豆豆的橘猫']);
    const [waiting, ...more] = unwrap(await client.call('review.list', {})).items;
    expect(more).toEqual([]);
    expect(waiting).toMatchObject({ content: 'Has an orange cat named Doudou, 3 years old', status: 'review', flag: 'language', replaces: null });
    const proposed = unwrap(await client.call('timeline.list', { kinds: ['proposed'] })).events;
    expect(proposed.map((e) => [e.memoryId, e.data.flag, e.data.flagReason])).toEqual([[waiting!.id, 'language', 'content in English, message in Chinese']]);

    // Approved in the user's language, it is found by a Chinese keyword search.
    unwrap(await client.call('review.approve', { memoryId: waiting!.id, content: '橘猫豆豆今年三岁' }));
    const found = unwrap(await client.call('memory.search', { query: '豆豆几岁' })).hits.map((h) => h.memory.content);
    expect(found).toContain('橘猫豆豆今年三岁');
  });
});
