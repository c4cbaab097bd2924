/**
 * Forgetting by asking, through the real chat service on real SQLite, the real Ollama adapter talking to the fake
 * Ollama: the request in the user's message (text/forget-request.ts) or the model's forget_memory call moves what it
 * means to the trash (memory/memory-forget.ts), the answer's notice says so (Undo restores), the model is told in the
 * same request, and nothing of it is learned, not even from an older exchange still waiting to be learned.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage, Settings } from '../../shared/contract';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { startFakeOllama } from '../fakes/fake-ollama';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type WireMessage = { role: string; content: string };
const wire = (q: { body: unknown } | undefined) => q!.body as { tools?: Array<{ function: { name: string } }>; messages: WireMessage[] };
const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';

describe('forget by asking', () => {
  const tempDir = useTempDirs();

  /** Keyword search only (no embedder): what a request finds follows from its words. extract: the extraction's answer. */
  async function harness(settings: Partial<Settings> = {}, extract: (userText: string) => string = () => JSON.stringify({ memories: [] })) {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, embedder: null } });
    if (Object.keys(settings).length > 0) unwrap(await h.client.call('settings.update', { patch: settings }));
    h.fake.setDefaultReply((req) => {
      if (isExtraction(req)) {
        const exchange = req.messages.at(-1)!.content;
        const user = /"user": "((?:[^"\\]|\\.)*)"/.exec(exchange)?.[1] ?? '';
        return { content: extract(JSON.parse(`"${user}"`)) };
      }
      return { content: 'Done.' };
    });
    const events: EventMessage[] = [];
    h.core.subscribe((m) => events.push(m));
    const chats = () => h.fake.requests.filter((q) => q.path === '/api/chat' && q.purpose !== 'extract');
    return { ...h, events, chats };
  }

  it('"Forget that I live in Berlin": the one memory goes to the trash, the model is told in its one request, Undo restores it', async () => {
    const { core, client, events, chats } = await harness();
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    const job = unwrap(await client.call('memory.create', { content: 'Works as a nurse' }));

    const r = unwrap(await client.call('chat.send', { text: 'Please forget that I live in Berlin.' }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Done.' });

    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('trashed');
    expect(unwrap(await client.call('memory.get', { memoryId: job.id })).memory.status).toBe('active');
    // One model request, which carries what happened as data (and not the forgotten memory as something to use).
    expect(chats()).toHaveLength(1);
    const system = wire(chats()[0]).messages[0]!.content;
    expect(system).toMatch(/moved what the user asked to forget to its trash[\s\S]*```text\nasked to forget: I live in Berlin\nforgotten: Lives in Berlin\n```/);
    const notice = { via: 'message', request: 'I live in Berlin', trashed: [berlin.id], candidates: [] };
    expect(events.find((e) => e.event === 'message.completed' && (e.payload as { message: { role: string } }).message.role === 'assistant')?.payload).toMatchObject({ forgets: [notice] });
    // Kept with the answer: the thread read again (after a restart) shows the notice, and so does the terminal's context.
    expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.forgets).toEqual([notice]);
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.receipts.find((x) => x.messageId === r.assistantMessage.id)?.forgets).toEqual([notice]);
    // The timeline says it was forgotten on request, from which message.
    const deleted = unwrap(await client.call('timeline.list', { kinds: ['deleted'] })).events.find((e) => e.memoryId === berlin.id);
    expect(deleted?.data).toMatchObject({ forgotten: r.userMessage.id });
    // Never learned from: no extraction job for this exchange.
    expect(core.queue.list({ limit: 50 }).filter((j) => j.kind === 'extract')).toEqual([]);

    unwrap(await client.call('memory.bulk', { action: 'restore', memoryIds: [berlin.id] }));
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('active');
  });

  it('忘掉我住在柏林: the Chinese memory goes to the trash', async () => {
    const { client, chats } = await harness();
    const berlin = unwrap(await client.call('memory.create', { content: '住在柏林' }));
    const tea = unwrap(await client.call('memory.create', { content: '喜欢喝绿茶' }));
    const r = unwrap(await client.call('chat.send', { text: '请忘掉我住在柏林这件事' }));
    expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.forgets).toEqual([{ via: 'message', request: '我住在柏林', trashed: [berlin.id], candidates: [] }]);
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('trashed');
    expect(unwrap(await client.call('memory.get', { memoryId: tea.id })).memory.status).toBe('active');
    expect(wire(chats()[0]).messages[0]!.content).toContain('forgotten: 住在柏林');
  });

  it('several matches: nothing is trashed, the user is offered them, and picks one', async () => {
    const { client, chats } = await harness();
    const lives = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    const born = unwrap(await client.call('memory.create', { content: 'Was born in Berlin' }));
    const cat = unwrap(await client.call('memory.create', { content: 'Has a cat called Miso' }));
    const r = unwrap(await client.call('chat.send', { text: 'Forget everything you know about Berlin' }));
    const [notice] = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.forgets;
    expect(notice).toMatchObject({ via: 'message', request: 'Berlin', trashed: [] });
    expect([...notice!.candidates].sort()).toEqual([lives.id, born.id].sort());
    for (const m of [lives, born, cat]) expect(unwrap(await client.call('memory.get', { memoryId: m.id })).memory.status).toBe('active');
    expect(wire(chats()[0]).messages[0]!.content).toMatch(/Several memories match[\s\S]*matches: /);
    // The picker: one of them to the trash.
    unwrap(await client.call('memory.bulk', { action: 'delete', memoryIds: [born.id] }));
    expect(unwrap(await client.call('memory.get', { memoryId: born.id })).memory.status).toBe('trashed');
  });

  it('nothing matches: nothing is deleted and the model is told to say so', async () => {
    const { client, chats } = await harness();
    const cat = unwrap(await client.call('memory.create', { content: 'Has a cat called Miso' }));
    const r = unwrap(await client.call('chat.send', { text: 'Forget that I have a dog' }));
    expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.forgets).toEqual([{ via: 'message', request: 'I have a dog', trashed: [], candidates: [] }]);
    expect(unwrap(await client.call('memory.get', { memoryId: cat.id })).memory.status).toBe('active');
    expect(wire(chats()[0]).messages[0]!.content).toContain('No memory matches what the user asked to forget');
  });

  it('an older exchange waiting to be learned does not bring a forgotten memory back, in other words either', async () => {
    const { core, client } = await harness({}, (user) =>
      user.includes('Berlin') ? JSON.stringify({ memories: [{ content: 'The user lives in Berlin', category: 'knowledge', importance: 0.8, confidence: 0.9, validity: 'permanent', evidence: 'I live in Berlin' }] }) : JSON.stringify({ memories: [] }),
    );
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    unwrap(await client.call('chat.send', { text: 'I live in Berlin, near the river.' }));
    unwrap(await client.call('chat.send', { text: 'Forget that I live in Berlin' }));
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('trashed');
    await core.queue.runUntilIdle();
    const active = unwrap(await client.call('memory.list', {})).items;
    expect(active.filter((m) => m.content.includes('Berlin'))).toEqual([]);
  });

  it('a regenerated answer forgets nothing again, and extraction never learns the sentence (no model call for it)', async () => {
    const { core, client, fake } = await harness({}, () =>
      JSON.stringify({ memories: [{ content: 'Wants Mnemo to forget that they live in Berlin', category: 'preference', importance: 0.8, confidence: 0.9, validity: 'permanent', evidence: 'forget that I live in Berlin' }] }),
    );
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    const r = unwrap(await client.call('chat.send', { text: 'Forget that I live in Berlin' }));
    unwrap(await client.call('memory.bulk', { action: 'restore', memoryIds: [berlin.id] }));
    // The answer again: the question is not asked again, so the memory the user brought back stays; this answer's
    // extraction is queued like any other's, and skips the sentence.
    const again = unwrap(await client.call('chat.regenerate', { messageId: r.assistantMessage.id }));
    expect(unwrap(await client.call('chat.context', { messageId: again.assistantMessage.id }))!.forgets).toEqual([]);
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('active');
    expect(core.queue.list({ limit: 50 }).filter((j) => j.kind === 'extract')).toHaveLength(1);
    await core.queue.runUntilIdle();
    expect(fake.requests.filter((q) => q.purpose === 'extract')).toEqual([]);
    expect(unwrap(await client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['Lives in Berlin']);
  });

  it('a tool-capable model forgets with forget_memory: the same rule, the same notice, never learned from', async () => {
    const { core, client, fake } = await harness({ memoryAccess: 'tools' });
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    fake.script({ toolCalls: [{ name: 'forget_memory', arguments: { query: 'lives in Berlin' } }] }, (request) => {
      const told = wire(request).messages.filter((m) => m.role === 'tool')[0]?.content ?? '';
      return { content: told.includes('forgotten: Lives in Berlin') ? 'Forgotten.' : 'Could not.' };
    });
    // Not a request the message rule reads: the model decides.
    const r = unwrap(await client.call('chat.send', { text: 'I moved away from Berlin, so drop that from what you keep about me.' }));
    expect(r.assistantMessage.content).toBe('Forgotten.');
    expect(wire(fake.requests.find((q) => q.path === '/api/chat')).tools?.map((t) => t.function.name)).toContain('forget_memory');
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('trashed');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.forgets).toEqual([{ via: 'tool', request: 'lives in Berlin', trashed: [berlin.id], candidates: [] }]);
    // A forget, not a search: the receipt lists no search for it.
    expect(context.tools.searches).toEqual([]);
    const deleted = unwrap(await client.call('timeline.list', { kinds: ['deleted'] })).events.find((e) => e.memoryId === berlin.id);
    expect(deleted?.data).toMatchObject({ forgotten: null });
    expect(core.queue.list({ limit: 50 }).filter((j) => j.kind === 'extract')).toEqual([]);
  });

  it('the terminal prints what was forgotten and how to undo it, or the candidates and how to trash one', async () => {
    const fake = await startFakeOllama();
    try {
      const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };
      for (const content of ['Lives in Berlin', 'Was born in Hamburg', 'Studied in Hamburg']) expect((await runCliInProcess(['memory', 'add', content], env)).code).toBe(0);
      fake.script({ content: 'Forgotten.' });
      const one = await runCliInProcess(['chat', 'Please forget that I live in Berlin'], env);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toContain('Forgotten (moved to the trash):\n  #1 Lives in Berlin\nUndo: memory restore 1');
      fake.script({ content: 'Which one?' });
      const several = await runCliInProcess(['chat', 'Forget what you know about Hamburg'], env);
      expect(several.stderr).toContain('Several memories match “Hamburg”; nothing was forgotten yet:');
      expect(several.stderr).toMatch(/#2 Was born in Hamburg[\s\S]*To forget one: memory delete ID/);
      fake.script({ content: 'Nothing.' });
      const none = await runCliInProcess(['chat', 'Forget that I have a dog'], env);
      expect(none.stderr).toContain('Nothing in memory matched “I have a dog”; nothing was forgotten.');
    } finally {
      await fake.close();
    }
  });

  it('a tool-capable model is not offered forget_memory when the question’s own request was already done', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    fake.script({ content: 'Forgotten.' });
    unwrap(await client.call('chat.send', { text: 'Forget that I live in Berlin' }));
    expect(wire(fake.requests.find((q) => q.path === '/api/chat')).tools?.map((t) => t.function.name)).toEqual(['search_memory', 'search_conversations']);
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('trashed');
  });

  it('an incognito thread forgets nothing', async () => {
    const { client } = await harness();
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    const r = unwrap(await client.call('chat.send', { text: 'Forget that I live in Berlin', incognito: true }));
    expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.forgets).toEqual([]);
    expect(unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status).toBe('active');
  });
});
