/**
 * The branch rule (electron/core/conversation/message-branches.ts) on real SQLite: properties over random edit / regenerate /
 * send / switch sequences, and the migration that gives existing threads their parents.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { createMessagesStore } from '../../electron/core/conversation/messages.store';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { migrationJournal, migrationsUpTo } from '../support/older-migrations';
import { useTempDirs } from '../support/temp-dir';

type Op =
  | { kind: 'send' }
  | { kind: 'edit'; pick: number }
  | { kind: 'regenerate'; pick: number }
  | { kind: 'switch'; pick: number; version: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'send' as const }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('regenerate' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('switch' as const), pick: fc.nat(), version: fc.integer({ min: 1, max: 4 }) }),
);

describe('message branches', () => {
  const tempDir = useTempDirs();

  it('the active path is always a chain from a first message to a message nothing follows; switching never loses a message and can reach every one', { timeout: 120_000 }, () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    const repo = createMessagesStore(db.sqlite);
    const { branches } = repo;
    const newThread = db.sqlite.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1) RETURNING id');
    const parentOf = db.sqlite.prepare('SELECT parent_id AS p FROM messages WHERE id = ?');
    const childCount = db.sqlite.prepare('SELECT count(*) AS n FROM messages WHERE parent_id = ?');
    const countIn = db.sqlite.prepare('SELECT count(*) AS n FROM messages WHERE thread_id = ?');
    try {
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.nat(), (ops, probe) => {
          const { id: threadId } = newThread.get('t') as { id: number };
          const insert = (role: 'user' | 'assistant', parentId?: number | null) =>
            repo.insert({ threadId, role, content: role, status: 'complete', model: null, estimatedTokens: 1, parentId, now: 1 });
          for (const o of ops) {
            const onPath = branches.activePath(threadId).map((id) => repo.get(id)!);
            if (o.kind === 'send') {
              insert('user');
              insert('assistant');
            } else if (o.kind === 'edit') {
              const users = onPath.filter((m) => m.role === 'user');
              if (users.length === 0) continue;
              const original = users[o.pick % users.length]!;
              const edited = insert('user', original.parentId ?? null);
              insert('assistant', edited.id);
            } else if (o.kind === 'regenerate') {
              const answers = onPath.filter((m) => m.role === 'assistant');
              if (answers.length === 0) continue;
              insert('assistant', answers[o.pick % answers.length]!.parentId ?? null);
            } else {
              if (onPath.length === 0) continue;
              const m = onPath[o.pick % onPath.length]!;
              const before = (countIn.get(threadId) as { n: number }).n;
              const versions = m.version?.count ?? 1;
              if (o.version > versions) {
                expect(() => branches.switchTo(m.id, o.version)).toThrow(MnemoError);
              } else {
                branches.switchTo(m.id, o.version);
              }
              expect((countIn.get(threadId) as { n: number }).n).toBe(before);
            }
            // The invariant: a chain from a message with no parent, each the parent of the next, ending where nothing follows.
            const path = branches.activePath(threadId);
            if (path.length > 0) {
              expect((parentOf.get(path[0]) as { p: number | null }).p).toBeNull();
              for (let i = 1; i < path.length; i++) expect((parentOf.get(path[i]) as { p: number | null }).p).toBe(path[i - 1]);
              expect((childCount.get(path.at(-1)) as { n: number }).n).toBe(0);
              expect(path.at(-1)).toBe(branches.leaf(threadId));
            }
          }
          // Every message is still there and some switch shows it.
          const all = db.sqlite.prepare('SELECT id FROM messages WHERE thread_id = ? ORDER BY id').all(threadId) as Array<{ id: number }>;
          if (all.length === 0) return;
          const target = all[probe % all.length]!.id;
          // Switch each ancestor's version from the top down, as a user clicking ‹ › would.
          const chain: number[] = [];
          for (let id: number | null = target; id !== null; id = (parentOf.get(id) as { p: number | null }).p) chain.unshift(id);
          for (const id of chain) branches.switchTo(id, repo.get(id)!.version?.index ?? 1);
          expect(branches.activePath(threadId)).toContain(target);
        }),
        { numRuns: 60 },
      );
    } finally {
      db.close();
    }
  });

  it('the migration gives the messages of existing threads parents in their order and the newest as the active leaf', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const journal = migrationJournal();
    const before = journal.entries.findIndex((e) => e.tag.includes('message_branches'));
    expect(before).toBeGreaterThan(0);
    const old = openDatabase(file, { migrationsDir: migrationsUpTo(dir, before), now: () => 1 });
    const insertThread = old.sqlite.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1)');
    const insertMessage = old.sqlite.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, ?, ?, 1, 1)");
    const threads: number[] = [];
    old.sqlite.transaction(() => {
      for (let t = 0; t < 3; t++) threads.push(Number(insertThread.run(`thread ${t}`).lastInsertRowid));
      // Interleaved, as two threads written at once leave them.
      for (let m = 0; m < 4; m++) for (const t of threads.slice(0, 2)) insertMessage.run(t, m % 2 ? 'assistant' : 'user', `${t}/${m}`);
    })();
    old.close();

    const db = openDatabase(file, { migrationsDir: sourceMigrationsDir(), now: () => 42 });
    try {
      const repo = createMessagesStore(db.sqlite);
      for (const t of threads.slice(0, 2)) {
        const ids = (db.sqlite.prepare('SELECT id FROM messages WHERE thread_id = ? ORDER BY id').all(t) as Array<{ id: number }>).map((r) => r.id);
        expect(repo.branches.activePath(t)).toEqual(ids);
        expect(repo.page(t, undefined, 100).messages.map((m) => m.content)).toEqual([0, 1, 2, 3].map((m) => `${t}/${m}`));
      }
      expect(repo.branches.activePath(threads[2]!)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
