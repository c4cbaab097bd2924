import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import type { RequestPurpose } from '../support/request-kind';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type Sent = { path: string; purpose: RequestPurpose | null; body: { format?: unknown; messages: Array<{ content: string }> } };
const isExtraction = (r: FakeInferenceRequest | Sent) => r.purpose === 'extract';
const isTitle = (r: FakeInferenceRequest | Sent) => r.purpose === 'title';
const allText = (r: Sent) => r.body.messages.map((m) => m.content).join('\n');
const extractionRequests = (requests: readonly unknown[]) => (requests as Sent[]).filter((q) => q.path === '/api/chat' && isExtraction(q));

const TYPED = 'Here is the profile I wrote for the club newsletter, does it read well?';
const FILE = {
  name: 'about-me.pdf',
  text: 'Club newsletter\n\nAbout me: I keep three beehives on my roof in Porto. I joined the club in 2019.\n',
};
/** What the background model proposes: a fact found only in the file, quoted from it. */
const FROM_FILE = {
  content: 'Keeps three beehives on the roof in Porto',
  category: 'knowledge',
  importance: 0.7,
  confidence: 0.9,
  validity: 'permanent',
  evidence: 'I keep three beehives on my roof in Porto',
};

async function harness(dir: string) {
  const h = await harnesses.ollama(dir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
  h.fake.setDefaultReply((req) =>
    isExtraction(req) ? { content: JSON.stringify({ memories: [FROM_FILE] }) } : isTitle(req) ? { content: 'Newsletter profile' } : { content: 'It reads well.' },
  );
  return h;
}

describe('learning from an attached file only when the user confirms it', () => {
  const tempDir = useTempDirs();

  it('an unconfirmed file is never shown to the extractor, and a fact found only in it is not stored', async () => {
    const h = await harness(tempDir());
    const sent = unwrap(await h.client.call('chat.send', { text: TYPED, attachments: [FILE] }));
    h.core.queue.start();
    await h.core.queue.waitForIdle();
    const extraction = extractionRequests(h.fake.requests);
    expect(extraction.length).toBeGreaterThan(0);
    for (const q of extraction) {
      expect(allText(q)).toContain(TYPED);
      expect(allText(q)).not.toContain('beehives');
    }
    // The model's proposal is not the user's words (the typed text holds none of it): dropped, nothing stored.
    expect(unwrap(await h.client.call('memory.list', {})).items).toEqual([]);
    expect(sent.userMessage.attachments).toEqual([FILE]);
  });

  it('a confirmed file is read as the user\'s words: the fact is stored, and its provenance names the file', async () => {
    const h = await harness(tempDir());
    const sent = unwrap(await h.client.call('chat.send', { text: TYPED, attachments: [{ ...FILE, learn: true }] }));
    expect(sent.userMessage.attachments).toEqual([{ ...FILE, learn: true }]);
    h.core.queue.start();
    await h.core.queue.waitForIdle();
    const [extraction] = extractionRequests(h.fake.requests);
    expect(allText(extraction!)).toContain('I keep three beehives on my roof in Porto');
    expect(allText(extraction!)).toContain('"files"');

    const { items } = unwrap(await h.client.call('memory.list', {}));
    expect(items.map((m) => [m.content, m.status])).toEqual([[FROM_FILE.content, 'active']]);
    const detail = unwrap(await h.client.call('memory.get', { memoryId: items[0]!.id }));
    expect(detail.provenance).toMatchObject({ messageId: sent.userMessage.id, evidence: FROM_FILE.evidence, file: 'about-me.pdf' });
  });

  it('a fact the user typed names no file, even when a file was confirmed beside it', async () => {
    const h = await harness(tempDir());
    h.fake.setDefaultReply((req) =>
      isExtraction(req)
        ? { content: JSON.stringify({ memories: [{ ...FROM_FILE, content: 'Edits the club newsletter', evidence: 'the club newsletter' }] }) }
        : { content: 'Sure.' },
    );
    unwrap(await h.client.call('chat.send', { text: 'I edit the club newsletter, here is my profile.', attachments: [{ ...FILE, learn: true }] }));
    h.core.queue.start();
    await h.core.queue.waitForIdle();
    const [memory] = unwrap(await h.client.call('memory.list', {})).items;
    expect(unwrap(await h.client.call('memory.get', { memoryId: memory!.id })).provenance.file).toBeUndefined();
  });

  it('secrets in a confirmed file are still dropped, and an incognito thread learns nothing from one', async () => {
    const h = await harness(tempDir());
    const secretFile = { name: 'router.txt', text: 'My home network: the wifi password is Tr0ub4dor&3-horse, please keep it.', learn: true };
    h.fake.setDefaultReply((req) =>
      isExtraction(req)
        ? { content: JSON.stringify({ memories: [{ ...FROM_FILE, content: 'Wifi password is Tr0ub4dor&3-horse', evidence: 'the wifi password is Tr0ub4dor&3-horse' }] }) }
        : { content: 'Noted.' },
    );
    unwrap(await h.client.call('chat.send', { text: 'Can you check my router notes for typos please?', attachments: [secretFile] }));
    const incognito = unwrap(await h.client.call('thread.create', { incognito: true }));
    h.fake.setDefaultReply((req) => (isExtraction(req) ? { content: JSON.stringify({ memories: [FROM_FILE] }) } : { content: 'It reads well.' }));
    const before = extractionRequests(h.fake.requests).length;
    unwrap(await h.client.call('chat.send', { threadId: incognito.id, text: TYPED, attachments: [{ ...FILE, learn: true }] }));
    h.core.queue.start();
    await h.core.queue.waitForIdle();
    expect(unwrap(await h.client.call('memory.list', {})).items).toEqual([]);
    // The secret's exchange was read (and its candidate refused); the incognito one was never sent to the extractor.
    expect(extractionRequests(h.fake.requests).length).toBe(before + 1);
    expect(extractionRequests(h.fake.requests).some((q) => allText(q).includes('beehives'))).toBe(false);
  });
});
