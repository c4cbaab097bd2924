/**
 * Searching what the assistant said (issue 28, item 4), through the real core on real SQLite, the real Ollama adapter
 * talking to the fake Ollama: search_conversations finds an earlier answer and says it is the assistant's (to the model,
 * in the receipt and in "what the model saw"); an incognito thread's answers, a failed one, versions the user left
 * and a deleted thread's messages are never found; the CLI's `thread search` labels whose words each hit is.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { startFakeOllama } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type WireMessage = { role: string; content: string };
const toolText = (request: { body: unknown } | undefined) => (request!.body as { messages: WireMessage[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content).join('\n');

const KNEE_ADVICE = 'For your knee I recommend quad sets twice a day and ice after runs.';

describe('search_conversations finds what the assistant said', () => {
  const tempDir = useTempDirs();

  async function harness() {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, embedder: null } });
    unwrap(await h.client.call('settings.update', { patch: { memoryAccess: 'tools' } }));
    return h;
  }

  it('“What did you recommend for my knee last month?” finds the recommendation, labelled the assistant’s; never incognito, a left version, a failed answer or a deleted thread', async () => {
    const { client, fake } = await harness();
    fake.script({ content: KNEE_ADVICE });
    const knee = unwrap(await client.call('chat.send', { text: 'My knee hurts after running, what should I do?' }));
    // An incognito thread's answer with the same words is never searched.
    fake.script({ content: 'For your knee I recommend a secret incognito brace.' });
    unwrap(await client.call('chat.send', { text: 'knee brace?', incognito: true }));
    // An answer the user regenerated away, and a question edited away: versions the user left.
    fake.script({ content: 'For your knee I recommend the discarded stretching plan.' }, { content: 'Try swimming instead.' });
    const other = unwrap(await client.call('chat.send', { text: 'Any other ideas?' }));
    unwrap(await client.call('chat.regenerate', { messageId: other.assistantMessage.id }));
    fake.script({ content: 'Noted.' }, { content: 'Noted again.' });
    const edited = unwrap(await client.call('chat.send', { text: 'My knee clicks when I recommend cycling' }));
    unwrap(await client.call('chat.edit', { messageId: edited.userMessage.id, text: 'Never mind.' }));
    // A failed answer (the server breaks off) keeps what it streamed, but is not what the assistant said.
    fake.script({ content: 'For your knee I recommend a broken-off plan that never finished.' });
    fake.setFault({ kind: 'error-mid-stream', afterChunks: 10 });
    const failed = await client.call('chat.send', { text: 'What about the knee recommendation?' });
    expect(failed.ok).toBe(false);

    const question = 'What did you recommend for my knee last month?';
    fake.script({ toolCalls: [{ name: 'search_conversations', arguments: { query: question } }] }, { content: 'I recommended quad sets and ice.' });
    const r = unwrap(await client.call('chat.send', { text: question }));
    expect(r.assistantMessage.content).toBe('I recommended quad sets and ice.');

    const found = toolText(fake.requests.filter((q) => q.path === '/api/chat').at(-1));
    expect(found).toContain(`you answered: ${KNEE_ADVICE}`);
    expect(found).toContain('the user wrote: My knee hurts after running');
    expect(found).not.toContain('incognito');
    expect(found).not.toContain('discarded');
    expect(found).not.toContain('clicks');
    expect(found).not.toContain('broken-off');

    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    const messages = context.tools.searches[0]!.messages;
    expect(messages).toContainEqual(expect.objectContaining({ messageId: knee.assistantMessage.id, threadId: knee.threadId, role: 'assistant' }));
    expect(messages).toContainEqual(expect.objectContaining({ messageId: knee.userMessage.id, role: 'user' }));
    // The receipt under the answer, as read back with the thread.
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.receipts.find((x) => x.messageId === r.assistantMessage.id)!.searches![0]!.messages).toEqual(messages);

    // Deleted: the thread's answers are gone from the search as its questions are.
    unwrap(await client.call('thread.delete', { threadId: knee.threadId }));
    fake.script({ toolCalls: [{ name: 'search_conversations', arguments: { query: 'knee recommend quad' } }] }, { content: 'I do not know.' });
    unwrap(await client.call('chat.send', { text: 'And the quad sets?' }));
    expect(toolText(fake.requests.filter((q) => q.path === '/api/chat').at(-1))).not.toContain('quad sets twice');
  });

  it('mnemo thread search finds an answer and says it is Mnemo’s', { timeout: 120_000 }, async () => {
    const fake = await startFakeOllama();
    try {
      const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };
      fake.script({ content: KNEE_ADVICE });
      expect((await runCliInProcess(['chat', 'My knee hurts'], env)).code).toBe(0);
      const plain = await runCliInProcess(['thread', 'search', 'quad sets'], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toMatch(/#2 {2}thread 1 .* Mnemo\n {4}For your knee I recommend quad sets/);
      const json = await runCliInProcess(['thread', 'search', '--json', 'knee'], env);
      expect(JSON.parse(json.stdout).map((h: { message: { role: string } }) => h.message.role).sort()).toEqual(['assistant', 'user']);
    } finally {
      await fake.close();
    }
  });
});
