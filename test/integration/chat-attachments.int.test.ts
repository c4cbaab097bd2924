import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import type { RequestPurpose } from '../support/request-kind';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

// The fake's reply callback sees a FakeInferenceRequest; its request log holds the raw bodies.
type Sent = { path: string; purpose: RequestPurpose | null; body: { format?: unknown; messages: Array<{ content: string }> } };
const isExtraction = (r: FakeInferenceRequest | Sent) => r.purpose === 'extract';
const lastText = (r: FakeInferenceRequest | Sent) => (r.body.messages as Array<{ content: string }>).at(-1)!.content;
const isTitle = (r: FakeInferenceRequest | Sent) => r.purpose === 'title';
const allText = (r: Sent) => r.body.messages.map((m) => m.content).join('\n');
const chatRequests = (requests: readonly unknown[]) => (requests as Sent[]).filter((q) => q.path === '/api/chat');

describe('attached files go to the model with the message, and are never learned from', () => {
  const tempDir = useTempDirs();

  it('the chat request carries the file text; the extraction request does not; the message keeps its files', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
    const { core, client, fake } = h;
    fake.setDefaultReply((req) => (isExtraction(req) ? { content: JSON.stringify({ memories: [] }) } : isTitle(req) ? { content: 'A title' } : { content: 'The notes say the launch moved to May.' }));
    const secret = 'SECRET-LAUNCH-CODENAME-ZEPHYR 发布日期在五月';
    const r = unwrap(
      await client.call('chat.send', { text: 'What do my notes say about the launch?', attachments: [{ name: 'notes.md', text: `# Launch\n\n${secret}\n` }] }),
    );
    expect(r.userMessage.attachments).toEqual([{ name: 'notes.md', text: `# Launch\n\n${secret}\n` }]);
    const question = chatRequests(fake.requests).find((q) => !isExtraction(q) && !isTitle(q))!;
    expect(lastText(question)).toContain('What do my notes say about the launch?');
    expect(lastText(question)).toContain(secret);
    expect(lastText(question)).toContain('name="notes.md"');

    core.queue.start();
    await core.queue.waitForIdle();
    const extraction = chatRequests(fake.requests).filter(isExtraction);
    expect(extraction.length).toBeGreaterThan(0);
    for (const q of extraction) {
      expect(allText(q)).toContain('What do my notes say about the launch?');
      expect(allText(q)).not.toContain('ZEPHYR');
    }

    // Stored with the message: the thread shows it, the next prompt carries it again, the context view counts it.
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.messages[0]!.attachments?.[0]?.name).toBe('notes.md');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.attachments).toMatchObject({ count: 1, cut: false });
    expect(context.attachments.tokens).toBeGreaterThan(0);
    unwrap(await client.call('chat.send', { threadId: r.threadId, text: 'And who wrote them?' }));
    const next = chatRequests(fake.requests).filter((q) => !isExtraction(q) && !isTitle(q)).at(-1)!;
    expect(allText(next)).toContain('ZEPHYR');
  });

  it('a file too long for the budget is cut keeping both ends, with a visible note, and the context view says so', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    h.fake.script({ content: 'Read it.' });
    const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} of the long report`);
    const text = ['BEGINNING-MARK', ...lines, 'ENDING-MARK'].join('\n');
    const r = unwrap(await h.client.call('chat.send', { text: 'Summarise this', attachments: [{ name: 'report.txt', text }] }));
    const sent = (h.fake.requests.find((q) => q.path === '/api/chat')!.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
    expect(sent).toContain('BEGINNING-MARK');
    expect(sent).toContain('ENDING-MARK');
    expect(sent).toMatch(new RegExp(`\\[… cut: \\d+ of ${text.length} characters …\\]`));
    expect(sent.length).toBeLessThan(text.length);
    const context = unwrap(await h.client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.attachments.cut).toBe(true);
    expect(context.question.tokens).toBeLessThanOrEqual(context.budget.conversation);
    // The stored file stays whole: nothing the user gave is lost to the cut.
    expect(r.userMessage.attachments![0]!.text).toBe(text);
  });

  it('bad attachments are refused at the boundary with a clear message', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    const empty = await h.client.call('chat.send', { text: 'hi', attachments: [{ name: 'empty.txt', text: '  \n' }] });
    expect(empty).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(empty)).toContain('An attached file has no text.');
    const many = await h.client.call('chat.send', { text: 'hi', attachments: Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, text: 'x' })) });
    expect(JSON.stringify(many)).toContain('At most 5 files');
    const huge = await h.client.call('chat.send', { text: 'hi', attachments: [{ name: 'huge.txt', text: 'a'.repeat(500_001) }] });
    expect(huge).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(h.fake.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  });
});

describe('attached files in a thread export', () => {
  const tempDir = useTempDirs();

  it('the JSON export keeps a question’s files and an import brings them back, sent again with the next question', async () => {
    const a = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    a.fake.script({ content: 'Noted.' });
    const sent = unwrap(await a.client.call('chat.send', { text: 'Keep this', attachments: [{ name: 'recipe.md', text: '番茄炒蛋：先炒蛋，再炒番茄。' }] }));
    const exported = unwrap(await a.client.call('thread.export', { threadId: sent.threadId, format: 'json' }));
    const markdown = unwrap(await a.client.call('thread.export', { threadId: sent.threadId, format: 'md' }));
    expect(markdown.content).toContain('📎 recipe.md');

    const b = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    b.fake.script({ content: 'Yes.' });
    expect(unwrap(await b.client.call('thread.import', { content: exported.content })).written).toBe(1);
    const threadId = unwrap(await b.client.call('thread.list', {})).threads[0]!.id;
    const page = unwrap(await b.client.call('thread.messages', { threadId }));
    expect(page.messages[0]!.attachments).toEqual([{ name: 'recipe.md', text: '番茄炒蛋：先炒蛋，再炒番茄。' }]);
    unwrap(await b.client.call('chat.send', { threadId, text: 'What was the first step?' }));
    expect(allText(chatRequests(b.fake.requests).at(-1)!)).toContain('先炒蛋');
  });
});
