/**
 * Delete means delete, including everything derived (issue 26): for random histories of memories added and edited,
 * chats that use them, profile rewrites, consolidations, backups, trash and purges, on a real core with real SQLite
 * and a fake Ollama that writes what a small model writes (the profile restates the notes it was given, a summary
 * joins its notes), a purged memory's words appear in no file of the data folder afterwards: not in the database, its
 * WAL, a backup, the profile or a summary (each memory carries a word of its own, so any trace of it is found).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { MemoryStatus } from '../../shared/contract';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { createTestClock } from '../support/memory-harness';
import { filesHolding } from '../support/files-holding';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const STATUSES: MemoryStatus[] = ['active', 'review', 'trashed', 'archived', 'superseded'];
type Body = { messages: Array<{ role: string; content: string }> };

/** The notes of a profile or consolidation prompt, as the prompt lists them ("- [category] text" or "- text"). */
function notesOf(prompt: string): string[] {
  return [...prompt.matchAll(/^- (?:\[[a-z]+\] )?(.+)$/gm)].map((m) => m[1]!.trim());
}

type Step =
  | { op: 'add' }
  | { op: 'edit'; pick: number }
  | { op: 'chat'; pick: number }
  | { op: 'profile' }
  | { op: 'consolidate'; pick: number }
  | { op: 'backup' }
  | { op: 'trash'; pick: number }
  | { op: 'purge'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ op: 'add' as const }), weight: 4 },
  { arbitrary: fc.nat().map((pick) => ({ op: 'edit' as const, pick })), weight: 1 },
  { arbitrary: fc.nat().map((pick) => ({ op: 'chat' as const, pick })), weight: 1 },
  { arbitrary: fc.constant({ op: 'profile' as const }), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ op: 'consolidate' as const, pick })), weight: 2 },
  { arbitrary: fc.constant({ op: 'backup' as const }), weight: 1 },
  { arbitrary: fc.nat().map((pick) => ({ op: 'trash' as const, pick })), weight: 1 },
  { arbitrary: fc.nat().map((pick) => ({ op: 'purge' as const, pick })), weight: 3 },
);

/**
 * A random history that always holds a summary and a purge somewhere (two memories summarised first, a purge of a
 * random one last), so every run reaches what the property is about whatever the random steps between do.
 */
const history: fc.Arbitrary<Step[]> = fc
  .tuple(fc.array(step, { minLength: 1, maxLength: 11 }), fc.nat())
  .map(([steps, pick]) => [{ op: 'add' }, { op: 'add' }, { op: 'consolidate', pick: 0 }, ...steps, { op: 'purge', pick }]);

describe('a purged memory leaves nothing behind, whatever was written from it', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;
  beforeAll(async () => {
    fake = await startFakeOllama();
    fake.setDefaultReply((req) => {
      const last = (req as Body).messages.at(-1)!.content;
      if (req.purpose === 'profile') return { content: `## Preferences\n${notesOf(last.split('Notes (most important first):')[1] ?? '').map((n) => `- ${n}`).join('\n')}` };
      if (req.purpose === 'consolidate') return { content: notesOf(last).join(' and ') };
      return { content: 'Noted.' };
    });
  });
  afterAll(async () => fake.close());

  it('for random histories of adds, edits, chats, profile rewrites, consolidations, backups, trash and purges', async () => {
    let run = 0;
    const written = { summaries: 0, purges: 0 };
    await fc.assert(
      fc.asyncProperty(history, async (steps) => {
        const dir = tempDir();
        const clock = createTestClock(Date.UTC(2026, 10, 20, 9) + run++ * 1000);
        const { core, client } = createTestCore(dir, { startQueue: false, clock, embedder: null, llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url } });
        try {
          unwrap(await client.call('settings.update', { patch: { memoryMode: 'off' } }));
          const live: number[] = [];
          const wordsOf = new Map<number, string[]>();
          const purgedWords: string[] = [];
          let n = 0;
          let summaries = 0;
          const word = () => `Zqx${(n++).toString(36)}${'abcdefgh'[run % 8]}vor`;
          const pick = (i: number) => (live.length === 0 ? null : live[i % live.length]!);
          for (const s of steps) {
            clock.advance(60_000);
            await apply(client, s);
          }
          async function apply(c: Client, s: Step): Promise<void> {
            if (s.op === 'add') {
              const w = word();
              const m = unwrap(await c.call('memory.create', { content: `Collects ${w} stamps` }));
              live.push(m.id);
              wordsOf.set(m.id, [w]);
            } else if (s.op === 'edit') {
              const id = pick(s.pick);
              if (id === null) return;
              const w = word();
              const r = await c.call('memory.update', { memoryId: id, content: `Collects ${w} coins` });
              if (r.ok) wordsOf.get(id)!.push(w);
            } else if (s.op === 'chat') {
              const id = pick(s.pick);
              // Every memory's word starts with this prefix (a summary has none of its own), which keyword search
              // reads as a prefix: the prompt then carries memories and records which.
              unwrap(await c.call('chat.send', { text: id === null ? 'What do I collect?' : 'What do I collect, Zqx?' }));
            } else if (s.op === 'profile') {
              unwrap(await c.call('profile.refresh', {}));
              await core.queue.runUntilIdle();
            } else if (s.op === 'consolidate') {
              const ids = [...new Set([pick(s.pick), pick(s.pick + 1)])].filter((id): id is number => id !== null);
              if (ids.length < 2) return;
              const memories = await Promise.all(ids.map(async (id) => unwrap(await c.call('memory.get', { memoryId: id }))));
              if (memories.some((m) => m.memory.status !== 'active')) return;
              core.queue.enqueue({ kind: 'consolidate', payload: { memories: memories.map((m) => ({ id: m.memory.id, version: m.versions.at(-1)!.version })) }, idempotencyKey: `test:${clock.now()}` });
              await core.queue.runUntilIdle();
              // The summary (active, or in review: memories the user added are theirs, memory-cap.ts) is a memory like
              // any other from here on; its words are its originals'.
              const all = unwrap(await c.call('memory.list', { statuses: STATUSES, limit: 500 })).items;
              const summary = all.find((m) => !wordsOf.has(m.id) && memories.every((o) => m.content.includes(o.memory.content)));
              if (summary) {
                summaries++;
                wordsOf.set(summary.id, []);
              }
              live.splice(0, live.length, ...all.map((m) => m.id).filter((m) => wordsOf.has(m)));
            } else if (s.op === 'backup') {
              unwrap(await c.call('db.backup', {}));
            } else if (s.op === 'trash') {
              const id = pick(s.pick);
              if (id !== null) unwrap(await c.call('memory.delete', { memoryId: id }));
            } else {
              const id = pick(s.pick);
              if (id === null) return;
              unwrap(await c.call('memory.purge', { memoryId: id }));
              purgedWords.push(...wordsOf.get(id)!);
              // What came back from a purged summary is live again; what the purge took is gone.
              const now = unwrap(await c.call('memory.list', { statuses: STATUSES, limit: 500 })).items.map((m) => m.id);
              live.splice(0, live.length, ...now.filter((m) => wordsOf.has(m)));
            }
          }
          for (const w of purgedWords) expect(filesHolding(dir, w), w).toEqual([]);
          written.summaries += summaries;
          written.purges += purgedWords.length;
        } finally {
          await core.dispose();
        }
      }),
      { numRuns: 12 },
    );
    // The histories did reach what the property is about: summaries were written and words were purged.
    expect(written.summaries).toBeGreaterThan(0);
    expect(written.purges).toBeGreaterThan(0);
  });
});
