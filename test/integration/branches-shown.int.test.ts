/**
 * What the user sees of a thread with versions (conversation/message-branches.ts), through the real core against a fake
 * Ollama: a thread's message count is the conversation shown, exports and imports say how many messages of other
 * versions they carry, a summary written from another version says so, and opening a message that was edited away
 * (a memory's source) switches the thread to it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { useChatHarnesses, type ChatHarnessOptions } from '../support/chat-harness';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { echoModel } from '../support/echo-model';

const harnesses = useChatHarnesses();


async function harness(tempDir: () => string, opts: ChatHarnessOptions = {}) {
  const h = await harnesses.ollama(tempDir(), opts);
  h.fake.setDefaultReply(
    echoModel((req) =>
      req.messages.at(-1)!.content.includes('Lisbon')
        ? [{ content: 'Lives in Lisbon', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Lisbon' }]
        : [],
    ),
  );
  return h;
}

describe('a thread with versions, as the user sees it', () => {
  const tempDir = useTempDirs();

  it('counts the messages of the conversation shown, in the thread list, a thread, the import preview and the Markdown', async () => {
    const { client } = await harness(tempDir, { core: { startQueue: false } });
    const t = unwrap(await client.call('thread.create', {}));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'Plan a trip to Porto' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Two days only' }));
    expect(unwrap(await client.call('thread.get', { threadId: t.id })).messageCount).toBe(4);

    // The edit leaves the old question and its three followers on version 1: six messages kept, two shown.
    const edited = unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'Plan a trip to Braga' }));
    const shown = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(shown).toHaveLength(2);
    expect(unwrap(await client.call('thread.get', { threadId: t.id })).messageCount).toBe(2);
    expect(unwrap(await client.call('thread.list', {})).threads.find((x) => x.id === t.id)!.messageCount).toBe(2);
    // A regenerated answer replaces the one shown: still two.
    unwrap(await client.call('chat.regenerate', { messageId: edited.assistantMessage.id }));
    expect(unwrap(await client.call('thread.get', { threadId: t.id })).messageCount).toBe(2);
    // Back to version 1: its four.
    unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 1 }));
    expect(unwrap(await client.call('thread.get', { threadId: t.id })).messageCount).toBe(4);

    // The JSON keeps all seven and the preview says which are shown and which are other versions.
    const json = unwrap(await client.call('thread.export', { threadId: t.id, format: 'json' })).content;
    expect((JSON.parse(json) as { threads: Array<{ messages: unknown[] }> }).threads[0]!.messages).toHaveLength(7);
    const other = createTestCore(path.join(tempDir(), 'other'), { startQueue: false });
    try {
      const preview = unwrap(await other.client.call('thread.import', { content: json, dryRun: true }));
      expect(preview.items[0]).toMatchObject({ outcome: 'new', messages: 4, otherVersions: 3 });
      const done = unwrap(await other.client.call('thread.import', { content: json }));
      expect(unwrap(await other.client.call('thread.get', { threadId: done.items[0]!.threadId! })).messageCount).toBe(4);
    } finally {
      await other.core.dispose();
    }

    // The Markdown shows the conversation shown and says that more is kept.
    const md = unwrap(await client.call('thread.export', { threadId: t.id, format: 'md' })).content;
    expect(md).toContain('3 messages of other versions (edited questions, regenerated answers) are kept in the JSON export.');
    // A thread without versions has no such line.
    const plain = unwrap(await client.call('thread.create', {}));
    unwrap(await client.call('chat.send', { threadId: plain.id, text: 'Hello' }));
    expect(unwrap(await client.call('thread.export', { threadId: plain.id, format: 'md' })).content).not.toContain('other versions');
    expect(unwrap(await client.call('thread.import', { content: unwrap(await client.call('thread.export', { threadId: plain.id, format: 'json' })).content, dryRun: true })).items[0]).toMatchObject({
      messages: 2,
      otherVersions: 0,
    });
  });

  it('a summary written from a version the user left says so (and is not sent); switching back or saving it makes it current', async () => {
    const { core, client, fake } = await harness(tempDir, { fake: { contextLength: 2048 } });
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 4, minNewTokens: 100_000 } } }));
    const t = unwrap(await client.call('thread.create', {}));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'We plan a garden with tomatoes' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'The garden faces south' }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ otherVersion: false });

    const edited = unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'We plan a garden with roses' }));
    await core.queue.waitForIdle();
    const left = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    expect(left).toMatchObject({ otherVersion: true, editedByUser: false });
    expect(left.content).toContain('tomatoes');
    // The prompt already leaves it out (prompt-assembly.ts, summaryForPath).
    const answers = fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as { messages: Array<{ role: string; content: string }> });
    expect(answers.at(-1)!.messages.at(-1)!.content).toBe('We plan a garden with roses');
    expect(JSON.stringify(answers.at(-1)!.messages)).not.toContain('SUMMARY of');

    // Back on the version it was written from, it is current again.
    unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 1 }));
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ otherVersion: false });
    unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 2 }));
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ otherVersion: true });
    // Saving it makes it this version's.
    const saved = unwrap(await client.call('summary.update', { threadId: t.id, content: 'MY NOTES: roses' }));
    expect(saved.otherVersion).toBe(false);
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ otherVersion: false, editedByUser: true });
  });

  it('when the background model fails, the messages not yet summarized are counted on the version shown', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 2, minNewTokens: 100_000 } } }));
    const t = unwrap(await client.call('thread.create', { title: 'fixed' }));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'We plan a garden with tomatoes' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'The garden faces south' }));
    unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'We plan a garden with roses' }));
    fake.setFault({ kind: 'http-500', sticky: true });
    core.queue.start();
    await core.queue.waitForIdle();
    // Six messages in the thread, two on the version shown.
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ content: '', pendingCount: 2 });
  });

  it('opening a message that was edited away switches the thread to its version; one already shown changes nothing', async () => {
    const { core, client } = await harness(tempDir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
    const t = unwrap(await client.call('thread.create', {}));
    const r = unwrap(await client.call('chat.send', { threadId: t.id, text: 'I live in Lisbon and I work as a nurse there.' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'What should I cook?' }));
    core.queue.start();
    await core.queue.waitForIdle();
    const [memory] = unwrap(await client.call('memory.list', {})).items;
    expect(memory).toMatchObject({ content: 'Lives in Lisbon', sourceMessageId: r.userMessage.id });

    // Shown already: nothing changes, no event.
    const switched: unknown[] = [];
    client.on('thread.branchSwitched', (e) => switched.push(e));
    const leafBefore = unwrap(await client.call('thread.messages', { threadId: t.id })).messages.at(-1)!.id;
    expect(unwrap(await client.call('thread.showMessage', { messageId: r.userMessage.id }))).toEqual({ threadId: t.id, leafId: leafBefore, switched: false });

    const edited = unwrap(await client.call('chat.edit', { messageId: r.userMessage.id, text: 'I work as a nurse.' }));
    const afterEdit = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(afterEdit.map((m) => m.id)).not.toContain(memory!.sourceMessageId);

    // The memory's source: the thread goes to the version holding it, with what followed it there.
    const opened = unwrap(await client.call('thread.showMessage', { messageId: memory!.sourceMessageId! }));
    expect(opened).toEqual({ threadId: t.id, leafId: leafBefore, switched: true });
    const shown = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(shown.map((m) => m.content)).toEqual([
      'I live in Lisbon and I work as a nurse there.',
      'Answer to I live in Lisbon and I work as a nurse there.',
      'What should I cook?',
      'Answer to What should I cook?',
    ]);
    expect(shown[0]!.version).toEqual({ index: 1, count: 2 });
    await expect.poll(() => switched).toEqual([{ threadId: t.id, leafId: leafBefore }]);
    // An answer of the edited branch opens that branch again.
    expect(unwrap(await client.call('thread.showMessage', { messageId: edited.assistantMessage.id }))).toMatchObject({ leafId: edited.assistantMessage.id, switched: true });
    // Unknown: a typed error.
    const gone = await client.call('thread.showMessage', { messageId: 999_999 });
    expect(gone.ok ? null : gone.error.code).toBe('NOT_FOUND');
  });
});
