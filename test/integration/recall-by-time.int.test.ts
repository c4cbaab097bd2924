/**
 * Questions as people ask them, through the real core on real SQLite and the real Ollama adapter talking to the fake
 * Ollama, with a clock the test moves: a time phrase is a filter, not words to match ("the dentist last week" finds
 * what "the dentist" finds); a question about a time gets that time's episodes and memories; a question of two parts
 * gets each part's memories; the memory tools take a date range, and a search whose matches the prompt already holds
 * says so.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { Settings } from '../../shared/contract';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const MINUTE = 60_000;
type Body = { messages: Array<{ role: string; content: string; tool_name?: string }> };

describe('recall by time', () => {
  const tempDir = useTempDirs();

  /**
   * What the user told Mnemo: where they work (in December), two dentist notes, one in Chinese, and a bicycle, and a
   * conversation about Lisbon (last week, Wednesday 2026-01-07); asked on Wednesday 2026-01-14 in Shanghai.
   */
  async function harness(settings: Partial<Settings> = {}) {
    const clock = { at: Date.UTC(2025, 11, 10, 2, 0), now: () => clock.at };
    // Keyword search only (no embedder): what is found follows from the words alone.
    const h = await harnesses.ollama(tempDir(), { core: { clock, embedder: null } });
    const { client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { timeZone: 'Asia/Shanghai', workingMemoryEnabled: false, profileEnabled: false, ...settings } }));
    fake.setDefaultReply((req) => {
      if (req.purpose === 'episode') return { content: 'Lisbon trip in May\nWanted: a plan for a week in Lisbon in May, trains from Porto.' };
      if (req.purpose === 'title') return { content: 'Lisbon' };
      // Extraction learns nothing here: the memories are the test's own.
      return { content: '[]' };
    });
    const after = async (ms: number) => {
      clock.at += ms;
      h.core.queue.poke();
      await h.core.queue.waitForIdle();
    };
    const create = async (content: string, extra: { pinned?: boolean } = {}) => unwrap(await client.call('memory.create', { content, ...extra })).id;

    const work = await create('Works as a nurse at St. Mary’s hospital');
    clock.at = Date.UTC(2026, 0, 7, 2, 0); // Wednesday 2026-01-07, 10:00 in Shanghai
    const dentist = [await create('The dentist said my wisdom tooth has to come out'), await create('Dentist appointment moved to Friday at 9')];
    const dentistZh = await create('牙医说我的智齿要拔掉');
    const bicycle = await create('Bought a red bicycle for commuting');
    const lisbon = unwrap(await client.call('chat.send', { text: 'Help me plan a trip to Lisbon in May.' }));
    await after(31 * MINUTE); // the thread goes quiet: its episode is written
    expect(unwrap(await client.call('episode.list', {})).episodes.map((e) => e.title)).toEqual(['Lisbon trip in May']);
    clock.at = Date.UTC(2026, 0, 14, 2, 0); // Wednesday 2026-01-14, 10:00 in Shanghai
    const ask = async (text: string) => {
      const before = fake.requests.length;
      const r = unwrap(await client.call('chat.send', { text }));
      const chats = fake.requests.slice(before).filter((q) => q.path === '/api/chat').map((q) => q.body as Body);
      return { ...r, used: r.memoriesUsed.map((m) => m.memoryId), system: chats[0]!.messages[0]!.content, chats };
    };
    return { ...h, clock, ask, create, ids: { work, dentist, dentistZh, bicycle }, lisbon };
  }

  it('a time phrase is a filter: "the dentist last week" finds what "the dentist" finds, in English and Chinese', async () => {
    const { ask, ids } = await harness();
    const plain = await ask('What did I tell you about the dentist?');
    expect(plain.used).toEqual(expect.arrayContaining(ids.dentist));
    const lastWeek = await ask('What did I tell you about the dentist last week?');
    expect(lastWeek.used).toEqual(expect.arrayContaining(ids.dentist));
    expect(lastWeek.used).not.toContain(ids.work);
    const zh = await ask('上周我跟你说过牙医的什么？');
    expect(zh.used).toContain(ids.dentistZh);
    expect(zh.system).toContain('牙医说我的智齿要拔掉');
  });

  it('a question of two parts gets each part’s memories', async () => {
    const { ask, ids } = await harness();
    const r = await ask('Where do I work, and what did the dentist say last week?');
    expect(r.used).toEqual(expect.arrayContaining([ids.work, ...ids.dentist]));
    // A part about something the store does not hold does not keep the other part's memory out.
    const unknown = await ask('Where do I work, and what is my blood type?');
    expect(unknown.used).toEqual([ids.work]);
    const zh = await ask('我在哪里工作？还有牙医上周说了什么？');
    expect(zh.used).toContain(ids.dentistZh);
  });

  it('"What did we talk about last week?" gets that week’s episodes and memories, with no topic word', async () => {
    const { ask, ids, client, lisbon } = await harness();
    const r = await ask('What did we talk about last week?');
    // What the model saw, and the receipt under the answer, name the episode it carried: why it knew about Lisbon.
    const lisbonEpisode = { episodeId: expect.any(Number), threadId: lisbon.threadId, threadTitle: 'Lisbon', title: 'Lisbon trip in May', startedAt: lisbon.userMessage.createdAt };
    expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.recalled).toEqual({ episodes: [lisbonEpisode], forgotten: 0 });
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.receipts.find((x) => x.messageId === r.assistantMessage.id)!.recalled).toEqual([lisbonEpisode]);
    expect(r.system).toContain('Earlier conversations from the time the user asks about');
    expect(r.system).toContain('2026-01-07, in "Lisbon": Lisbon trip in May: Wanted: a plan for a week in Lisbon in May');
    expect(r.used).toEqual(expect.arrayContaining([ids.bicycle, ...ids.dentist]));
    expect(r.used).not.toContain(ids.work);
    // Two weeks ago holds nothing: no episode, no memory from the window.
    const before = await ask('What did we talk about two weeks ago?');
    expect(before.system).not.toContain('Lisbon');
    expect(unwrap(await client.call('chat.context', { messageId: before.assistantMessage.id }))!.recalled.episodes).toEqual([]);
    // 上周 is the same week.
    const zh = await ask('上周我们聊了什么？');
    expect(zh.system).toContain('Lisbon trip in May');
  });

  it('the memory tools take a date range and read the time in a query; a search the prompt already answers says so', async () => {
    const { ask, fake, client, ids, create } = await harness({ memoryAccess: 'tools' });
    const pinned = await create('The dentist’s name is Dr. Okafor', { pinned: true });
    fake.script(
      {
        toolCalls: [
          { name: 'search_memory', arguments: { query: 'dentist last week' } },
          { name: 'search_conversations', arguments: { query: '', from: '2026-01-05', to: '2026-01-11' } },
          { name: 'search_memory', arguments: { query: 'Okafor' } },
        ],
      },
      { content: 'Your dentist said the wisdom tooth has to come out.' },
    );
    const r = await ask('What did the dentist tell me?');
    const [memories, conversations, okafor] = r.chats[1]!.messages.filter((m) => m.role === 'tool');
    // A time in the query orders: last week's dentist memories first; this week's (pinned, in the prompt) after them.
    expect(memories!.content.split('\n').slice(0, 3)).toEqual([
      'Memories matching "dentist last week" (2026-01-05 to 2026-01-11 first): 1 of the matches is already in the long-term memory notes above (not repeated here); the others:',
      expect.stringMatching(/^- \[knowledge\] (The dentist said my wisdom tooth has to come out|Dentist appointment moved to Friday at 9)$/),
      expect.stringMatching(/^- \[knowledge\] (The dentist said my wisdom tooth has to come out|Dentist appointment moved to Friday at 9)$/),
    ]);
    // A date range is a filter: last week's conversation, the question and its answer.
    expect(conversations!.content).toContain('Help me plan a trip to Lisbon in May.');
    expect(conversations!.content).not.toContain('What did the dentist tell me?');
    expect(okafor!.content).toBe('Memories matching "Okafor": 1 of the matches is already in the long-term memory notes above (not repeated here).');
    expect(r.used).toEqual(expect.arrayContaining([pinned, ...ids.dentist]));
    // The receipt counts the pinned match as found, marked as already in the prompt.
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools.searches.map((s) => [s.query, s.memoryIds.length, s.inPrompt])).toEqual([
      ['dentist last week', 3, 1],
      ['', 0, 0],
      ['Okafor', 1, 1],
    ]);
    expect(context.tools.searches[1]!.messages.map((m) => m.role).sort()).toEqual(['assistant', 'user']);
  });
});
