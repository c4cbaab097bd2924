/**
 * The conversation's stores on real SQLite: the one readable-message rule (its SQL and its JavaScript agree on every
 * kind of row), the exchange extraction reads (messages.store.ts userTurn), the summary store (the user's text, a dropped range), the threads store (an automatic title never
 * over a chosen one), and the thread exclusions store (idempotent, oldest first).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { createMessagesStore } from '../../electron/core/conversation/messages.store';
import { isReadable } from '../../electron/core/conversation/readable-message';
import { createSummaryStore } from '../../electron/core/conversation/summary.store';
import { createThreadsStore } from '../../electron/core/conversation/threads.store';
import { createThreadExclusionsStore } from '../../electron/core/threads/thread-exclusions.store';
import { useTempDirs } from '../support/temp-dir';

const open: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('the conversation stores', () => {
  const tempDir = useTempDirs();

  function setup() {
    const db = openDatabase(path.join(tempDir(), 'c.db'), { migrationsDir: sourceMigrationsDir() });
    open.push(db);
    const threads = createThreadsStore(db.sqlite);
    const threadId = threads.transaction(() => threads.insert(undefined, false, 1));
    return { db, threads, threadId, messages: createMessagesStore(db.sqlite) };
  }

  it('readable messages: one rule, the same in SQL and in JavaScript, for every role, status and empty text', () => {
    const { messages, threadId } = setup();
    const rows: Array<{ id: number; role: 'user' | 'assistant' | 'system'; status: 'complete' | 'error' | 'stopped' | 'truncated' | 'streaming'; content: string }> = [];
    for (const role of ['user', 'assistant', 'system'] as const) {
      for (const status of ['complete', 'error', 'stopped', 'truncated', 'streaming'] as const) {
        for (const content of ['', 'words']) {
          const m = messages.insert({ threadId, role, content, status, model: null, estimatedTokens: 1, now: 2 });
          rows.push({ id: m.id, role, status, content });
        }
      }
    }
    const bySql = messages.readableBetween(threadId, rows[0]!.id, rows.at(-1)!.id).map((r) => r.id);
    const byJs = rows.filter(isReadable).map((r) => r.id);
    expect(bySql).toEqual(byJs);
    // Only the user's and the assistant's final words that did not fail.
    expect(byJs).toHaveLength(2 * 3);
    expect(rows.filter((r) => byJs.includes(r.id)).every((r) => r.role !== 'system' && !['error', 'streaming'].includes(r.status) && r.content !== '')).toBe(true);
    // The prompt's history walks the same rule up the path.
    const last = messages.insert({ threadId, role: 'user', content: 'q', status: 'complete', model: null, estimatedTokens: 1, now: 3 });
    expect([...messages.historyBefore(last)].map((r) => r.id).reverse()).toEqual(byJs);
  });

  it('an exchange as extraction reads it: the user’s message and the answer it follows, never the reply’s text; nothing once the reply is gone', () => {
    const { messages, threadId } = setup();
    const say = (role: 'user' | 'assistant', content: string, now: number) => messages.insert({ threadId, role, content, status: 'complete', model: null, estimatedTokens: 1, now });
    const asked = say('assistant', 'What is your dog called?', 1);
    const question = say('user', 'Rex', 2);
    const reply = say('assistant', 'A fine name for a dog.', 3);
    const turn = messages.userTurn(question.id, reply.id);
    expect(turn).toMatchObject({ id: question.id, thread_id: threadId, content: 'Rex', created_at: 2, incognito: 0, before_id: asked.id, before_content: 'What is your dog called?' });
    expect(Object.values(turn!)).not.toContain('A fine name for a dog.');
    // The ids the wrong way round, a "reply" that is the user's, or one that never was: not an exchange.
    expect(messages.userTurn(reply.id, question.id)).toBeNull();
    expect(messages.userTurn(question.id, question.id)).toBeNull();
    expect(messages.userTurn(question.id, reply.id + 1000)).toBeNull();
    messages.remove(reply.id);
    expect(messages.userTurn(question.id, reply.id)).toBeNull();
  });

  it('summaries: the model’s range, then the user’s text keeps it, or drops it when told to detach', () => {
    const { db, threadId } = setup();
    const summaries = createSummaryStore(db.sqlite);
    expect(summaries.get(threadId)).toBeNull();
    summaries.recordPending(threadId, 4, 5);
    expect(summaries.get(threadId)).toMatchObject({ content: '', pendingCount: 4, toMessageId: null });
    summaries.writeByModel(threadId, { content: 'A', fromMessageId: 1, toMessageId: 3, coveredCount: 3 }, 6);
    expect(summaries.get(threadId)).toMatchObject({ content: 'A', fromMessageId: 1, toMessageId: 3, coveredCount: 3, pendingCount: 0, editedByUser: false });
    expect(summaries.writeByUser(threadId, 'B', false, 7)).toMatchObject({ content: 'B', toMessageId: 3, coveredCount: 3, editedByUser: true });
    expect(summaries.writeByUser(threadId, 'C', true, 8)).toMatchObject({ content: 'C', fromMessageId: null, toMessageId: null, coveredCount: 0, editedByUser: true });
  });

  it('threads: an automatic title only while none was chosen; the user’s rename is never overwritten', () => {
    const { threads, threadId } = setup();
    expect(threads.needsTitle(threadId)).toBe(true);
    expect(threads.setAutoTitle(threadId, 'Auto', 2)).toBe(true);
    expect(threads.needsTitle(threadId)).toBe(false);
    expect(threads.setAutoTitle(threadId, 'Again', 3)).toBe(false);
    expect(threads.rename(threadId, 'Mine', 4)).toBe(true);
    expect(threads.setAutoTitle(threadId, 'Auto', 5)).toBe(false);
    expect(threads.get(threadId)?.title).toBe('Mine');
    const named = threads.transaction(() => threads.insert('Named', true, 6));
    expect([threads.needsTitle(named), threads.isIncognito(named), threads.isIncognito(999)]).toEqual([false, true, null]);
    expect(threads.rename(999, 'x', 7)).toBe(false);
  });

  it('exclusions: excluding twice keeps one row, listed oldest first; including removes it', () => {
    const { db, threadId } = setup();
    const memory = (n: number) =>
      Number(
        db.sqlite
          .prepare(`INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES (?, ?, 'knowledge', 1, 1)`)
          .run(`m${n}`, `h${n}`).lastInsertRowid,
      );
    const [a, b] = [memory(1), memory(2)];
    const exclusions = createThreadExclusionsStore(db.sqlite);
    exclusions.exclude(threadId, b, 10);
    exclusions.exclude(threadId, a, 20);
    exclusions.exclude(threadId, b, 30);
    expect(exclusions.of(threadId)).toEqual([b, a]);
    exclusions.include(threadId, b);
    expect(exclusions.of(threadId)).toEqual([a]);
  });
});
