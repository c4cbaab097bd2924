/**
 * Learning several exchanges of a thread in one request (EXTRACTION_BATCH): when exchanges wait together, one
 * extraction request carries them all, and each fact is stored as the exchange's whose words ground it (provenance,
 * "Learned:" under the right message), including a fact the user gave in answer to the assistant's question.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import { createChatHarness } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const fact = (content: string, evidence: string) => ({ content, category: 'knowledge', importance: 0.8, confidence: 0.9, validity: 'permanent', evidence });

describe('learning a stretch of exchanges in one request', () => {
  const tempDir = useTempDirs();

  it('one request for three waiting exchanges; each fact belongs to the exchange that grounds it', async () => {
    const h = await createChatHarness(tempDir(), { core: { startQueue: false } });
    closers.push(() => h.close());
    unwrap(await h.client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    const answers = [
      'Welcome! Where do you live now?',
      'Berlin is lovely in spring.',
      'Sounds like a good plan.',
    ];
    let chat = 0;
    h.fake.setDefaultReply((req) => {
      if (req.purpose === 'extract') {
        return {
          content: JSON.stringify({
            memories: [
              fact('Lives in Berlin since May', 'Berlin, since May'),
              fact('Has a dog named Bruno', 'my dog Bruno'),
              // Nobody said this: dropped, whichever exchange it is checked against.
              fact('Works at a bakery', 'I work at a bakery'),
            ],
          }),
        };
      }
      if (req.purpose === 'focus') return { content: '{}' };
      return { content: answers[chat++ % answers.length]! };
    });
    const events: EventMessage[] = [];
    h.core.subscribe((m) => events.push(m));

    const first = unwrap(await h.client.call('chat.send', { text: 'Hi, I moved recently and I am still settling in.' }));
    const second = unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'Berlin, since May. It is much colder than home.' }));
    const third = unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'This weekend I will walk my dog Bruno by the canal.' }));
    h.core.queue.start();
    await h.core.queue.waitForIdle();

    const requests = h.fake.requests.filter((r) => r.purpose === 'extract');
    expect(requests).toHaveLength(1);
    const prompt = (requests[0]!.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
    expect(prompt).toContain('"messages"');
    // The user's words and the question one of them answers; never the replies themselves (extract-prompt.ts).
    for (const text of ['still settling in', 'Berlin, since May', 'my dog Bruno', '"asked": "Where do you live now?"']) expect(prompt).toContain(text);
    for (const reply of ['Welcome!', 'Berlin is lovely in spring.', 'Sounds like a good plan.']) expect(prompt).not.toContain(reply);

    const memories = unwrap(await h.client.call('memory.list', {})).items;
    const byContent = Object.fromEntries(memories.map((m) => [m.content, m.sourceMessageId]));
    expect(byContent).toEqual({ 'Lives in Berlin since May': second.userMessage.id, 'Has a dog named Bruno': third.userMessage.id });
    // Every exchange's job is done, each told its own outcome (the "Learned:" line under its message).
    const completed = events.filter((e) => e.event === 'extraction.completed').map((e) => e.payload as { userMessageId: number; created: number[]; dropped: number });
    expect(completed.map((c) => [c.userMessageId, c.created.length])).toEqual([
      [first.userMessage.id, 0],
      [second.userMessage.id, 1],
      [third.userMessage.id, 1],
    ]);
    expect(completed[0]!.dropped).toBe(1);
    const jobs = unwrap(await h.client.call('queue.list', { status: ['done'], limit: 50 })).jobs.filter((j) => j.kind === 'extract');
    expect(jobs).toHaveLength(3);
    expect(unwrap(await h.client.call('queue.usage', {})).purposes.find((p) => p.purpose === 'extract')!.requests).toBe(1);
  });

  it('one exchange alone is asked about as before: no "messages" list, and not the reply', async () => {
    const h = await createChatHarness(tempDir(), { core: { startQueue: false } });
    closers.push(() => h.close());
    h.fake.setDefaultReply((req) => (req.purpose === 'extract' ? { content: JSON.stringify({ memories: [fact('Has a dog named Bruno', 'my dog Bruno')] }) } : { content: 'Nice.' }));
    unwrap(await h.client.call('chat.send', { text: 'This weekend I will walk my dog Bruno by the canal.' }));
    h.core.queue.start();
    await h.core.queue.waitForIdle();
    const request = h.fake.requests.find((r) => r.purpose === 'extract')!;
    const prompt = (request.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
    expect(prompt).not.toContain('"messages"');
    expect(prompt).toContain('"user": "This weekend I will walk my dog Bruno by the canal."');
    expect(prompt).not.toContain('Nice.');
    expect(unwrap(await h.client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['Has a dog named Bruno']);
  });
});
