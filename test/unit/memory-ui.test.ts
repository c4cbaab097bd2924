/** The memory views' pure logic: word diffs, paging a huge list, search throttling, filters, the timeline's days and chart. */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { FAILED_JOB_KIND, JobKind, type TimelineEvent } from '../../shared/contract';
import { layoutBars } from '../../renderer/src/timeline/activity-chart';
import { PAGE_SIZE, pagesFor, pagesToEvict, rowAt, rowRange } from '../../renderer/src/memories/memory-pages';
import { activeFilterCount, countedStatus, defaultQuery, effectiveSort, filtersOf, listInput, searchInput } from '../../renderer/src/memories/memory-query';
import { localDayStart, nextLocalDay, toDateInput } from '../../renderer/src/format/local-day';
import { throttleTrailing, type Timers } from '../../renderer/src/memories/throttle';
import { groupByDay, KIND_FILTERS, KNOWN_KINDS, kindLabelKey } from '../../renderer/src/timeline/timeline-format';
import { systemTimeZone } from '../../shared/time-zone';
import { diffWords, tokenize } from '../../renderer/src/memories/word-diff';
import { dictionaries } from '../../renderer/src/i18n/i18n';
import { seededRandom } from '../support/seeded-random';

/** `length` Chinese characters drawn from fifty, reproducibly. */
const chinese = (length: number, seed: number) => {
  const random = seededRandom(seed);
  return Array.from({ length }, () => '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自之着去之过家学对可她里后小'[Math.floor(random() * 50)]).join('');
};

const spell = (parts: ReturnType<typeof diffWords>, side: 'before' | 'after') =>
  parts
    .filter((p) => p.kind === 'same' || p.kind === (side === 'before' ? 'removed' : 'added'))
    .map((p) => p.text)
    .join('');

describe('word diff', () => {
  it('marks the changed words only', () => {
    expect(diffWords('Lives in Lisbon', 'Lives in Porto, Portugal')).toEqual([
      { kind: 'same', text: 'Lives in ' },
      { kind: 'removed', text: 'Lisbon' },
      { kind: 'added', text: 'Porto, Portugal' },
    ]);
    expect(diffWords('Prefers tea', 'Prefers green tea')).toEqual([
      { kind: 'same', text: 'Prefers ' },
      { kind: 'added', text: 'green ' },
      { kind: 'same', text: 'tea' },
    ]);
    expect(diffWords('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });

  it('treats each Chinese character as a word', () => {
    expect(tokenize('喜欢绿茶')).toEqual(['喜', '欢', '绿', '茶']);
    expect(diffWords('喜欢绿茶', '喜欢红茶')).toEqual([
      { kind: 'same', text: '喜欢' },
      { kind: 'removed', text: '绿' },
      { kind: 'added', text: '红' },
      { kind: 'same', text: '茶' },
    ]);
  });

  // Cases jsdiff's diffWordsWithSpace gets otherwise (see the header of renderer/src/memories/word-diff.ts).
  it('marks whole words in every alphabet, not letters inside them', () => {
    expect(diffWords('Привет мир', 'Привет мира')).toEqual([
      { kind: 'same', text: 'Привет ' },
      { kind: 'removed', text: 'мир' },
      { kind: 'added', text: 'мира' },
    ]);
    expect(diffWords('Γειά σου', 'Γειά σας')).toEqual([
      { kind: 'same', text: 'Γειά ' },
      { kind: 'removed', text: 'σου' },
      { kind: 'added', text: 'σας' },
    ]);
  });

  it('shows small edits at both ends of the longest Chinese memory as small edits', () => {
    const before = chinese(4000, 1);
    const after = `${before.slice(1)}尾`;
    expect(diffWords(before, after)).toEqual([
      { kind: 'removed', text: before[0] },
      { kind: 'same', text: before.slice(1) },
      { kind: 'added', text: '尾' },
    ]);
  });

  it('bounds its work: a rewrite shows as the whole middle replaced, between the unchanged start and end', () => {
    // Two unrelated 2,000-character texts that share many characters, starting and ending differently.
    const [first, second] = [`甲${chinese(2000, 2)}乙`, `丙${chinese(2000, 3)}丁`];
    expect(diffWords(`Note: ${first} (end)`, `Note: ${second} (end)`)).toEqual([
      { kind: 'same', text: 'Note: ' },
      { kind: 'removed', text: first },
      { kind: 'added', text: second },
      { kind: 'same', text: ' (end)' },
    ]);
  });

  it('always spells both texts back, with no two neighbouring parts of the same kind', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'tea', ' ', ',', '茶', 'Porto', '\n', 'é'), { maxLength: 30 }).map((w) => w.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const parts = diffWords(before, after);
        expect(spell(parts, 'before')).toBe(before);
        expect(spell(parts, 'after')).toBe(after);
        for (let i = 1; i < parts.length; i++) expect(parts[i]!.kind).not.toBe(parts[i - 1]!.kind);
        if (before === after) expect(parts.every((p) => p.kind === 'same')).toBe(true);
      }),
    );
  });
});

describe('paging a large list', () => {
  it('asks only for the pages the rows on screen need, within the total', () => {
    expect(pagesFor(0, 20, 100_000)).toEqual([0]);
    expect(pagesFor(95, 130, 100_000)).toEqual([0, 1]);
    expect(pagesFor(99_990, 100_020, 100_000)).toEqual([999]);
    expect(pagesFor(0, 10, 0)).toEqual([]);
  });

  it('forgets the pages farthest from the view first, keeping at most the maximum', () => {
    expect(pagesToEvict([0, 1, 2, 3, 4], 4, 3).sort()).toEqual([0, 1]);
    expect(pagesToEvict([0, 1], 0, 3)).toEqual([]);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(2000), { maxLength: 80 }), fc.nat(2000), fc.integer({ min: 1, max: 40 }), (loaded, focus, max) => {
        const evicted = pagesToEvict(loaded, focus, max);
        const kept = loaded.filter((p) => !evicted.includes(p));
        expect(kept.length).toBe(Math.min(loaded.length, max));
        const farthestKept = Math.max(-1, ...kept.map((p) => Math.abs(p - focus)));
        for (const p of evicted) expect(Math.abs(p - focus)).toBeGreaterThanOrEqual(farthestKept);
      }),
    );
  });

  it('finds a row in its page and orders a shift-click range', () => {
    const pages = { 1: Array.from({ length: PAGE_SIZE }, (_, i) => `row ${PAGE_SIZE + i}`) };
    expect(rowAt(pages, PAGE_SIZE + 5)).toBe(`row ${PAGE_SIZE + 5}`);
    expect(rowAt(pages, 3)).toBeUndefined();
    expect(rowRange(9, 4)).toEqual({ start: 4, end: 9 });
    expect(rowRange(4, 9)).toEqual({ start: 4, end: 9 });
  });
});

describe('search as you type', () => {
  function fakeTimers(): Timers & { advance(ms: number): void } {
    let now = 1000;
    let pending: Array<{ at: number; fn: () => void; id: number }> = [];
    let nextId = 1;
    return {
      now: () => now,
      setTimeout: (fn, ms) => {
        const id = nextId++;
        pending.push({ at: now + ms, fn, id });
        return id;
      },
      clearTimeout: (id) => {
        pending = pending.filter((p) => p.id !== id);
      },
      advance(ms) {
        now += ms;
        const due = pending.filter((p) => p.at <= now);
        pending = pending.filter((p) => p.at > now);
        for (const p of due) p.fn();
      },
    };
  }

  it('searches at once after a pause, folds fast keystrokes into one search, and always ends with the last text', () => {
    const timers = fakeTimers();
    const run = vi.fn();
    const search = throttleTrailing<string>(150, run, timers);
    search('t');
    expect(run.mock.calls).toEqual([['t']]);
    timers.advance(40);
    search('te');
    timers.advance(40);
    search('tea');
    expect(run).toHaveBeenCalledTimes(1);
    timers.advance(70);
    expect(run.mock.calls).toEqual([['t'], ['tea']]);
    timers.advance(1000);
    search('tea ');
    expect(run.mock.calls.at(-1)).toEqual(['tea ']);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('cancel drops a waiting search', () => {
    const timers = fakeTimers();
    const run = vi.fn();
    const search = throttleTrailing<string>(150, run, timers);
    search('a');
    search('ab');
    search.cancel();
    timers.advance(500);
    expect(run.mock.calls).toEqual([['a']]);
  });
});

describe('browser filters', () => {
  it('defaults to active memories, newest first', () => {
    expect(listInput(defaultQuery, 0, 100)).toEqual({ statuses: ['active'], sort: 'created', offset: 0, limit: 100 });
    expect(activeFilterCount(defaultQuery)).toBe(0);
  });

  it('turns local days into a time range that includes the whole last day', () => {
    const from = localDayStart('2026-03-01')!;
    const to = localDayStart('2026-03-03')!;
    const f = filtersOf({ ...defaultQuery, createdFrom: '2026-03-01', createdTo: '2026-03-03' });
    expect(f.createdFrom).toBe(from);
    expect(f.createdTo).toBe(nextLocalDay(to));
    expect(new Date(f.createdTo!).getDate()).toBe(4);
    expect(toDateInput(from)).toBe('2026-03-01');
    expect(localDayStart('not a date')).toBeUndefined();
  });

  it('a search text ranks by relevance unless another order is chosen; the trash tab overrides the status', () => {
    const q = { ...defaultQuery, text: '  green tea ', categories: ['preference' as const], pinned: 'pinned' as const };
    expect(effectiveSort(q)).toBe('relevance');
    expect(searchInput(q)).toEqual({ query: 'green tea', statuses: ['active'], categories: ['preference'], pinned: true, limit: 100 });
    expect(effectiveSort({ ...q, byRelevance: false, sort: 'importance' })).toBe('importance');
    expect(listInput({ ...q, byRelevance: false }, 200, 100, ['trashed'])).toMatchObject({ query: 'green tea', statuses: ['trashed'], offset: 200 });
    expect(filtersOf({ ...defaultQuery, status: 'all' }).statuses).toHaveLength(6);
    expect(activeFilterCount({ ...q, status: 'archived', sourceThreadId: 3 })).toBe(4);
  });
});

describe('tab counts', () => {
  it('a list that is the whole of a tab must total its count; a search or a filter makes it a part', () => {
    expect(countedStatus(defaultQuery, false)).toBe('active');
    expect(countedStatus({ ...defaultQuery, sort: 'importance' }, false)).toBe('active');
    expect(countedStatus(defaultQuery, true)).toBe('trashed');
    expect(countedStatus({ ...defaultQuery, status: 'all' }, false)).toBeNull();
    expect(countedStatus({ ...defaultQuery, status: 'archived' }, false)).toBeNull();
    expect(countedStatus({ ...defaultQuery, text: 'tea' }, false)).toBeNull();
    expect(countedStatus({ ...defaultQuery, text: 'tea', byRelevance: false }, true)).toBeNull();
    expect(countedStatus({ ...defaultQuery, categories: ['skill'] }, false)).toBeNull();
    expect(countedStatus({ ...defaultQuery, pinned: 'pinned' }, true)).toBeNull();
    expect(countedStatus({ ...defaultQuery, createdFrom: '2026-01-01' }, false)).toBeNull();
  });
});

describe('timeline', () => {
  const event = (id: number, at: Date, kind = 'learned'): TimelineEvent => ({ id, kind, memoryId: id, threadId: null, messageId: null, category: 'knowledge', data: {}, createdAt: at.getTime() });

  it('cuts the stream into local days, newest first, keeping the order within a day', () => {
    const groups = groupByDay([event(4, new Date(2026, 2, 3, 23, 59)), event(3, new Date(2026, 2, 3, 0, 1)), event(2, new Date(2026, 2, 1, 12)), event(1, new Date(2026, 2, 1, 8))], systemTimeZone());
    expect(groups.map((g) => [toDateInput(g.day), g.events.map((e) => e.id)])).toEqual([
      ['2026-03-03', [4, 3]],
      ['2026-03-01', [2, 1]],
    ]);
  });

  it('has a label in both languages for every kind it knows, and a generic one for the rest', () => {
    for (const kind of KNOWN_KINDS) {
      expect(dictionaries.en[kindLabelKey(kind)]).toBeTruthy();
      expect(dictionaries['zh-CN'][kindLabelKey(kind)]).toBeTruthy();
    }
    expect(kindLabelKey('something_new')).toBe('timeline.kind.other');
    for (const kinds of Object.values(KIND_FILTERS)) for (const kind of kinds) expect(KNOWN_KINDS).toContain(kind);
  });

  it('labels the failure of every kind of background job and lists it under Failures', () => {
    // The kind the core writes when a job of each kind fails for good (create-core.ts, the queue's onDead).
    for (const job of JobKind.options) {
      const kind = FAILED_JOB_KIND[job];
      expect(kindLabelKey(kind)).toBe(`timeline.kind.${kind}`);
      expect(dictionaries['zh-CN'][kindLabelKey(kind)]).toBeTruthy();
      expect(KIND_FILTERS.failed).toContain(kind);
    }
  });

  it('lays bars out side by side, the busiest one full height', () => {
    const bars = layoutBars(
      [
        { start: 0, learned: 2, changed: 2 },
        { start: 1, learned: 0, changed: 0 },
        { start: 2, learned: 1, changed: 0 },
      ],
      300,
      80,
    );
    expect(bars.map((b) => b.learnedHeight + b.changedHeight)).toEqual([80, 0, 20]);
    for (let i = 1; i < bars.length; i++) expect(bars[i]!.x).toBeGreaterThanOrEqual(bars[i - 1]!.x + bars[i - 1]!.width);
    expect(bars[2]!.x + bars[2]!.width).toBeLessThanOrEqual(300);
    expect(layoutBars([], 300, 80)).toEqual([]);
  });
});
