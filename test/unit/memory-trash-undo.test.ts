/**
 * Moving a memory to the trash says so with Undo, whichever button did it (renderer/src/memories/memories.store.ts
 * trash): the editor's "Move to trash" and the list's Delete give the same notice, and its Undo brings the memory back.
 * The core is a fake client that records the calls and answers as the contract would.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { useAppStore } from '../../renderer/src/app/app.store';
import { useMemoriesStore } from '../../renderer/src/memories/memories.store';
import { useMemoryDetailStore } from '../../renderer/src/memories/memory-detail.store';

const calls: Array<[string, unknown]> = [];
const client = {
  on: () => () => {},
  call: async (name: string, input: unknown) => {
    calls.push([name, input]);
    if (name === 'memory.bulk') return { ok: true, value: { changed: (input as { memoryIds: number[] }).memoryIds.length, skipped: 0 } };
    if (name === 'memory.access') return { ok: true, value: { entries: [] } };
    return { ok: false, error: { code: 'NOT_FOUND', message: 'not in this fake' } };
  },
} as unknown as Client;

const bulkCalls = () => calls.filter(([name]) => name === 'memory.bulk').map(([, input]) => input);

describe('trash with Undo, one path', () => {
  beforeEach(() => {
    calls.length = 0;
    useAppStore.setState({ toasts: [] });
    useMemoriesStore.setState({ client, selected: new Set() });
    useMemoryDetailStore.setState({ client, memoryId: 5, detail: null });
  });

  it('the editor’s Move to trash says “moved to the trash” with Undo, and Undo restores the memory', async () => {
    await useMemoryDetailStore.getState().trash();
    expect(bulkCalls()).toEqual([{ action: 'delete', memoryIds: [5] }]);
    const [toast] = useAppStore.getState().toasts;
    expect(toast).toMatchObject({ text: { key: 'memories.bulk.trashed', params: { count: 1, skipped: 0 } }, action: { label: 'common.undo' } });
    toast!.action!.run();
    await expect.poll(() => bulkCalls()).toEqual([{ action: 'delete', memoryIds: [5] }, { action: 'restore', memoryIds: [5] }]);
  });

  it('the list’s Delete gives the same notice, and clears the selection', async () => {
    useMemoriesStore.setState({ selected: new Set([5]) });
    await useMemoriesStore.getState().bulk('delete');
    expect(bulkCalls()).toEqual([{ action: 'delete', memoryIds: [5] }]);
    expect(useAppStore.getState().toasts).toMatchObject([{ text: { key: 'memories.bulk.trashed', params: { count: 1 } }, action: { label: 'common.undo' } }]);
    expect(useMemoriesStore.getState().selected.size).toBe(0);
  });

  it('another bulk action is said without Undo', async () => {
    useMemoriesStore.setState({ selected: new Set([5, 6]) });
    await useMemoriesStore.getState().bulk('pin');
    expect(useAppStore.getState().toasts).toMatchObject([{ text: { key: 'memories.bulk.done', params: { count: 2 } } }]);
    expect(useAppStore.getState().toasts[0]!.action).toBeUndefined();
  });
});
