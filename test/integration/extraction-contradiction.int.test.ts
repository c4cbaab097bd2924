/**
 * A new value of a single-valued fact (where the user lives, who employs them) supersedes the old one even when the
 * model leaves `replaces` out, as small models do (extraction/fact-slot.ts). Through the real extraction job and
 * queue, a fake Ollama whose model never fills `replaces`, and no semantic search (the offline default).
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const isTitle = (r: FakeInferenceRequest) => r.purpose === 'title';

/** The model's answer per user message: [words in the message, content, evidence]; never a `replaces`. */
type Answers = Array<[string, string, string]>;

describe('a new value of a single-valued fact supersedes the old one without the model saying so', () => {
  const tempDir = useTempDirs();

  async function setup(answers: Answers) {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: null, startQueue: false } });
    h.fake.setDefaultReply((req) => {
      if (isTitle(req)) return { content: 'A title' };
      if (!isExtraction(req)) return { content: 'That is good to know, thanks for telling me about it!' };
      const exchange = req.messages.at(-1)!.content;
      const user = JSON.parse(`"${/"user": "((?:[^"\\]|\\.)*)"/.exec(exchange)?.[1] ?? ''}"`) as string;
      const memories = answers
        .filter(([words]) => user.includes(words))
        .map(([, content, evidence]) => ({ content, category: 'knowledge', importance: 0.8, confidence: 0.9, validity: 'permanent', evidence }));
      return { content: JSON.stringify({ memories }) };
    });
    const { client, core, fake } = h;
    const say = async (text: string) => {
      unwrap(await client.call('chat.send', { text }));
      await core.queue.runUntilIdle();
    };
    const active = async () => unwrap(await client.call('memory.list', {})).items;
    /** The memories the chat model was given for a question (the system message of its last request). */
    const promptFor = async (question: string) => {
      unwrap(await client.call('chat.send', { text: question }));
      const chat = fake.requests.filter((r) => r.purpose === 'chat').at(-1)!;
      return (chat.body as { messages: Array<{ role: string; content: string }> }).messages[0]!.content;
    };
    return { client, core, say, active, promptFor };
  }

  it('moved city: Porto is superseded by Berlin, and only Berlin reaches the next prompt', async () => {
    const { client, say, active, promptFor } = await setup([
      ['Porto', 'Lives in Porto', 'I live in Porto'],
      ['Berlin', 'Moved to Berlin', 'I moved to Berlin'],
    ]);
    await say('I live in Porto, close to the river, and I love it.');
    const [porto] = await active();
    expect(porto).toMatchObject({ content: 'Lives in Porto' });
    await say('Big news: I moved to Berlin last month for a new job.');
    const now = await active();
    expect(now.map((m) => m.content)).toEqual(['Moved to Berlin']);
    const old = unwrap(await client.call('memory.get', { memoryId: porto!.id }));
    expect(old.memory).toMatchObject({ status: 'superseded', supersededBy: now[0]!.id });
    expect(old.versions.map((v) => [v.reason, v.origin])).toEqual([['created', 'extraction'], ['superseded', 'extraction']]);
    const events = unwrap(await client.call('timeline.list', { limit: 5 })).events.map((e) => [e.kind, e.memoryId]);
    expect(events).toContainEqual(['superseded', porto!.id]);

    const prompt = await promptFor('Where do I live now, in Porto or in Berlin?');
    expect(prompt).toContain('Moved to Berlin');
    expect(prompt).not.toContain('Lives in Porto');
  });

  it('the supersede is told both ways: the old memory names what replaced it (in its history), the new one what it replaced', async () => {
    const { client, say, active } = await setup([
      ['Lisbon', 'The user lives in Lisbon', 'I live in Lisbon'],
      ['杭州', '用户住在杭州', '我住在杭州'],
    ]);
    await say('I live in Lisbon, near the sea.');
    const [lisbon] = await active();
    await say('我住在杭州，离西湖不远。');
    const [hangzhou] = await active();
    expect(hangzhou).toMatchObject({ content: '用户住在杭州' });

    // The chat's chips: the old message's learned memory is listed with what replaced it (memory.list by source).
    const learned = unwrap(await client.call('memory.list', { sourceMessageId: lisbon!.sourceMessageId!, statuses: ['active', 'review', 'archived', 'superseded'] })).items;
    expect(learned).toEqual([expect.objectContaining({ id: lisbon!.id, status: 'superseded', supersededBy: hangzhou!.id })]);

    const old = unwrap(await client.call('memory.get', { memoryId: lisbon!.id }));
    const retired = old.versions.find((v) => v.reason === 'superseded')!;
    expect(old.replacedBy).toEqual([{ version: retired.version, memory: { id: hangzhou!.id, content: '用户住在杭州', status: 'active' } }]);
    expect(old.replaces).toEqual([]);
    const now = unwrap(await client.call('memory.get', { memoryId: hangzhou!.id }));
    expect(now.replaces).toEqual([{ id: lisbon!.id, content: 'The user lives in Lisbon', status: 'superseded' }]);
    expect(now.replacedBy).toEqual([]);

    // The successor in the trash: still named, and said to be there; purged: the history keeps the fact, without a memory to open.
    unwrap(await client.call('memory.delete', { memoryId: hangzhou!.id }));
    expect(unwrap(await client.call('memory.get', { memoryId: lisbon!.id })).replacedBy).toEqual([{ version: retired.version, memory: expect.objectContaining({ id: hangzhou!.id, status: 'trashed' }) }]);
    unwrap(await client.call('memory.purge', { memoryId: hangzhou!.id }));
    expect(unwrap(await client.call('memory.get', { memoryId: lisbon!.id })).replacedBy).toEqual([{ version: retired.version, memory: null }]);
  });

  it('new employer, in Chinese: 阿里巴巴 is superseded by 腾讯', async () => {
    const { client, say, active, promptFor } = await setup([
      ['阿里巴巴', '在阿里巴巴上班', '我在阿里巴巴上班'],
      ['腾讯', '在腾讯上班', '我现在在腾讯上班'],
    ]);
    await say('我在阿里巴巴上班，每天都很忙，经常加班到很晚。');
    const [alibaba] = await active();
    await say('告诉你一个消息：我现在在腾讯上班了，环境很不错。');
    expect((await active()).map((m) => m.content)).toEqual(['在腾讯上班']);
    expect(unwrap(await client.call('memory.get', { memoryId: alibaba!.id })).memory.status).toBe('superseded');
    const prompt = await promptFor('我现在在哪里上班？');
    expect(prompt).toContain('在腾讯上班');
    expect(prompt).not.toContain('在阿里巴巴上班');
  });

  it('an unrelated fact, someone else\'s city and a past one leave the first active', async () => {
    const { say, active } = await setup([
      ['live in Porto', 'Lives in Porto', 'I live in Porto'],
      ['cat', 'Has a cat named Mochi', 'I have a cat named Mochi'],
      ['sister', 'Sister lives in Lisbon', 'My sister lives in Lisbon'],
      ['used to', 'Lived in Paris', 'I used to live in Paris'],
    ]);
    await say('I live in Porto, close to the river, and I love it.');
    await say('I have a cat named Mochi who sleeps all day long.');
    await say('My sister lives in Lisbon, so I visit her often.');
    await say('I used to live in Paris when I was a student.');
    expect((await active()).map((m) => m.content).sort()).toEqual(['Has a cat named Mochi', 'Lived in Paris', 'Lives in Porto', 'Sister lives in Lisbon']);
  });

  it('the same value in other words is one memory, not two', async () => {
    const { say, active } = await setup([
      ['live in Porto', 'Lives in Porto', 'I live in Porto'],
      ['moved to Porto', 'Moved to Porto last year', 'we moved to Porto last year'],
    ]);
    await say('I live in Porto, close to the river, and I love it.');
    await say('Yes, we moved to Porto last year and we are very happy.');
    expect((await active()).map((m) => m.content)).toEqual(['Moved to Porto last year']);
  });

  it('in ask-first mode the new value waits in review showing what it replaces; approving supersedes', async () => {
    const { client, say, active } = await setup([
      ['Porto', 'Lives in Porto', 'I live in Porto'],
      ['Berlin', 'Moved to Berlin', 'I moved to Berlin'],
    ]);
    await say('I live in Porto, close to the river, and I love it.');
    const [porto] = await active();
    unwrap(await client.call('settings.update', { patch: { memoryMode: 'ask' } }));
    await say('Big news: I moved to Berlin last month for a new job.');
    expect((await active()).map((m) => m.content)).toEqual(['Lives in Porto']);
    const [berlin] = unwrap(await client.call('review.list', {})).items;
    expect(berlin).toMatchObject({ content: 'Moved to Berlin', status: 'review', replaces: { id: porto!.id, content: 'Lives in Porto' } });
    unwrap(await client.call('review.approve', { memoryId: berlin!.id }));
    expect((await active()).map((m) => m.content)).toEqual(['Moved to Berlin']);
    expect(unwrap(await client.call('memory.get', { memoryId: porto!.id })).memory).toMatchObject({ status: 'superseded', supersededBy: berlin!.id });
  });
});
