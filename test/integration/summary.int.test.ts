import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createChatHarness } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const isSummaryRequest = (content: string) => content.startsWith('You maintain a running summary');

describe('thread summaries', () => {
  const tempDir = useTempDirs();

  it('after enough messages a background summary covers them, and the next prompt uses it instead of old messages', async () => {
    const h = await createChatHarness(tempDir(), { fake: { contextLength: 2048 } });
    harnesses.push(h);
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 4, minNewTokens: 100_000 } } }));
    fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      if (isSummaryRequest(last)) return { content: 'SUMMARY: the user plans a garden with tomatoes.' };
      if (last.startsWith('Write a short title')) return { content: 'Garden' };
      return { content: `Noted: ${last.slice(0, 20)}` };
    });
    const t = unwrap(await client.call('thread.create', {}));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'I want to plant tomatoes this spring' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'The garden faces south' }));
    await core.queue.waitForIdle();
    const summary = unwrap(await client.call('summary.get', { threadId: t.id }));
    expect(summary).toMatchObject({ content: 'SUMMARY: the user plans a garden with tomatoes.', coveredCount: 4, pendingCount: 0, editedByUser: false });

    // The summary request never carried thinking and the next chat prompt includes the summary.
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'What should I plant next to them?' }));
    const chat = fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as { messages: Array<{ role: string; content: string }> });
    const lastPrompt = chat.filter((b) => !isSummaryRequest(b.messages.at(-1)!.content) && !b.messages.at(-1)!.content.startsWith('Write a short')).at(-1)!;
    expect(lastPrompt.messages.some((m) => m.content.includes('SUMMARY: the user plans a garden'))).toBe(true);
    expect(lastPrompt.messages.some((m) => m.content === 'I want to plant tomatoes this spring')).toBe(false);
  });

  it('when the background model fails, the old summary stays with a pending marker, and a retry catches up', async () => {
    const h = await createChatHarness(tempDir(), { core: { startQueue: false } });
    harnesses.push(h);
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 2, minNewTokens: 100_000 } } }));
    const t = unwrap(await client.call('thread.create', { title: 'fixed' }));
    unwrap(await client.call('summary.update', { threadId: t.id, content: 'Edited by me.' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'first question here' }));
    fake.setFault({ kind: 'http-500', sticky: true });
    core.queue.start();
    await core.queue.waitForIdle();
    const behind = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    expect(behind).toMatchObject({ content: 'Edited by me.', pendingCount: 2 });
    const [job] = unwrap(await client.call('queue.list', { status: ['queued'] })).jobs;
    expect(job).toMatchObject({ kind: 'summarize', attempts: 1, lastErrorCode: 'LLM_HTTP_ERROR' });

    fake.setFault(null);
    fake.setDefaultReply({ content: 'Better summary.' });
    // Retry now instead of waiting out the backoff: dead-letter it by cancelling and retrying (the user's "retry").
    unwrap(await client.call('queue.cancel', { jobId: job!.id }));
    unwrap(await client.call('queue.retry', { jobId: job!.id }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ content: 'Better summary.', pendingCount: 0, coveredCount: 2 });
    const summaryPrompt = (fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(summaryPrompt).toContain('Edited by me.');
  });

  it('an automatic title that quotes a secret from the exchange is not written: the thread stays untitled', async () => {
    const h = await createChatHarness(tempDir());
    harnesses.push(h);
    const { core, client, fake } = h;
    const titles = ['Router login: hunter2x', 'Wi-Fi password S3cr3tPass!', 'Home router setup'];
    for (const [i, title] of titles.entries()) {
      fake.setDefaultReply((req) => {
        const last = req.messages.at(-1)!.content;
        if (last.startsWith('Write a short title')) return { content: title };
        return { content: 'Got it, I will keep that in mind for the setup.' };
      });
      const t = unwrap(await client.call('thread.create', {}));
      // The first title repeats the user's password without a keyword (caught by comparing with the message); the
      // second names it itself; the third is harmless and is written.
      unwrap(await client.call('chat.send', { threadId: t.id, text: i === 0 ? 'my router password is hunter2x, please help me set it up' : 'please help me set up the router at home' }));
      await core.queue.waitForIdle();
      const thread = unwrap(await client.call('thread.list', {})).threads.find((x) => x.id === t.id)!;
      expect(thread.title, title).toBe(i === 2 ? 'Home router setup' : '');
    }
  });
});
