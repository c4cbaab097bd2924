/**
 * Which memory a key pressed on a list row acts on while the list reloads (issue 30 item 7): the row's own memory, by
 * its id, whatever index it now sits at; nothing when the rows on screen are another tab's or no longer hold it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, rowAt, rowTarget } from '../../renderer/src/memories/memory-pages';

type Row = { id: number; status: string };
const pagesOf = (ids: number[], status = 'active') => {
  const pages: Record<number, Row[]> = {};
  ids.forEach((id, i) => (pages[Math.floor(i / PAGE_SIZE)] ??= []).push({ id, status }));
  return pages;
};

describe('rowTarget: the memory a keyboard delete acts on', () => {
  it('is the focused row, not the row that took its place when a memory learned meanwhile pushed the list down', () => {
    const before = pagesOf([30, 29, 28, 27]);
    const focusedIndex = 2;
    const focusedId = rowAt(before, focusedIndex)!.id;
    const after = pagesOf([31, 30, 29, 28, 27]);
    // The old rule: the index kept from before the reload now names another memory.
    expect(rowAt(after, focusedIndex)!.id).not.toBe(focusedId);
    expect(rowTarget(after, focusedId, 'browse', 'browse')?.id).toBe(28);
  });

  it('is nothing while the rows on screen still answer the tab left (the trash, right after a switch)', () => {
    const trash = pagesOf([5, 4, 3], 'trashed');
    expect(rowTarget(trash, 4, 'trash', 'browse')).toBeNull();
    expect(rowTarget(trash, 4, null, 'browse')).toBeNull();
    expect(rowTarget(trash, 4, 'trash', 'trash')?.id).toBe(4);
  });

  it('is nothing when the focused row is not among the rows held, or no row has the focus', () => {
    expect(rowTarget(pagesOf([3, 2, 1]), 9, 'browse', 'browse')).toBeNull();
    expect(rowTarget(pagesOf([3, 2, 1]), null, 'browse', 'browse')).toBeNull();
  });

  it('finds a row on any page held, and only ever the id it was given', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 450 }), fc.nat(), fc.integer({ min: 1, max: 100_000 }), (ids, pick, other) => {
        const pages = pagesOf(ids);
        const id = ids[pick % ids.length]!;
        expect(rowTarget(pages, id, 'browse', 'browse')?.id).toBe(id);
        const target = rowTarget(pages, other, 'browse', 'browse');
        expect(target === null ? !ids.includes(other) : target.id === other).toBe(true);
      }),
    );
  });
});
