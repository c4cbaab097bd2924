import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentOf, holdsMuchLess, KEEP_AUTOMATIC, rotationVictims } from '../../electron/core/backup/backup-rotation';

describe('backup rotation rule', () => {
  it('keeps aside a backup holding less than half of the fullest kept, empty ones included', () => {
    expect(contentOf({ memories: 3, messages: 40 })).toBe(43);
    expect(holdsMuchLess(0, 1)).toBe(true);
    expect(holdsMuchLess(49, 100)).toBe(true);
    expect(holdsMuchLess(50, 100)).toBe(false);
    expect(holdsMuchLess(500, 100)).toBe(false);
    // Nothing kept yet, or only empty copies: an empty database's first backups are counted as usual.
    expect(holdsMuchLess(0, 0)).toBe(false);
  });

  it('deletes what is beyond the newest 7, but never the fullest', () => {
    const b = (content: number | null, i: number) => ({ i, content });
    const growing = [90, 80, 70, 60, 50, 40, 30, 20, 10].map(b);
    expect(rotationVictims(growing).map((x) => x.i)).toEqual([7, 8]);
    const shrinking = [10, 20, 30, 40, 50, 60, 70, 80, 90].map(b);
    expect(rotationVictims(shrinking).map((x) => x.i)).toEqual([7]);
    // Equals: the newest of them is the one kept.
    expect(rotationVictims([5, 5, 5, 5, 5, 5, 5, 5, 5].map(b)).map((x) => x.i)).toEqual([7, 8]);
    // An unreadable copy holds nothing known: it is never "the fullest".
    expect(rotationVictims([1, 1, 1, 1, 1, 1, 1, null, null].map(b)).map((x) => x.i)).toEqual([7, 8]);
    expect(rotationVictims([1, 2, 3].map(b))).toEqual([]);
  });

  it('property: keeps the 7 newest and the fullest, deletes all the rest', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(1000), { nil: null }), { maxLength: 30 }), (contents) => {
        const backups = contents.map((content, i) => ({ i, content }));
        const victims = new Set(rotationVictims(backups));
        const kept = backups.filter((x) => !victims.has(x));
        for (const x of backups.slice(0, KEEP_AUTOMATIC)) expect(victims.has(x)).toBe(false);
        const most = Math.max(-1, ...contents.map((c) => c ?? -1));
        if (most >= 0) expect(kept.some((x) => x.content === most)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(KEEP_AUTOMATIC + 1);
        expect(kept.length).toBe(Math.min(backups.length, backups.length > KEEP_AUTOMATIC && most >= 0 && !backups.slice(0, KEEP_AUTOMATIC).some((x) => x.content === most) ? KEEP_AUTOMATIC + 1 : KEEP_AUTOMATIC));
      }),
    );
  });
});
