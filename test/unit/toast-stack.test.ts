/** The notification stack: one short stack, repeats counted in place instead of piling up over the window. */
import { describe, expect, it } from 'vitest';
import { addToast, MAX_TOASTS, useAppStore, type Toast } from '../../renderer/src/stores/app.store';

const changed = (id: number): Toast => ({ id, text: { key: 'receipt.deletedToast' }, count: 1 });
const learned = (id: number, content: string): Toast => ({ id, text: { key: 'memories.learnedToast', params: { content } }, count: 1 });

describe('toast stack', () => {
  it('counts a repeat in place of showing it again', () => {
    let stack: Toast[] = [];
    for (let id = 1; id <= 5; id++) stack = addToast(stack, changed(id));
    expect(stack).toEqual([{ ...changed(1), count: 5 }]);
  });

  it('keeps at most MAX_TOASTS, the oldest without an action giving way first', () => {
    const undo: Toast = { id: 1, text: { key: 'threads.deletedUntitled' }, action: { label: 'common.undo', run: () => {} }, count: 1 };
    let stack: Toast[] = [undo];
    for (let id = 2; id <= 6; id++) stack = addToast(stack, learned(id, `fact ${id}`));
    expect(stack).toHaveLength(MAX_TOASTS);
    expect(stack.map((t) => t.id)).toEqual([1, 5, 6]);
  });

  it('through the store: five pushes of the same notice are one toast saying ×5, with one id', () => {
    useAppStore.setState({ toasts: [] });
    const ids = Array.from({ length: 5 }, () => useAppStore.getState().pushToast({ text: { key: 'receipt.deletedToast' } }, 60_000));
    expect(new Set(ids).size).toBe(1);
    expect(useAppStore.getState().toasts).toMatchObject([{ id: ids[0], count: 5 }]);
    useAppStore.getState().dismissToast(ids[0]!);
    expect(useAppStore.getState().toasts).toEqual([]);
  });
});
