/**
 * Episodes through the core on real SQLite and a fake Ollama, with a clock the test moves (no waiting): written when
 * a thread goes quiet, rewritten (a version kept) when its stretch goes on, a new one after a long gap, none for
 * incognito threads, the user's edit kept as the base, gone with their thread, found by keyword in Chinese and
 * English, cleaned of a model's thinking and fences, in the user's language, and idempotent when run twice.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { useChatHarnesses } from '../support/chat-harness';
import { usageFor } from '../support/model-usage';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const MINUTE = 60_000;
type Body = { messages: Array<{ role: string; content: string }> };

describe('episodes', () => {
  const tempDir = useTempDirs();

  async function harness(episodeAnswer: (prompt: string, messages: Body['messages']) => string) {
    const clock = { at: Date.UTC(2026, 10, 2, 9, 0), now: () => clock.at };
    const h = await harnesses.ollama(tempDir(), { core: { clock } });
    // Working memory off: its update after each exchange is queued work of its own (focus.int.test.ts covers it).
    unwrap(await h.client.call('settings.update', { patch: { memoryMode: 'off', workingMemoryEnabled: false, timeZone: 'UTC' } }));
    h.fake.setDefaultReply((req) => {
      if (req.purpose === 'episode') return { content: episodeAnswer(req.messages[0]!.content, req.messages) };
      if (req.purpose === 'title') return { content: 'A title' };
      return { content: 'Noted.' };
    });
    const episodeRequests = () =>
      h.fake.requests.filter((r) => r.purpose === 'episode').map((r) => (r.body as Body).messages);
    /** Moves the clock and lets every job due by then run. */
    async function after(ms: number) {
      clock.at += ms;
      h.core.queue.poke();
      await h.core.queue.waitForIdle();
    }
    const send = async (text: string, threadId?: number) => unwrap(await h.client.call('chat.send', { text, ...(threadId ? { threadId } : {}) }));
    const list = async (input: { threadId?: number; query?: string; status?: 'active' | 'trashed' } = {}) => unwrap(await h.client.call('episode.list', input)).episodes;
    return { ...h, clock, episodeRequests, after, send, list };
  }

  it('is written once the thread is quiet, rewritten (a version kept) while its stretch goes on, and a long gap starts a new one', async () => {
    let n = 0;
    const { send, after, list, client, episodeRequests } = await harness(() => `Lisbon trip, part ${++n}\nWanted: a plan for May.\nPlaces: Lisbon`);
    const { threadId } = await send('Help me plan a trip to Lisbon in May.');
    // The episode waits for the thread to go quiet: scheduled, but not "queued" work for the status bar.
    expect(unwrap(await client.call('queue.list', { status: ['queued'] })).jobs.filter((j) => j.kind === 'episode')).toHaveLength(1);
    expect(unwrap(await client.call('queue.status', {})).queued).toBe(0);
    await after(20 * MINUTE);
    expect(await list()).toEqual([]); // not quiet yet
    await send('Also book a train from Porto.', threadId);
    await after(20 * MINUTE);
    expect(await list()).toEqual([]); // the second exchange pushed the quiet time back
    await after(11 * MINUTE);
    const [first] = await list();
    expect(first).toMatchObject({ threadId, title: 'Lisbon trip, part 1', content: 'Wanted: a plan for May.\nPlaces: Lisbon', version: 1, editedByUser: false });
    const prompt = episodeRequests()[0]![0]!.content;
    expect(prompt).toContain('User: Help me plan a trip to Lisbon in May.');
    expect(prompt).toContain('User: Also book a train from Porto.');

    // The user asks for the episode now, then the stretch goes on: the quiet job rewrites the same episode.
    await send('What about hotels?', threadId);
    unwrap(await client.call('episode.refresh', { threadId }));
    await after(0);
    await send('Near the river, please.', threadId);
    await after(31 * MINUTE);
    const rewritten = await list({ threadId });
    expect(rewritten).toHaveLength(2); // the first stretch's, and the one that began after the long gap
    const current = rewritten[0]!;
    expect(current.version).toBe(2);
    const { versions } = unwrap(await client.call('episode.get', { id: current.id }));
    expect(versions.map((v) => [v.version, v.reason])).toEqual([
      [2, 'rewritten'],
      [1, 'written'],
    ]);
    expect(episodeRequests().at(-1)![0]!.content).toContain('The conversation went on since the current episode was written');

    // Each write is on the timeline, with ids only.
    const events = unwrap(await client.call('timeline.list', { kinds: ['episode_written'] })).events;
    expect(events).toHaveLength(3);
    expect(JSON.stringify(events)).not.toContain('Lisbon');
    // Every episode request went through the background-model gateway: it counted each of them.
    expect((await usageFor(client, 'episode')).requests).toBe(episodeRequests().length);
    expect(episodeRequests().length).toBeGreaterThanOrEqual(3);
  });

  it('tells the conversation as shown: a question edited away, its answer and a summary of that version are not in the prompt', async () => {
    const { send, after, client, episodeRequests, core } = await harness(() => 'Drinks tonight\nWanted: something to drink tonight.');
    // A message too long for the episode's transcript: what is left out is told by the thread summary.
    const long = await send('Planning my evening at home.');
    await send(`My reading notes: ${'the harbour, the ferries and the old town walls. '.repeat(1500)}`, long.threadId);
    const sent = await send('I would like some green tea tonight.', long.threadId);
    unwrap(await client.call('chat.edit', { messageId: sent.userMessage.id, text: 'I would like some espresso tonight.' }));
    await core.queue.waitForIdle();
    // The summary as the summary job wrote it over the first version, before the edit (words the test looks for).
    const db = new Database(core.paths.dbFile);
    try {
      db.prepare(
        `INSERT INTO thread_summaries (thread_id, content, from_message_id, to_message_id, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(thread_id) DO UPDATE SET content = excluded.content, from_message_id = excluded.from_message_id, to_message_id = excluded.to_message_id`,
      ).run(
        sent.threadId,
        'The user wants green tea.',
        long.userMessage.id,
        sent.assistantMessage.id,
        Date.UTC(2026, 10, 2, 9, 0),
      );
    } finally {
      db.close();
    }
    await after(31 * MINUTE);
    expect(episodeRequests()).toHaveLength(1);
    const prompt = episodeRequests()[0]!.map((m) => m.content).join('\n');
    expect(prompt).toContain('I would like some espresso tonight.');
    expect(prompt).not.toContain('green tea');
  });

  it('keeps no secret the model repeats, and is idempotent: the job run again for a stretch its episode already covers asks nothing and writes nothing', async () => {
    // The model repeats a secret the user typed: that line never reaches the episode (secret-detector.ts).
    const { send, after, list, core, episodeRequests } = await harness(() => 'Tea\nTalked about green tea.\nThe wifi password is hunter2hunter2');
    const { threadId, userMessage } = await send('Which green tea is best?');
    await after(31 * MINUTE);
    expect(await list()).toHaveLength(1);
    core.queue.enqueue({ kind: 'episode', payload: { fromMessageId: userMessage.id, reason: 'quiet' }, idempotencyKey: 'episode:again', threadId });
    await after(0);
    expect(episodeRequests()).toHaveLength(1);
    expect((await list())[0]).toMatchObject({ version: 1, content: 'Talked about green tea.' });
  });

  it('none for incognito threads, and none while turned off', async () => {
    const { send, after, list, client, episodeRequests } = await harness(() => 'x\ny');
    const incognito = unwrap(await client.call('thread.create', { incognito: true }));
    await send('A secret plan.', incognito.id);
    await after(31 * MINUTE);
    expect(await client.call('episode.refresh', { threadId: incognito.id })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    unwrap(await client.call('settings.update', { patch: { episodesEnabled: false } }));
    await send('Another topic.');
    await after(31 * MINUTE);
    expect(await list()).toEqual([]);
    expect(episodeRequests()).toEqual([]);
  });

  it("keeps the user's edit as the base of a rewrite, and reverts to any version", async () => {
    const { send, after, list, client, episodeRequests } = await harness((prompt) => (prompt.includes('Ana edited') ? 'Ana edited it\nKept and extended.' : 'Garden\nAsked about tomatoes.'));
    const { threadId } = await send('When do I plant tomatoes?');
    await after(31 * MINUTE);
    const [written] = await list();
    const edited = unwrap(await client.call('episode.update', { id: written!.id, title: 'Ana edited it', content: 'Tomatoes in April, says Ana.' }));
    expect(edited).toMatchObject({ editedByUser: true, version: 2 });
    unwrap(await client.call('episode.refresh', { threadId }));
    await after(0);
    const prompt = episodeRequests().at(-1)![0]!.content;
    expect(prompt).toContain('The user edited the current episode themselves');
    expect(prompt).toContain('Ana edited it\nTomatoes in April, says Ana.');
    expect((await list())[0]).toMatchObject({ title: 'Ana edited it', version: 3, editedByUser: true });
    const reverted = unwrap(await client.call('episode.revert', { id: written!.id, version: 1 }));
    expect(reverted).toMatchObject({ title: 'Garden', content: 'Asked about tomatoes.', version: 4 });
    // A secret in the user's edit is refused with the reason.
    const refused = await client.call('episode.update', { id: written!.id, content: 'My password is hunter2hunter2' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('the Markdown export lists active episodes after the memories; importing that file brings back the memories only', async () => {
    const { send, after, client } = await harness(() => 'Lisbon trip\nWanted: a plan for May.\nPlaces: Lisbon');
    unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    const { threadId } = await send('Help me plan a trip to Lisbon in May.');
    await after(31 * MINUTE);
    const thread = unwrap(await client.call('thread.get', { threadId }));
    const md = unwrap(await client.call('memory.export', { format: 'md' })).content;
    expect(md).toContain(`## Knowledge\n\n- Lives in Porto`);
    expect(md).toContain(`## Episodes\n\n### Lisbon trip\n\n_2026-11-02 · conversation “${thread.title}”_\n\nWanted: a plan for May.\nPlaces: Lisbon\n`);

    const other = await harness(() => 'unused');
    const report = unwrap(await other.client.call('memory.import', { content: md }));
    expect(report.items.map((i) => i.content)).toEqual(['Lives in Porto']);
    expect(report.written).toBe(1);
  });

  it('goes with its thread (row, versions, search entry); trash and delete forever', async () => {
    const { send, after, list, client, core } = await harness(() => 'Budget\nPlanned the household budget.');
    const a = await send('Help with my household budget.');
    await after(31 * MINUTE);
    const b = await send('Help with my budget for the car.');
    await after(31 * MINUTE);
    const [ofB, ofA] = await list();
    expect([ofA!.threadId, ofB!.threadId]).toEqual([a.threadId, b.threadId]);

    unwrap(await client.call('thread.delete', { threadId: a.threadId }));
    expect((await list()).map((e) => e.id)).toEqual([ofB!.id]);
    expect((await client.call('episode.get', { id: ofA!.id })).ok).toBe(false);

    unwrap(await client.call('episode.delete', { id: ofB!.id }));
    expect(await list()).toEqual([]);
    expect((await list({ status: 'trashed' })).map((e) => e.id)).toEqual([ofB!.id]);
    unwrap(await client.call('episode.delete', { id: ofB!.id, forever: true }));
    expect(await list({ status: 'trashed' })).toEqual([]);

    const db = new Database(path.join(core.paths.dbFile), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM episode_versions').get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH 'budget'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('is found by keyword: a Chinese one by a two-character word, an English one by another form of a word', async () => {
    const { send, after, client, list } = await harness((prompt) =>
      prompt.includes('咖啡') ? '周末去咖啡馆\n用户想找一家安静的咖啡馆写作。' : 'Billing service\nThe user deployed the billing service to staging.',
    );
    await send('周末我想找一家安静的咖啡馆写作。');
    await after(31 * MINUTE);
    await send('How do I roll out the billing service to staging?');
    await after(31 * MINUTE);
    expect(await list()).toHaveLength(2);
    expect((await list({ query: '咖啡' })).map((e) => e.title)).toEqual(['周末去咖啡馆']);
    expect((await list({ query: 'deploying' })).map((e) => e.title)).toEqual(['Billing service']);
    expect(await list({ query: 'What is the capital of France?' })).toEqual([]);
    // The memory tools' search (search_memory) reads the same index.
    expect(unwrap(await client.call('episode.list', { query: '咖啡馆' })).episodes).toHaveLength(1);
  });

  it('cleans a model that thinks aloud and fences its answer, and asks again when it answers in the wrong language', async () => {
    let asked = 0;
    const { send, after, list, episodeRequests } = await harness((_prompt, messages) => {
      asked++;
      if (messages.length === 1) return '<think>The user wrote in Chinese. I will write in English.</think>Here is the episode:\n```\nTomato seedlings\nThe user asked when to plant tomatoes.\n```';
      return '```markdown\n种番茄\n用户问什么时候种番茄。\n```';
    });
    await send('我什么时候应该种番茄？');
    await after(31 * MINUTE);
    expect(asked).toBe(2);
    expect(episodeRequests()[1]!.at(-1)!.content).toContain('请用简体中文');
    expect(await list()).toMatchObject([{ title: '种番茄', content: '用户问什么时候种番茄。' }]);
  });
});
