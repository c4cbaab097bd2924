/**
 * `memory episodes` as people run it: the terminal host (in this process, run.ts) on a data folder where a core (same folder, a fake
 * Ollama, a clock moved past the quiet time) has written episodes.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createChatHarness } from '../support/chat-harness';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

const TIMEOUT_MS = 300_000;

describe('episodes from the terminal', () => {
  const tempDir = useTempDirs();
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('memory episodes lists them, one thread’s, and those about a query; --json prints the value; delete, trash, restore, delete forever', { timeout: TIMEOUT_MS }, async () => {
    const dir = tempDir();
    const clock = { at: Date.UTC(2026, 10, 2, 9, 0), now: () => clock.at };
    const h = await createChatHarness(dir, { core: { clock } });
    closers.push(() => h.fake.close());
    unwrap(await h.client.call('settings.update', { patch: { memoryMode: 'off' } }));
    h.fake.setDefaultReply((req) => {
      const first = req.messages[0]!.content;
      if (req.purpose === 'episode') return { content: first.includes('咖啡') ? '找咖啡馆\n用户想找安静的咖啡馆。' : 'Garden\nAsked about tomatoes.' };
      return { content: 'Noted.' };
    });
    const a = unwrap(await h.client.call('chat.send', { text: '周末想找一家安静的咖啡馆。' }));
    unwrap(await h.client.call('chat.send', { text: 'When do I plant tomatoes?' }));
    clock.at += 31 * 60_000;
    h.core.queue.poke();
    await h.core.queue.waitForIdle();
    await h.core.dispose();

    const env = { OLLAMA_HOST: h.fake.url, MNEMO_DATA_DIR: path.join(dir, 'data'), MNEMO_MODELS_DIR: path.join(dir, 'no-models'), NO_COLOR: '1' };
    const all = await runCliInProcess(['memory', 'episodes'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('找咖啡馆');
    expect(all.stdout).toContain('Asked about tomatoes.');

    const one = await runCliInProcess(['memory', 'episodes', '--thread', String(a.threadId), '--json'], env);
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as { episodes: Array<{ title: string }> }).episodes.map((e) => e.title)).toEqual(['找咖啡馆']);

    const found = await runCliInProcess(['memory', 'episodes', '--query', 'tomato'], env);
    expect(found.stdout).toContain('Garden');
    expect(found.stdout).not.toContain('找咖啡馆');

    const bad = await runCliInProcess(['memory', 'episodes', '--thread', 'x'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--thread/);

    // Delete, the trash, restore, and delete for good, as the Episodes tab does.
    const coffee = (JSON.parse(one.stdout) as { episodes: Array<{ id: number }> }).episodes[0]!.id;
    const deleted = await runCliInProcess(['memory', 'episodes', 'delete', String(coffee)], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Moved episode #${coffee} to the trash`);
    expect((await runCliInProcess(['memory', 'episodes'], env)).stdout).not.toContain('找咖啡馆');
    expect((await runCliInProcess(['memory', 'episodes', '--trash'], env)).stdout).toContain('找咖啡馆');
    const restored = await runCliInProcess(['memory', 'episodes', 'restore', String(coffee)], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await runCliInProcess(['memory', 'episodes'], env)).stdout).toContain('找咖啡馆');
    const purged = await runCliInProcess(['memory', 'episodes', 'delete', String(coffee), '--forever'], env);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(new RegExp(`^Purged episode #${coffee}: erased from the database`));
    expect((await runCliInProcess(['memory', 'episodes', '--trash'], env)).stdout).toContain('The episode trash is empty.');
    const gone = await runCliInProcess(['memory', 'episodes', 'restore', String(coffee)], env);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/does not exist/);
    const typo = await runCliInProcess(['memory', 'episodes', 'delet', String(coffee)], env);
    expect(typo.code).not.toBe(0);
  });
});
