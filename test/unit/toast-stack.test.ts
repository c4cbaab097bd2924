/** The notification stack: one short stack, repeats counted in place instead of piling up over the window. */
import { describe, expect, it } from 'vitest';
import { addToast, MAX_TOASTS, useAppStore, type Toast } from '../../renderer/src/app/app.store';

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

  it('a notice of the same group takes the place of the one on screen: same id, its own text, no count carried over', () => {
    let stack: Toast[] = [changed(1), { ...learned(2, 'fact 2'), group: 'learned' }];
    stack = addToast(stack, { ...learned(3, 'fact 3'), group: 'learned' });
    expect(stack).toMatchObject([{ id: 1 }, { id: 2, count: 1, text: { params: { content: 'fact 3' } } }]);
    // Without a group, a different text stacks.
    expect(addToast(stack, learned(4, 'fact 4')).map((t) => t.id)).toEqual([1, 2, 4]);
  });

  it('through the store: a toast’s action, once run, ends the toast (an Undo is no longer offered, nor Ctrl+Z)', () => {
    useAppStore.setState({ toasts: [], lastUndo: null });
    let undone = 0;
    const id = useAppStore.getState().pushToast({ text: { key: 'episodes.trashed' }, action: { label: 'common.undo', run: () => undone++ } }, 60_000);
    useAppStore.getState().holdToasts(true);
    useAppStore.getState().runToastAction(id);
    expect(undone).toBe(1);
    expect(useAppStore.getState().toasts).toEqual([]);
    expect(useAppStore.getState().undoLast()).toBe(false);
    useAppStore.getState().holdToasts(false);
  });
});
