/**
 * Edit and resend, regenerate and switching versions through the real core against a fake Ollama: what the model is
 * sent follows the branch shown, summaries never speak for a branch the user left, memories from an edited message
 * stay and say so, and exports keep every branch.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { useChatHarnesses, type ChatHarnessOptions } from '../support/chat-harness';
import { echoModel } from '../support/echo-model';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const isTitle = (r: FakeInferenceRequest) => r.purpose === 'title';

type Body = { messages: Array<{ role: string; content: string }> };
/** The conversation part (after the system text) of the last chat prompt: not a title, summary or extraction request. */
function lastPrompt(fake: FakeOllama): string[] {
  const chats = fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as Body);
  return chats.at(-1)!.messages.slice(1).map((m) => m.content);
}

async function harness(tempDir: () => string, opts: ChatHarnessOptions = {}) {
  const h = await harnesses.ollama(tempDir(), opts);
  // Each answer names the question, so a prompt shows which branch it came from.
  h.fake.setDefaultReply(echoModel());
  return h;
}

describe('edit and resend, regenerate, versions', () => {
  const tempDir = useTempDirs();

  it('an edit answers on a new branch whose prompt holds only the new path; switching back shows and sends the old one', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    const t = unwrap(await client.call('thread.create', {}));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'I like tea' }));
    const second = unwrap(await client.call('chat.send', { threadId: t.id, text: 'What should I drink tonight?' }));

    const edited = unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'I like coffee' }));
    expect(edited.userMessage).toMatchObject({ role: 'user', content: 'I like coffee', parentId: null, version: { index: 2, count: 2 } });
    expect(edited.assistantMessage).toMatchObject({ content: 'Answer to I like coffee', parentId: edited.userMessage.id });
    expect(lastPrompt(fake)).toEqual(['I like coffee']);
    let shown = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(shown.map((m) => m.content)).toEqual(['I like coffee', 'Answer to I like coffee']);
    expect(shown[0]!.version).toEqual({ index: 2, count: 2 });

    unwrap(await client.call('chat.send', { threadId: t.id, text: 'And tonight?' }));
    expect(lastPrompt(fake)).toEqual(['I like coffee', 'Answer to I like coffee', 'And tonight?']);

    // Back to version 1: the old continuation, whole; the next prompt is that path.
    expect(unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 1 }))).toEqual({ threadId: t.id, leafId: second.assistantMessage.id });
    shown = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(shown.map((m) => m.content)).toEqual(['I like tea', 'Answer to I like tea', 'What should I drink tonight?', 'Answer to What should I drink tonight?']);
    expect(shown[0]!.version).toEqual({ index: 1, count: 2 });
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Thanks' }));
    expect(lastPrompt(fake)).toEqual(['I like tea', 'Answer to I like tea', 'What should I drink tonight?', 'Answer to What should I drink tonight?', 'Thanks']);
    // Nothing was lost: every message of both branches is still searchable.
    expect(unwrap(await client.call('thread.search', { query: 'tonight' })).hits.map((h) => h.message.content).sort()).toEqual(
      ['And tonight?', 'Answer to And tonight?', 'Answer to What should I drink tonight?', 'What should I drink tonight?'].sort(),
    );
    // Version 2 again shows the newest continuation under the edit.
    unwrap(await client.call('thread.switchBranch', { messageId: first.userMessage.id, version: 2 }));
    shown = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(shown.map((m) => m.content)).toEqual(['I like coffee', 'Answer to I like coffee', 'And tonight?', 'Answer to And tonight?']);
  });

  it('refuses bad edits with typed errors: empty, an answer, an unknown version, while a reply streams; an incognito thread edits the same way', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    const r = unwrap(await client.call('chat.send', { text: 'hello there', incognito: true }));
    expect(await client.call('chat.edit', { messageId: r.userMessage.id, text: '   ' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await client.call('chat.edit', { messageId: r.assistantMessage.id, text: 'rewrite you' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await client.call('chat.edit', { messageId: 99_999, text: 'x' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await client.call('chat.regenerate', { messageId: r.userMessage.id })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await client.call('thread.switchBranch', { messageId: r.userMessage.id, version: 2 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    fake.script({ chunks: ['slow ', 'reply ', 'here '], delayMsPerChunk: 200 });
    const delta = new Promise<void>((resolve) => core.subscribe((m) => m.event === 'message.delta' && resolve()));
    const streaming = client.call('chat.send', { threadId: r.threadId, text: 'count slowly' });
    await delta;
    expect(await client.call('chat.edit', { messageId: r.userMessage.id, text: 'hi' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await client.call('chat.regenerate', { messageId: r.assistantMessage.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await client.call('thread.switchBranch', { messageId: r.userMessage.id, version: 1 })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    unwrap(await streaming);

    const edited = unwrap(await client.call('chat.edit', { messageId: r.userMessage.id, text: 'hello again' }));
    expect(edited.userMessage.version).toEqual({ index: 2, count: 2 });
    // Incognito: nothing learned from either branch.
    expect(unwrap(await client.call('queue.list', { status: ['queued'] })).jobs.filter((j) => j.kind === 'extract')).toEqual([]);
  });

  it('regenerate writes a new answer beside the old one under the same question; both stay and switching shows either', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    const r = unwrap(await client.call('chat.send', { text: 'Name a colour' }));
    fake.script({ content: 'Blue.' });
    const again = unwrap(await client.call('chat.regenerate', { messageId: r.assistantMessage.id }));
    expect(again.userMessage.id).toBe(r.userMessage.id);
    expect(again.assistantMessage).toMatchObject({ content: 'Blue.', parentId: r.userMessage.id, version: { index: 2, count: 2 } });
    // The prompt for the new answer is the question alone, not the old answer.
    expect(lastPrompt(fake)).toEqual(['Name a colour']);
    let shown = unwrap(await client.call('thread.messages', { threadId: r.threadId })).messages;
    expect(shown.map((m) => m.content)).toEqual(['Name a colour', 'Blue.']);
    unwrap(await client.call('thread.switchBranch', { messageId: again.assistantMessage.id, version: 1 }));
    shown = unwrap(await client.call('thread.messages', { threadId: r.threadId })).messages;
    expect(shown.map((m) => m.content)).toEqual(['Name a colour', 'Answer to Name a colour']);
    expect(shown[1]!.version).toEqual({ index: 1, count: 2 });
  });

  it('retry after a cut reply keeps the cut text as version 1 (nothing the user read is deleted); an empty failed reply is replaced', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.setFault({ kind: 'length-cut', afterChunks: 2 });
    const cut = unwrap(await client.call('chat.send', { text: 'Write a long essay about rivers' }));
    expect(cut.assistantMessage.status).toBe('truncated');
    const again = unwrap(await client.call('chat.retry', { threadId: cut.threadId }));
    expect(again.assistantMessage).toMatchObject({ status: 'complete', version: { index: 2, count: 2 } });
    unwrap(await client.call('thread.switchBranch', { messageId: again.assistantMessage.id, version: 1 }));
    const shown = unwrap(await client.call('thread.messages', { threadId: cut.threadId })).messages;
    expect(shown.at(-1)).toMatchObject({ id: cut.assistantMessage.id, status: 'truncated', content: cut.assistantMessage.content });
  });

  it('a summary of a branch the user left is not sent; an automatic one is rebuilt for the new path, one the user edited is kept as written', async () => {
    const { core, client, fake } = await harness(tempDir, { fake: { contextLength: 2048 } });
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 4, minNewTokens: 100_000 } } }));
    const t = unwrap(await client.call('thread.create', {}));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'We plan a garden with tomatoes' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'The garden faces south' }));
    await core.queue.waitForIdle();
    const summary = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    expect(summary.content).toContain('tomatoes');

    // The edit branches off before what the summary covers: the prompt carries no summary of tomatoes.
    unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'We plan a garden with roses' }));
    expect(lastPrompt(fake).join('\n')).not.toContain('tomatoes');
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Which soil?' }));
    expect(lastPrompt(fake).join('\n')).not.toContain('tomatoes');
    await core.queue.waitForIdle();
    // Rebuilt from the new path only.
    const rebuilt = unwrap(await client.call('summary.get', { threadId: t.id }))!;
    expect(rebuilt.content).toContain('roses');
    expect(rebuilt.content).not.toContain('tomatoes');
    expect(rebuilt.coveredCount).toBe(4);

    // The user's own summary for this path; then a branch before it: kept as written, not sent, not overwritten.
    unwrap(await client.call('summary.update', { threadId: t.id, content: 'MY NOTES: roses, acid soil' }));
    const roses = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    unwrap(await client.call('chat.edit', { messageId: roses[0]!.id, text: 'We plan a garden with herbs' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Which herbs?' }));
    expect(lastPrompt(fake).join('\n')).not.toContain('MY NOTES');
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('summary.get', { threadId: t.id }))).toMatchObject({ content: 'MY NOTES: roses, acid soil', editedByUser: true });
    // Editing it again makes it this path's: it is sent again.
    unwrap(await client.call('summary.update', { threadId: t.id, content: 'MY NOTES: herbs now' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Basil?' }));
    expect(lastPrompt(fake).join('\n')).toContain('MY NOTES: herbs now');
  });

  it('a memory learned from a message the user edited away stays, and its provenance says the message was edited', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
    const { core, client, fake } = h;
    fake.setDefaultReply((req) => {
      if (isExtraction(req)) {
        const learned = req.messages.at(-1)!.content.includes('Lisbon');
        return {
          content: JSON.stringify({
            memories: learned ? [{ content: 'Lives in Lisbon', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Lisbon' }] : [],
          }),
        };
      }
      return { content: isTitle(req) ? 'T' : 'That is good to know, thanks for telling me about it!' };
    });
    const r = unwrap(await client.call('chat.send', { text: 'I live in Lisbon and I work as a nurse there.' }));
    core.queue.start();
    await core.queue.waitForIdle();
    const [memory] = unwrap(await client.call('memory.list', {})).items;
    expect(memory).toMatchObject({ content: 'Lives in Lisbon', sourceMessageId: r.userMessage.id });
    expect(unwrap(await client.call('memory.get', { memoryId: memory!.id })).provenance.messageEdited).toBeUndefined();

    unwrap(await client.call('chat.edit', { messageId: r.userMessage.id, text: 'I work as a nurse.' }));
    await core.queue.waitForIdle();
    const detail = unwrap(await client.call('memory.get', { memoryId: memory!.id }));
    expect(detail.memory.status).toBe('active');
    expect(detail.provenance).toMatchObject({ messageId: r.userMessage.id, messageEdited: true });
  });

  it('a memory is confirmed once per time the user said it again: an edited version of its message and a regenerated answer are not', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }) } });
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    fake.setDefaultReply(
      echoModel((req) =>
        req.messages.at(-1)!.content.includes('I live in Lisbon')
          ? [{ content: 'Lives in Lisbon', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Lisbon' }]
          : [],
      ),
    );
    const t = unwrap(await client.call('thread.create', {}));
    const said = unwrap(await client.call('chat.send', { threadId: t.id, text: 'I live in Lisbon and I work as a nurse there.' }));
    await core.queue.waitForIdle();
    const [memory] = unwrap(await client.call('memory.list', {})).items;
    expect(memory).toMatchObject({ content: 'Lives in Lisbon', sourceMessageId: said.userMessage.id });
    const confirmations = async () => ({
      events: unwrap(await client.call('timeline.list', { kinds: ['confirmed'] })).events.filter((e) => e.memoryId === memory!.id).map((e) => e.data.messageId),
      versions: unwrap(await client.call('memory.get', { memoryId: memory!.id })).versions.filter((v) => v.reason === 'confirmed').length,
    });

    // The same message again, in other words around the fact, and another answer to it: the user said it once.
    const edited = unwrap(await client.call('chat.edit', { messageId: said.userMessage.id, text: 'I live in Lisbon and I work as a doctor there.' }));
    await core.queue.waitForIdle();
    unwrap(await client.call('chat.regenerate', { messageId: edited.assistantMessage.id }));
    await core.queue.waitForIdle();
    unwrap(await client.call('chat.regenerate', { messageId: said.assistantMessage.id }));
    await core.queue.waitForIdle();
    expect(fake.requests.filter((r) => r.purpose === 'extract')).toHaveLength(4);
    expect(await confirmations()).toEqual({ events: [], versions: 0 });

    // Said again in a later message: one confirmation, which another answer to that message does not repeat.
    const again = unwrap(await client.call('chat.send', { threadId: t.id, text: 'As I told you, I live in Lisbon.' }));
    await core.queue.waitForIdle();
    unwrap(await client.call('chat.regenerate', { messageId: again.assistantMessage.id }));
    await core.queue.waitForIdle();
    expect(fake.requests.filter((r) => r.purpose === 'extract')).toHaveLength(6);
    expect(await confirmations()).toEqual({ events: [again.userMessage.id], versions: 1 });
    expect(unwrap(await client.call('memory.list', {})).items).toHaveLength(1);
  });

  it('a memory merges once per time the user said it: another answer to the same message, worded otherwise, changes nothing', async () => {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }) } });
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    let extractions = 0;
    const fact = (content: string, evidence: string) => [{ content, category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence }];
    fake.setDefaultReply(
      echoModel((req) => {
        const prompt = req.messages.at(-1)!.content;
        if (!prompt.includes('I live in Lisbon')) return [];
        // The first run words it one way; a later run on the same message (a regenerated answer), another.
        return (extractions += 1) === 1 ? fact('Lives in Lisbon', 'I live in Lisbon') : fact('Living in Lisbon', 'I live in Lisbon');
      }),
    );
    const t = unwrap(await client.call('thread.create', {}));
    const said = unwrap(await client.call('chat.send', { threadId: t.id, text: 'I live in Lisbon and I work as a nurse there.' }));
    await core.queue.waitForIdle();
    const [memory] = unwrap(await client.call('memory.list', {})).items;
    expect(memory).toMatchObject({ content: 'Lives in Lisbon' });
    const merges = async () => ({
      events: unwrap(await client.call('timeline.list', { kinds: ['merged'] })).events.filter((e) => e.memoryId === memory!.id).map((e) => e.data.messageId),
      versions: unwrap(await client.call('memory.get', { memoryId: memory!.id })).versions.filter((v) => v.reason === 'merged').length,
    });

    unwrap(await client.call('chat.regenerate', { messageId: said.assistantMessage.id }));
    await core.queue.waitForIdle();
    expect(fake.requests.filter((r) => r.purpose === 'extract')).toHaveLength(2);
    expect(await merges()).toEqual({ events: [], versions: 0 });
    expect(unwrap(await client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['Lives in Lisbon']);

    // Said again, in other words, in a later message: that is a merge.
    const again = unwrap(await client.call('chat.send', { threadId: t.id, text: 'As I said before, I live in Lisbon.' }));
    await core.queue.waitForIdle();
    expect((await merges()).events).toEqual([again.userMessage.id]);
    expect(unwrap(await client.call('memory.list', {})).items).toHaveLength(1);
  });

  it('a JSON export keeps every branch and the one shown, an import brings them back; the Markdown shows the conversation shown', async () => {
    const { client } = await harness(tempDir, { core: { startQueue: false } });
    const t = unwrap(await client.call('thread.create', {}));
    const first = unwrap(await client.call('chat.send', { threadId: t.id, text: 'Plan a trip to Porto' }));
    unwrap(await client.call('chat.send', { threadId: t.id, text: 'Two days only' }));
    const edited = unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'Plan a trip to Braga' }));
    unwrap(await client.call('chat.regenerate', { messageId: edited.assistantMessage.id }));
    const shownBefore = unwrap(await client.call('thread.messages', { threadId: t.id })).messages.map((m) => [m.content, m.version ?? null]);

    const md = unwrap(await client.call('thread.export', { threadId: t.id, format: 'md' })).content;
    expect(md).toContain('Plan a trip to Braga');
    expect(md).not.toContain('Porto');
    const json = unwrap(await client.call('thread.export', { threadId: t.id, format: 'json' })).content;
    expect(json).toContain('Porto');

    const other = createTestCore(path.join(tempDir(), 'other'), { startQueue: false });
    try {
      const report = unwrap(await other.client.call('thread.import', { content: json }));
      expect(report).toMatchObject({ new: 1, written: 1 });
      const imported = report.items[0]!.threadId!;
      const shown = unwrap(await other.client.call('thread.messages', { threadId: imported })).messages;
      expect(shown.map((m) => [m.content, m.version ?? null])).toEqual(shownBefore);
      unwrap(await other.client.call('thread.switchBranch', { messageId: shown[0]!.id, version: 1 }));
      const old = unwrap(await other.client.call('thread.messages', { threadId: imported })).messages;
      expect(old.map((m) => m.content)).toEqual(['Plan a trip to Porto', 'Answer to Plan a trip to Porto', 'Two days only', 'Answer to Two days only']);
      // A file whose message follows one after it cannot be rebuilt: that thread is refused, not garbled.
      const doc = JSON.parse(json) as { threads: Array<{ title: string; messages: Array<{ parent?: number | null }> }> };
      doc.threads[0]!.title = 'broken';
      doc.threads[0]!.messages[0]!.parent = 3;
      expect(unwrap(await other.client.call('thread.import', { content: JSON.stringify(doc), dryRun: true })).items[0]).toMatchObject({ outcome: 'invalid' });
    } finally {
      await other.core.dispose();
    }
  });
});
