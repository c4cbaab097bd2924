/**
 * The path walk (message-branches.ts pathUp) reads pages that grow from a few rows to large ones: whatever the page
 * sizes, it yields the whole path, each message once, newest first, and stops where a caller stops.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMessagesStore } from '../../electron/core/conversation/messages.store';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { useTempDirs } from '../support/temp-dir';

describe('path walk', () => {
  const tempDir = useTempDirs();

  it('yields every message of a long path once, newest first, across pages of every size; a version the user left is not on it', () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    try {
      const repo = createMessagesStore(db.sqlite);
      const { id: threadId } = db.sqlite.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1) RETURNING id').get('t') as { id: number };
      const ids: number[] = [];
      let leftBehind = 0;
      db.sqlite.transaction(() => {
        for (let i = 0; i < 3000; i++) {
          ids.push(repo.insert({ threadId, role: i % 2 === 0 ? 'user' : 'assistant', content: `m${i}`, status: 'complete', model: null, estimatedTokens: 1, now: 1 }).id);
          // An answer regenerated at message 1,500: the old one stays beside the path.
          if (i === 1500) {
            const old = ids.pop()!;
            leftBehind = old;
            ids.push(repo.insert({ threadId, role: 'assistant', content: 'again', status: 'complete', model: null, estimatedTokens: 1, parentId: ids.at(-1)!, now: 1 }).id);
            expect(old).not.toBe(ids.at(-1));
          }
        }
      })();
      const walked = [...repo.branches.pathUp(repo.branches.leaf(threadId))].map((r) => r.id);
      expect(walked).toEqual([...ids].reverse());
      expect(walked).not.toContain(leftBehind);
      expect(repo.branches.activePath(threadId)).toEqual(ids);
      // A caller that stops early gets the newest messages.
      const first: number[] = [];
      for (const r of repo.branches.pathUp(ids.at(-1)!)) {
        first.push(r.id);
        if (first.length === 40) break;
      }
      expect(first).toEqual(ids.slice(-40).reverse());
    } finally {
      db.close();
    }
  });
});
