/**
 * A thread's working memory through the core on real SQLite and a fake Ollama: after an exchange the background model
 * updates the focus and tasks (one job for a burst of exchanges), the next prompt carries them within their share and
 * "what the model saw" counts them, the user's edit is kept, expired items drop out on a controllable clock, thread
 * delete cascades, incognito threads keep theirs to themselves, small talk costs no call while no task is open, and
 * the setting turns it all off.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import { FOCUS_TTL_MS, TTL_BY_IMPORTANCE } from '../../electron/core/focus/focus-rules';
import { WORKING_MEMORY_PROMPT_HEADER, WORKING_MEMORY_SHARE_OF_CONVERSATION } from '../../electron/core/chat/working-memory-prompt';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import { useChatHarnesses } from '../support/chat-harness';
import type { RequestPurpose } from '../support/request-kind';
import { createTestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type Body = { messages: Array<{ role: string; content: string }> };

describe('working memory', () => {
  const tempDir = useTempDirs();

  async function harness(focusAnswers: string[], opts: { startQueue?: boolean } = {}) {
    const clock = createTestClock(Date.UTC(2026, 10, 24, 9));
    const h = await harnesses.ollama(tempDir(), { core: { clock, startQueue: opts.startQueue ?? true } });
    unwrap(await h.client.call('settings.update', { patch: { memoryMode: 'off' } }));
    const answers = [...focusAnswers];
    h.fake.setDefaultReply((req) => {
      if (req.purpose === 'focus') return { content: answers.shift() ?? '{"tasks": []}' };
      if (req.purpose === 'title') return { content: 'A title' };
      return { content: 'Sure.' };
    });
    const sent = (purpose: RequestPurpose) => h.fake.requests.filter((r) => r.purpose === purpose).map((r) => (r.body as Body).messages);
    const focusRequests = () => sent('focus').map((m) => m.at(-1)!.content);
    const answerPrompts = () => sent('chat');
    const events: EventMessage[] = [];
    h.core.subscribe((m) => events.push(m));
    return { ...h, clock, answers, focusRequests, answerPrompts, events };
  }

  it('after an exchange the background model updates the focus and tasks; the next prompt carries them within their share', async () => {
    const { core, client, focusRequests, answerPrompts, events } = await harness([
      '<think>They plan a trip.</think>```json\n{"focus": "Planning a trip to Lisbon in May", "tasks": [{"text": "Book a hotel", "state": "open", "importance": "high"}, {"text": "Compare flights", "status": "in progress"}]}\n```',
    ]);
    const first = unwrap(await client.call('chat.send', { text: 'I am planning a trip to Lisbon in May. I need a hotel and flights.' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(1);
    expect(focusRequests()[0]).toContain('I am planning a trip to Lisbon');
    const wm = unwrap(await client.call('focus.get', { threadId: first.threadId }));
    expect(wm).toMatchObject({ focus: 'Planning a trip to Lisbon in May', focusEditedByUser: false, finished: [] });
    expect(wm.tasks.map((t) => [t.text, t.state, t.importance])).toEqual([
      ['Book a hotel', 'open', 'high'],
      ['Compare flights', 'in_progress', 'normal'],
    ]);
    // The event carries the stored working memory, ids included (the panel edits tasks by them).
    const updated = events.filter((e) => e.event === 'focus.updated').at(-1);
    expect(updated?.payload).toEqual({ workingMemory: wm });

    const second = unwrap(await client.call('chat.send', { threadId: first.threadId, text: 'Which area should I stay in?' }));
    const system = answerPrompts().at(-1)![0]!.content;
    expect(system).toContain(WORKING_MEMORY_PROMPT_HEADER);
    expect(system).toContain('Focus: Planning a trip to Lisbon in May');
    expect(system).toContain('- [open] Book a hotel');
    expect(system).toContain('- [in progress] Compare flights');
    const context = unwrap(await client.call('chat.context', { messageId: second.assistantMessage.id }))!;
    expect(context.workingMemory).toMatchObject({ focus: true, tasks: 2 });
    expect(context.workingMemory.tokens).toBeGreaterThan(0);
    expect(context.workingMemory.tokens).toBeLessThanOrEqual(Math.floor(context.budget.conversation * WORKING_MEMORY_SHARE_OF_CONVERSATION));
    const block = system.slice(system.indexOf(WORKING_MEMORY_PROMPT_HEADER));
    expect(estimateTokens(block)).toBe(context.workingMemory.tokens);
    await core.queue.waitForIdle();
    // The second update saw the known tasks with their ids, and only the new exchange.
    expect(focusRequests()[1]).toMatch(/- id \d+: \(open, high\) Book a hotel/);
    expect(focusRequests()[1]).not.toContain('I am planning a trip');
  });

  it("keeps the user's edit when the model next updates, lets the model tick the user's task, and clears on request", async () => {
    const { core, client, clock, answers, focusRequests } = await harness(['{"focus": "Writing a thesis", "tasks": ["Write the intro"]}']);
    const { threadId } = unwrap(await client.call('chat.send', { text: 'Help me with my thesis intro.' }));
    await core.queue.waitForIdle();
    const task = unwrap(await client.call('focus.get', { threadId })).tasks[0]!;
    unwrap(await client.call('focus.update', { threadId, edit: { kind: 'setFocus', text: 'Thesis, chapter 1 only' } }));
    unwrap(await client.call('focus.update', { threadId, edit: { kind: 'editTask', taskId: task.id, text: 'Intro: 2 pages' } }));
    const added = unwrap(await client.call('focus.update', { threadId, edit: { kind: 'addTask', text: 'Ask Prof. Lima' } }));
    expect(added.tasks.map((t) => [t.text, t.editedByUser])).toEqual([
      ['Intro: 2 pages', true],
      ['Ask Prof. Lima', true],
    ]);

    answers.push(JSON.stringify({ focus: 'Writing the whole thesis', tasks: [{ id: task.id, text: 'Write the introduction', state: 'done' }] }));
    unwrap(await client.call('chat.send', { threadId, text: 'The intro is finished.' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(2);
    const after = unwrap(await client.call('focus.get', { threadId }));
    expect(after.focus).toBe('Thesis, chapter 1 only');
    expect(after.tasks.map((t) => t.text)).toEqual(['Ask Prof. Lima']);
    expect(after.finished.map((t) => [t.text, t.state])).toEqual([['Intro: 2 pages', 'done']]);

    // The user ticks a task and unticks it: it moves to "recently finished" and back.
    const lima = after.tasks[0]!;
    clock.advance(60_000);
    expect(unwrap(await client.call('focus.update', { threadId, edit: { kind: 'editTask', taskId: lima.id, state: 'done' } })).finished.map((t) => t.text)).toEqual(['Ask Prof. Lima', 'Intro: 2 pages']);
    expect(unwrap(await client.call('focus.update', { threadId, edit: { kind: 'editTask', taskId: lima.id, state: 'open' } })).tasks.map((t) => t.text)).toEqual(['Ask Prof. Lima']);

    const cleared = unwrap(await client.call('focus.clear', { threadId }));
    expect(cleared).toMatchObject({ focus: '', tasks: [], finished: [] });
    expect(unwrap(await client.call('focus.listActive', {}))).toEqual([]);
    // Secrets are refused with a clear message; a task that is gone is NOT_FOUND.
    const secret = await client.call('focus.update', { threadId, edit: { kind: 'addTask', text: 'password: hunter2hunter2' } });
    expect(secret).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await client.call('focus.update', { threadId, edit: { kind: 'removeTask', taskId: task.id } })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('a burst of exchanges makes a job each, which run as one update; a later exchange gets the next update', async () => {
    const { core, client, focusRequests } = await harness(['{"focus": "Cooking dinner", "tasks": ["Buy garlic"]}', '{"tasks": [{"text": "Buy garlic", "state": "done"}]}'], { startQueue: false });
    const { threadId } = unwrap(await client.call('chat.send', { text: 'I am cooking dinner tonight.' }));
    unwrap(await client.call('chat.send', { threadId, text: 'I need garlic.' }));
    unwrap(await client.call('chat.send', { threadId, text: 'And some basil.' }));
    const jobs = unwrap(await client.call('queue.list', { status: ['queued', 'running', 'done'] })).jobs.filter((j) => j.kind === 'focus');
    expect(jobs).toHaveLength(3);
    await core.queue.runUntilIdle();
    expect(focusRequests()).toHaveLength(1);
    const after = unwrap(await client.call('queue.list', { status: ['queued', 'running', 'done'] })).jobs.filter((j) => j.kind === 'focus');
    expect(after.map((j) => j.status)).toEqual(['done', 'done', 'done']);
    expect(focusRequests()[0]).toContain('I am cooking dinner tonight.');
    expect(focusRequests()[0]).toContain('And some basil.');
    unwrap(await client.call('chat.send', { threadId, text: 'Got the garlic.' }));
    await core.queue.runUntilIdle();
    expect(focusRequests()).toHaveLength(2);
    expect(unwrap(await client.call('focus.get', { threadId })).finished.map((t) => t.text)).toEqual(['Buy garlic']);
  });

  it('expired items drop out of the panel and the prompt, and the cleanup removes them; thread delete cascades', async () => {
    const { core, client, clock, answerPrompts } = await harness(['{"focus": "Fixing the bike", "tasks": [{"text": "Buy a tube", "importance": "low"}, {"text": "Find the pump", "importance": "high"}]}']);
    const { threadId } = unwrap(await client.call('chat.send', { text: 'My bike has a flat tyre.' }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('focus.get', { threadId })).tasks).toHaveLength(2);
    clock.advance(TTL_BY_IMPORTANCE.low);
    expect(unwrap(await client.call('focus.get', { threadId })).tasks.map((t) => t.text)).toEqual(['Find the pump']);
    unwrap(await client.call('chat.send', { threadId, text: 'Where is it?' }));
    const system = answerPrompts().at(-1)![0]!.content;
    expect(system).toContain('Find the pump');
    expect(system).not.toContain('Buy a tube');
    await core.queue.waitForIdle(); // the update's commit runs the cleanup
    const sqlite = (await import('better-sqlite3')).default;
    const db = new sqlite(core.paths.dbFile, { readonly: true });
    try {
      expect(db.prepare('SELECT text FROM thread_focus_tasks').all()).toEqual([{ text: 'Find the pump' }]);
      unwrap(await client.call('thread.delete', { threadId }));
      expect(db.prepare('SELECT count(*) AS n FROM thread_focus_tasks').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM thread_focus').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('the daily cleanup removes expired rows of a thread with no new exchange', async () => {
    const { core, client, clock } = await harness(['{"focus": "Fixing the bike", "tasks": [{"text": "Buy a tube", "importance": "low"}, {"text": "Find the pump", "importance": "high"}]}']);
    const { threadId } = unwrap(await client.call('chat.send', { text: 'My bike has a flat tyre.' }));
    await core.queue.waitForIdle();
    const sqlite = (await import('better-sqlite3')).default;
    const db = new sqlite(core.paths.dbFile, { readonly: true });
    const rows = () => ({
      tasks: db.prepare('SELECT text FROM thread_focus_tasks ORDER BY id').pluck().all(),
      focus: db.prepare('SELECT focus FROM thread_focus WHERE thread_id = ?').pluck().get(threadId),
    });
    try {
      // Nothing expired yet: the cleanup is not due, and nothing is removed.
      expect(await core.runDailyTasks()).not.toContain('working memory');
      expect(rows()).toEqual({ tasks: ['Buy a tube', 'Find the pump'], focus: 'Fixing the bike' });
      clock.advance(TTL_BY_IMPORTANCE.low);
      // No new exchange in the thread, so no update runs: the daily tasks remove the expired task's row.
      expect(await core.runDailyTasks()).toContain('working memory');
      expect(rows()).toEqual({ tasks: ['Find the pump'], focus: 'Fixing the bike' });
      expect(unwrap(await client.call('focus.get', { threadId })).tasks.map((t) => t.text)).toEqual(['Find the pump']);
      clock.advance(Math.max(TTL_BY_IMPORTANCE.high, FOCUS_TTL_MS));
      expect(await core.runDailyTasks()).toContain('working memory');
      expect(rows()).toEqual({ tasks: [], focus: '' });
      expect(await core.runDailyTasks()).not.toContain('working memory');
    } finally {
      db.close();
    }
  });

  it('lists active work across threads, leaving incognito threads out (their working memory stays in the thread)', async () => {
    const { core, client, answerPrompts } = await harness(['{"focus": "Garden plan", "tasks": ["Order seeds"]}', '{"focus": "Secret gift", "tasks": ["Buy the gift"]}']);
    const open = unwrap(await client.call('chat.send', { text: 'Plan my garden.' }));
    await core.queue.waitForIdle();
    const hidden = unwrap(await client.call('chat.send', { text: 'A gift for my wife.', incognito: true }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('focus.get', { threadId: hidden.threadId })).focus).toBe('Secret gift');
    const active = unwrap(await client.call('focus.listActive', {}));
    expect(active.map((a) => [a.threadId, a.focus, a.tasks.map((t) => t.text)])).toEqual([[open.threadId, 'Garden plan', ['Order seeds']]]);
    unwrap(await client.call('chat.send', { threadId: hidden.threadId, text: 'Which shop?' }));
    expect(answerPrompts().at(-1)![0]!.content).toContain('Focus: Secret gift');
    unwrap(await client.call('chat.send', { threadId: open.threadId, text: 'Which seeds?' }));
    expect(answerPrompts().at(-1)![0]!.content).not.toContain('Secret gift');
  });

  it('small talk costs no model call while no task is open; once one is, a short "done" reaches the model', async () => {
    const { core, client, focusRequests } = await harness(['{"focus": "A garden party on Saturday", "tasks": ["Buy drinks"]}', '{"tasks": [{"text": "Buy drinks", "state": "done"}]}']);
    const { threadId } = unwrap(await client.call('chat.send', { text: 'hello' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(0);
    unwrap(await client.call('chat.send', { threadId, text: 'I am planning a garden party for Saturday.' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(1);
    // The greeting was read (marked through) without a call: the update reads only what came after it.
    expect(focusRequests()[0]).toContain('I am planning a garden party for Saturday.');
    expect(focusRequests()[0]).not.toMatch(/\bhello\b/);
    unwrap(await client.call('chat.send', { threadId, text: 'done' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(2);
    expect(unwrap(await client.call('focus.get', { threadId })).finished.map((t) => t.text)).toEqual(['Buy drinks']);
  });

  it('follows the version shown: an edited-away question leaves the prompt and the panel, and each version gets its own back', async () => {
    const { core, client, focusRequests, answerPrompts } = await harness([
      '{"focus": "Choosing a dog", "tasks": [{"text": "The user prefers big dogs", "state": "open"}]}',
      '{"focus": "Choosing a small dog", "tasks": [{"text": "Compare small breeds", "state": "open"}]}',
      '{"tasks": []}',
      '{"focus": "Choosing a big dog", "tasks": [{"text": "Visit a shelter with big dogs", "state": "open"}]}',
    ]);
    const first = unwrap(await client.call('chat.send', { text: 'I prefer big dogs. Which breed should I get?' }));
    const { threadId } = first;
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('focus.get', { threadId })).tasks.map((t) => t.text)).toEqual(['The user prefers big dogs']);

    // Edited: the new version's answer is written without what the old question said.
    const edited = unwrap(await client.call('chat.edit', { messageId: first.userMessage.id, text: 'I prefer small dogs. Which breed should I get?' }));
    expect(answerPrompts().at(-1)![0]!.content).not.toContain('big dogs');
    const shown = unwrap(await client.call('focus.get', { threadId }));
    expect(shown).toMatchObject({ focus: '', tasks: [], otherVersion: true });
    // The update after the edit reads this version only, from a clean slate: no task of the old one is "known".
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(2);
    expect(focusRequests()[1]).toContain('I prefer small dogs');
    expect(focusRequests()[1]).not.toContain('big dogs');
    const rebuilt = unwrap(await client.call('focus.get', { threadId }));
    expect(rebuilt).toMatchObject({ focus: 'Choosing a small dog', tasks: [{ text: 'Compare small breeds' }] });
    expect(rebuilt.otherVersion).toBeUndefined();
    unwrap(await client.call('chat.send', { threadId, text: 'How much exercise do they need?' }));
    expect(answerPrompts().at(-1)![0]!.content).toContain('- [open] Compare small breeds');
    await core.queue.waitForIdle();

    // Back to the first version: the small-dog working memory is not this version's; the next exchange rebuilds it
    // from this version's messages (no model call for the switch itself).
    const calls = focusRequests().length;
    unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 1 }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(calls);
    expect(unwrap(await client.call('focus.get', { threadId }))).toMatchObject({ focus: '', tasks: [], otherVersion: true });
    unwrap(await client.call('chat.send', { threadId, text: 'Do they shed a lot?' }));
    expect(answerPrompts().at(-1)![0]!.content).not.toMatch(/small (dogs|breeds)|Choosing a small/);
    await core.queue.waitForIdle();
    expect(focusRequests().at(-1)).toContain('I prefer big dogs');
    expect(focusRequests().at(-1)).not.toMatch(/small (dogs|breeds)|Choosing a small/);
    expect(unwrap(await client.call('focus.get', { threadId })).tasks.map((t) => t.text)).toEqual(['Visit a shelter with big dogs']);
    // The user's own task is the user's in every version.
    unwrap(await client.call('focus.update', { threadId, edit: { kind: 'addTask', text: 'Ask the vet' } }));
    unwrap(await client.call('thread.switchBranch', { messageId: edited.userMessage.id, version: 2 }));
    expect(unwrap(await client.call('focus.get', { threadId })).tasks.map((t) => t.text)).toEqual(['Ask the vet']);
  });

  it('turned off: no job after an exchange and nothing in the prompt', async () => {
    const { core, client, focusRequests, answerPrompts } = await harness(['{"focus": "Something", "tasks": ["Task"]}']);
    const { threadId } = unwrap(await client.call('chat.send', { text: 'Plan a party.' }));
    await core.queue.waitForIdle();
    unwrap(await client.call('settings.update', { patch: { workingMemoryEnabled: false } }));
    const reply = unwrap(await client.call('chat.send', { threadId, text: 'For 20 people.' }));
    await core.queue.waitForIdle();
    expect(focusRequests()).toHaveLength(1);
    expect(unwrap(await client.call('queue.list', { status: ['queued', 'running', 'done'] })).jobs.filter((j) => j.kind === 'focus')).toHaveLength(1);
    expect(answerPrompts().at(-1)![0]!.content).not.toContain(WORKING_MEMORY_PROMPT_HEADER);
    expect(unwrap(await client.call('chat.context', { messageId: reply.assistantMessage.id }))!.workingMemory).toEqual({ tokens: 0, focus: false, tasks: 0 });
  });
});
