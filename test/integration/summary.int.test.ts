import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import { useChatHarnesses } from '../support/chat-harness';
import { usageFor } from '../support/model-usage';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();


describe('thread summaries', () => {
  const tempDir = useTempDirs();

  it('after enough messages a background summary covers them; the next prompt carries it with the last two exchanges verbatim, and not the older messages', async () => {
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 2048 } });
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 6, minNewTokens: 100_000 } } }));
    fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      if (req.purpose === 'summary') return { content: 'SUMMARY: the user plans a garden with tomatoes.' };
      if (req.purpose === 'title') return { content: 'Garden' };
      return { content: `Noted: ${last.slice(0, 20)}` };
    });
    const t = unwrap(await client.call('thread.create', {}));
    const said = ['I want to plant tomatoes this spring', 'The garden faces south', 'The soil there is quite sandy'];
    for (const text of said) unwrap(await client.call('chat.send', { threadId: t.id, text }));
    await core.queue.waitForIdle();
    const summary = unwrap(await client.call('summary.get', { threadId: t.id }));
    // The summary covers the whole thread so far: a prompt built from "summary + messages after it" would be the new
    // message alone.
    expect(summary).toMatchObject({ content: 'SUMMARY: the user plans a garden with tomatoes.', coveredCount: 6, pendingCount: 0, editedByUser: false });

    unwrap(await client.call('chat.send', { threadId: t.id, text: 'What should I plant next to them?' }));
    const lastPrompt = fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as { messages: Array<{ role: string; content: string }> }).at(-1)!;
    expect(lastPrompt.messages.map((m) => m.content)).toEqual([
      expect.any(String), // system
      expect.stringContaining('SUMMARY: the user plans a garden'),
      'The garden faces south',
      'Noted: The garden faces sou',
      'The soil there is quite sandy',
      'Noted: The soil there is qu',
      'What should I plant next to them?',
    ]);
  });

  it('a summary request fits the context window: the oldest messages that fit, the rest left for the next summary', { timeout: 60_000 }, async () => {
    const h = await harnesses.ollama(tempDir(), { fake: { contextLength: 2048 } });
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 12, minNewTokens: 100_000 } } }));
    fake.setDefaultReply((req) => {
      if (req.purpose === 'summary') return { content: 'SUMMARY: a long talk about the garden.' };
      if (req.purpose === 'title') return { content: 'Garden' };
      return { content: 'Noted.' };
    });
    const t = unwrap(await client.call('thread.create', {}));
    const said = Array.from({ length: 6 }, (_, i) => `Part ${i}: ${'the garden needs careful planning for every season of the year '.repeat(25).trim()}`);
    for (const text of said) unwrap(await client.call('chat.send', { threadId: t.id, text }));
    await core.queue.waitForIdle();

    const request = fake.requests.find((r) => r.purpose === 'summary')!.body as { messages: Array<{ content: string }>; options: { num_ctx: number; num_predict: number } };
    const prompt = request.messages.at(-1)!.content;
    expect(estimateTokens(prompt) + request.options.num_predict).toBeLessThanOrEqual(request.options.num_ctx);
    expect(prompt).toContain(said[0]);
    expect(prompt).not.toContain(said[5]);
    const summary = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    const messages = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    // It covers a prefix of the thread, exactly the messages it read, and nothing after them is lost: the next prompt
    // carries the newest messages verbatim.
    const covered = messages.filter((m) => m.id <= summary.toMessageId!);
    expect(summary.coveredCount).toBe(covered.length);
    expect(covered.length).toBeGreaterThan(0);
    expect(covered.length).toBeLessThan(messages.length);
    expect(covered.every((m) => prompt.includes(m.content))).toBe(true);
  });

  it('when the background model fails, the old summary stays with a pending marker, and a retry catches up', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
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
    const job = unwrap(await client.call('queue.list', { status: ['queued'] })).jobs.find((j) => j.kind !== 'episode');
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

  it('a summary that repeats a secret the user pasted is stored without it; the rest is kept, and every request went through the gateway', async () => {
    const h = await harnesses.ollama(tempDir());
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 4, minNewTokens: 100_000 } } }));
    const KEY = 'sk-proj-4fG7hJ2kL9mN3pQ8rS6tV1wX';
    fake.setDefaultReply((req) => {
      // The model repeats the key and the password (the latter without a keyword: only the user's message shows it is one).
      if (req.purpose === 'summary') return { content: `The user is wiring the billing client. Their API key is ${KEY}.\n- Router: uses hunter2x at home.\n- Open: retry policy for timeouts.` };
      if (req.purpose === 'title') return { content: 'Billing client' };
      return { content: 'Understood.' };
    });
    const t = unwrap(await client.call('thread.create', {}));
    unwrap(await client.call('chat.send', { threadId: t.id, text: `Here is my key ${KEY}, wire the billing client with it` }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'my router password is hunter2x; what retry policy for timeouts?' }));
    await core.queue.waitForIdle();

    const summary = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    expect(summary).toMatchObject({ content: 'The user is wiring the billing client.\n- Open: retry policy for timeouts.', coveredCount: 4, pendingCount: 0 });
    const prompt = (fake.requests.find((r) => r.purpose === 'summary')!.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
    // The next request carries the stored summary: the key is in no prompt built after it.
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'and for connection errors?' }));
    const lastChat = (fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> }).messages;
    expect(JSON.stringify(lastChat)).toContain('retry policy for timeouts');
    expect(JSON.stringify(lastChat)).not.toContain('hunter2x at home');
    expect(prompt).toContain(KEY); // the model read it (inside the fence); it did not keep it

    await core.queue.waitForIdle();
    const sent = fake.requests.filter((r) => r.path === '/api/chat');
    expect((await usageFor(client, 'summary')).requests).toBe(sent.filter((r) => r.purpose === 'summary').length);
    expect((await usageFor(client, 'title')).requests).toBe(sent.filter((r) => r.purpose === 'title').length);
    expect((await usageFor(client, 'title')).requests).toBe(1);
  });

  it('an automatic title that quotes a secret from the exchange is not written: the thread stays untitled', async () => {
    const h = await harnesses.ollama(tempDir());
    const { core, client, fake } = h;
    const titles = ['Router login: hunter2x', 'Wi-Fi password S3cr3tPass!', 'Home router setup'];
    for (const [i, title] of titles.entries()) {
      fake.setDefaultReply((req) => {
        if (req.purpose === 'title') return { content: title };
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
