/**
 * A fact spread over two turns, through the real path: two chat.send calls, the queue, the real Ollama adapter against
 * the fake Ollama, the parser and SQLite. The assistant asks "What is your dog called?", the user answers "Rex": the
 * extraction request carries the question (inside the data fence) and "Has a dog named Rex" is learned. The same answer
 * after a reply that asked nothing is not: "dog" would be a word nobody said.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const dogFact = { content: 'Has a dog named Rex', category: 'knowledge', importance: 0.7, confidence: 0.9, validity: 'permanent', evidence: 'Rex' };

async function twoTurns(tempDir: string, firstReply: string, answer: string) {
  const h = await harnesses.ollama(tempDir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
  const extractions: FakeInferenceRequest[] = [];
  let replies = 0;
  h.fake.setDefaultReply((req) => {
    if (req.purpose === 'extract') {
      extractions.push(req);
      // The first exchange ("I walked my dog") teaches nothing; the answer is the fact as a small model writes it.
      return { content: JSON.stringify({ memories: extractions.length === 1 ? [] : [dogFact] }) };
    }
    if (req.purpose === 'title') return { content: 'A title' };
    replies++;
    return { content: replies === 1 ? firstReply : 'Rex is a great name!' };
  });
  const first = unwrap(await h.client.call('chat.send', { text: 'I took my dog for a long walk by the river this morning.' }));
  await h.core.queue.runUntilIdle();
  unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: answer }));
  await h.core.queue.runUntilIdle();
  const memories = unwrap(await h.client.call('memory.list', { statuses: ['active', 'review'] })).items.map((m) => m.content);
  const last = extractions.at(-1)!.messages.at(-1)!.content;
  return { memories, last, extractions: extractions.length };
}

describe('learning a fact the user gives across two turns', () => {
  const tempDir = useTempDirs();

  it('a one-word answer to the assistant\'s question is learned with the question\'s words', async () => {
    const { memories, last, extractions } = await twoTurns(tempDir(), 'That sounds like a lovely walk! What is your dog called?', 'Rex');
    expect(extractions).toBe(2);
    expect(last).toMatch(/"asked": "What is your dog called\?",\s*"user": "Rex"/);
    expect(memories).toEqual(['Has a dog named Rex']);
  });

  it('after a reply that asked nothing, the request carries no question and the same fact is refused', async () => {
    const { memories, last, extractions } = await twoTurns(tempDir(), 'That sounds like a lovely walk by the river.', 'Rex, a beagle');
    expect(extractions).toBe(2);
    expect(last).not.toContain('"asked"');
    expect(memories).toEqual([]);
  });

  it('a one-word message after a reply that asked nothing is small talk: no model call for it', async () => {
    const { memories, extractions } = await twoTurns(tempDir(), 'That sounds like a lovely walk by the river.', 'Rex');
    expect(extractions).toBe(1);
    expect(memories).toEqual([]);
  });
});
