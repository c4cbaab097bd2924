import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backupName, parseBackupName } from '../../electron/core/backup/backup.service';
import { parseImport, parseTextImport } from '../../electron/core/memory/import-parse';
import { renderMarkdownExport, type MarkdownMemory } from '../../electron/core/memory/memory-export';
import { decayedImportance, pickSurvivor } from '../../electron/core/memory/memory-maintenance';

const text = (t: string, category: Parameters<typeof parseTextImport>[1] = 'knowledge') =>
  parseTextImport(t, category).map(({ line, content, category, invalid, ...rest }) => ({ line, content, category, ...(invalid ? { invalid } : {}), ...rest }));

describe('text import parsing', () => {
  it('takes one memory per line and strips bullets, numbers and checkboxes', () => {
    const items = text(['- Prefers tea', '* Lives in Lisbon', '+ Has a cat', '1. Works as a designer', '2) Plays chess', '- [ ] Learns Rust', '- [x] Ran a marathon', '• Likes jazz', '① 喜欢猫', '一、住在上海'].join('\n'));
    expect(items.map((i) => i.content)).toEqual([
      'Prefers tea',
      'Lives in Lisbon',
      'Has a cat',
      'Works as a designer',
      'Plays chess',
      'Learns Rust',
      'Ran a marathon',
      'Likes jazz',
      '喜欢猫',
      '住在上海',
    ]);
    expect(items.map((i) => i.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('reads an assistant’s “what I remember about you” answer: the list, not the prose around it (English and Chinese)', () => {
    const chatgpt = [
      "Here's what I remember about you:",
      '',
      "1. **Name:** You're Alex, and you prefer to be called Al.",
      '2. **Work:** You work as a software engineer, mostly in TypeScript and Rust.',
      '- You have a dog named Miso.',
      '',
      "Let me know if you'd like me to update or forget anything!",
    ].join('\n');
    const items = text(chatgpt);
    expect(items.filter((i) => !i.invalid).map((i) => [i.line, i.content])).toEqual([
      [3, "Name: You're Alex, and you prefer to be called Al."],
      [4, 'Work: You work as a software engineer, mostly in TypeScript and Rust.'],
      [5, 'You have a dog named Miso.'],
    ]);
    expect(items.find((i) => i.line === 7)).toMatchObject({ invalid: expect.stringContaining('Not part of the list') });

    const zh = text('以下是我记得的关于你的信息：\n- 你住在上海\n- 你喜欢喝绿茶\n如果需要修改，请告诉我。');
    expect(zh.filter((i) => !i.invalid).map((i) => i.content)).toEqual(['你住在上海', '你喜欢喝绿茶']);
    expect(zh.at(-1)).toMatchObject({ content: '如果需要修改，请告诉我。', invalid: expect.any(String) });
    // Plain lines, or a few bullets among them, are all memories: the rule is for a list wrapped in prose.
    expect(text('Prefers tea\nLives in Lisbon\n- Has a cat').filter((i) => i.invalid)).toEqual([]);
  });

  it('does not take numbers, signs or bold text that start a sentence for list markers', () => {
    expect(text('1.5 litres of water a day\n-5 °C feels cold to them\n**Vegetarian** since 2019').map((i) => i.content)).toEqual([
      '1.5 litres of water a day',
      '-5 °C feels cold to them',
      'Vegetarian since 2019',
    ]);
  });

  it('sets the category from headings (English and Chinese, #, bold or colon) until the next heading', () => {
    const items = text(
      [
        "Here is what I remember about you:",
        '- Lives in Lisbon',
        '## Preferences',
        '- Prefers tea',
        '**Projects**',
        '- Building a birdhouse',
        '技能：',
        '- 会说西班牙语',
        '# Miscellaneous',
        '- Has a cat',
        '### 偏好',
        '- 喜欢爵士乐',
      ].join('\n'),
      'skill',
    );
    expect(items.map((i) => [i.content, i.category])).toEqual([
      ['Lives in Lisbon', 'knowledge'],
      ['Prefers tea', 'preference'],
      ['Building a birdhouse', 'project'],
      ['会说西班牙语', 'skill'],
      ['Has a cat', 'skill'],
      ['喜欢爵士乐', 'preference'],
    ]);
  });

  it('skips blank lines and lines without letters, and reports short or overlong lines as invalid', () => {
    const items = text(['', '   ', '---', '| --- | --- |', '- ok', '- 好', '- 好的呀', 'x'.repeat(4001)].join('\n'));
    expect(items).toEqual([
      { line: 5, content: 'ok', category: 'knowledge', invalid: 'too short to be a memory' },
      { line: 6, content: '好', category: 'knowledge', invalid: 'too short to be a memory' },
      { line: 7, content: '好的呀', category: 'knowledge' },
      { line: 8, content: 'x'.repeat(4001), category: 'knowledge', invalid: 'longer than 4000 characters' },
    ]);
  });

  it('reads back the metadata group the Markdown profile writes, and leaves other parentheses alone', () => {
    const items = text(['- Prefers tea _(pinned · importance 0.80 · expires 2026-03-01)_', '- 喜欢猫 _(置顶 · 重要度 0.30)_', '- Plays chess _(on Sundays)_'].join('\n'));
    expect(items).toEqual([
      { line: 1, content: 'Prefers tea', category: 'knowledge', pinned: true, importance: 0.8, expiresAt: Date.UTC(2026, 2, 1, 23, 59, 59, 999) }, // the last day it holds
      { line: 2, content: '喜欢猫', category: 'knowledge', pinned: true, importance: 0.3 },
      { line: 3, content: 'Plays chess _(on Sundays)_', category: 'knowledge' },
    ]);
  });

  it('never throws, and every item it returns has its source line and either a category or a reason', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('## Skills', '- [x] ', '偏好：', '**', '1. ', '_(importance 2)_')), { maxLength: 20 }), (lines) => {
        const items = parseTextImport(lines.join('\n'), 'project');
        for (const item of items) {
          expect(item.line).toBeGreaterThanOrEqual(1);
          expect(item.line).toBeLessThanOrEqual(lines.length || 1);
          expect(item.category).not.toBeNull();
          if (!item.invalid) expect(item.content.trim()).toBe(item.content);
        }
      }),
    );
  });

  it('auto-detects a Mnemo export and refuses other JSON with a clear message', () => {
    expect(parseImport('- Prefers tea', 'auto', 'knowledge').format).toBe('text');
    expect(parseImport('{"format":"mnemo.memories","version":1,"exportedAt":"x","app":{"name":"Mnemo","version":"1","schemaVersion":"s"},"count":0,"memories":[]}', 'auto', 'knowledge')).toEqual({
      format: 'mnemo-json',
      items: [],
    });
    expect(() => parseImport('{"memories": []}', 'auto', 'knowledge')).toThrow(/not a Mnemo memory export/);
    expect(() => parseImport('{not json', 'auto', 'knowledge')).toThrow(/not valid JSON/);
    expect(() => parseImport('{"format":"mnemo.memories","version":99}', 'auto', 'knowledge')).toThrow(/newer Mnemo/);
    // Forced text: a JSON-looking line is just a line.
    expect(parseImport('{"a": "Prefers tea"}', 'text', 'knowledge').items).toHaveLength(1);
  });
});

describe('Markdown profile', () => {
  const m = (id: number, content: string, more: Partial<MarkdownMemory> = {}): MarkdownMemory => ({ id, content, category: 'knowledge', importance: 0.5, pinned: 0, expires_at: null, ...more });

  it('groups by category, pinned first then by importance, and reads back through the text import', () => {
    const memories = [
      m(1, 'Lives in Lisbon', { importance: 0.4 }),
      m(2, 'Prefers tea', { category: 'preference', importance: 0.9 }),
      m(3, 'Has a cat', { importance: 0.2, pinned: 1 }),
      m(4, 'Works\non a birdhouse', { category: 'project', expires_at: Date.UTC(2026, 5, 1, 23, 59, 59, 999) }),
      m(5, 'Speaks Spanish', { importance: 0.7 }),
    ];
    const md = renderMarkdownExport(memories, { at: Date.UTC(2026, 0, 2), language: 'en', timeZone: 'UTC' });
    expect(md).toBe(
      [
        '# What Mnemo remembers about you (2026-01-02, 5 memories)',
        '',
        '## Knowledge',
        '',
        '- Has a cat _(pinned · importance 0.20)_',
        '- Speaks Spanish _(importance 0.70)_',
        '- Lives in Lisbon _(importance 0.40)_',
        '',
        '## Preferences',
        '',
        '- Prefers tea _(importance 0.90)_',
        '',
        '## Projects',
        '',
        '- Works on a birdhouse _(importance 0.50 · expires 2026-06-01)_',
        '',
      ].join('\n'),
    );
    const back = parseTextImport(md, 'skill');
    expect(back.map((i) => [i.content, i.category, i.importance, i.pinned ?? false, i.expiresAt ?? null])).toEqual([
      ['Has a cat', 'knowledge', 0.2, true, null],
      ['Speaks Spanish', 'knowledge', 0.7, false, null],
      ['Lives in Lisbon', 'knowledge', 0.4, false, null],
      ['Prefers tea', 'preference', 0.9, false, null],
      ['Works on a birdhouse', 'project', 0.5, false, Date.UTC(2026, 5, 1, 23, 59, 59, 999)],
    ]);
  });

  it('writes Chinese headings for a Chinese interface, which the import maps back', () => {
    const md = renderMarkdownExport([m(1, '喜欢猫', { category: 'preference' }), m(2, '会说西班牙语', { category: 'skill' })], { at: 0, language: 'zh-CN', timeZone: 'UTC' });
    expect(md).toContain('## 偏好\n\n- 喜欢猫 _(重要度 0.50)_');
    expect(parseTextImport(md, 'knowledge').map((i) => i.category)).toEqual(['preference', 'skill']);
  });

  it('starts with the profile under "About you", whose lines the import skips while the memories after it come back', () => {
    const profile = '# Ana\n## Name\n- Ana\n## Location\n- Porto\n\nPrefers short answers:\n- in Portuguese';
    const md = renderMarkdownExport([m(1, 'Lives in Porto'), m(2, 'Likes green tea', { category: 'preference' })], { at: 0, language: 'en', timeZone: 'UTC', profile });
    expect(md).toContain('# What Mnemo remembers about you (1970-01-01, 2 memories)\n\n## About you\n\n### Ana\n#### Name\n- Ana\n#### Location\n- Porto\n');
    expect(md.indexOf('## About you')).toBeLessThan(md.indexOf('## Knowledge'));
    expect(parseTextImport(md, 'skill').map((i) => [i.content, i.category])).toEqual([
      ['Lives in Porto', 'knowledge'],
      ['Likes green tea', 'preference'],
    ]);
    const zh = renderMarkdownExport([m(1, '住在波尔图')], { at: 0, language: 'zh-CN', timeZone: 'UTC', profile: '## 姓名\n- 安娜' });
    expect(zh).toContain('## 关于你\n\n#### 姓名\n- 安娜');
    expect(parseTextImport(zh, 'skill').map((i) => i.content)).toEqual(['住在波尔图']);
  });

  it('lists active episodes after the memories, with their days and thread; the import skips them and keeps the memories', () => {
    const day = (d: number, h = 9) => Date.UTC(2026, 10, d, h);
    const episodes = [
      { id: 1, title: 'Lisbon trip', content: 'Wanted: a plan for May.\n## Places\n- Lisbon', started_at: day(2), ended_at: day(3), thread_title: 'Travel' },
      { id: 2, title: 'Budget', content: 'Planned the household budget.', started_at: day(4), ended_at: day(4, 10), thread_title: null },
    ];
    const md = renderMarkdownExport([m(1, 'Lives in Porto'), m(2, 'Likes green tea', { category: 'preference' })], { at: day(5), language: 'en', timeZone: 'UTC', episodes });
    expect(md).toContain(
      '## Episodes\n\n### Lisbon trip\n\n_2026-11-02 – 2026-11-03 · conversation “Travel”_\n\nWanted: a plan for May.\n#### Places\n- Lisbon\n\n' +
        '### Budget\n\n_2026-11-04 · conversation “Untitled conversation”_\n\nPlanned the household budget.\n',
    );
    expect(md.indexOf('## Preferences')).toBeLessThan(md.indexOf('## Episodes'));
    expect(parseTextImport(md, 'skill').map((i) => [i.content, i.category])).toEqual([
      ['Lives in Porto', 'knowledge'],
      ['Likes green tea', 'preference'],
    ]);
    const zh = renderMarkdownExport([m(1, '住在波尔图')], { at: day(5), language: 'zh-CN', timeZone: 'Asia/Shanghai', episodes });
    expect(zh).toContain('## 对话片段\n\n### Lisbon trip\n\n_2026-11-02 – 2026-11-03 · 对话「Travel」_');
    expect(zh).toContain('_2026-11-04 · 对话「未命名对话」_');
    expect(parseTextImport(zh, 'skill').map((i) => i.content)).toEqual(['住在波尔图']);
    // No section without episodes.
    expect(renderMarkdownExport([m(1, 'Lives in Porto')], { at: 0, language: 'en', timeZone: 'UTC', episodes: [] })).not.toContain('Episodes');
  });

  it('writes no "About you" section without a profile, and skips one only in a Mnemo export', () => {
    expect(renderMarkdownExport([m(1, 'Lives in Porto')], { at: 0, language: 'en', timeZone: 'UTC', profile: '  ' })).not.toContain('About you');
    // Another assistant's "About you" section is what it remembers: memories, filed under knowledge.
    expect(text('## About you\n- Lives in Porto\n## Preferences\n- Likes tea').map((i) => [i.content, i.category])).toEqual([
      ['Lives in Porto', 'knowledge'],
      ['Likes tea', 'preference'],
    ]);
  });
});

describe('maintenance rules', () => {
  const mem = (id: number, content: string, more: { pinned?: boolean; importance?: number } = {}) => ({ id, content, pinned: more.pinned ?? false, importance: more.importance ?? 0.5 });

  it('keeps the longer wording, but not beyond the cap; ties by pin, importance, age', () => {
    const short = mem(1, 'Likes tea');
    const long = mem(2, 'Likes green tea in the morning');
    expect(pickSurvivor(short, long)).toBe(long);
    expect(pickSurvivor(long, short)).toBe(long);
    const tooLong = mem(3, 'x'.repeat(301));
    expect(pickSurvivor(short, tooLong)).toBe(short);
    expect(pickSurvivor(mem(4, 'y'.repeat(400)), tooLong)).toBe(tooLong);
    expect(pickSurvivor(mem(5, 'abc', { pinned: true }), mem(6, 'abd'))).toMatchObject({ id: 5 });
    expect(pickSurvivor(mem(7, 'abc', { importance: 0.2 }), mem(8, 'abd', { importance: 0.3 }))).toMatchObject({ id: 8 });
    expect(pickSurvivor(mem(10, 'abc'), mem(9, 'abd'))).toMatchObject({ id: 9 });
  });

  it('picks the same survivor whichever way round', () => {
    const arb = fc.record({ id: fc.integer({ min: 1, max: 50 }), content: fc.string({ maxLength: 320 }), pinned: fc.boolean(), importance: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(arb, arb, (a, b) => {
        fc.pre(a.id !== b.id);
        expect(pickSurvivor(a, b)).toBe(pickSurvivor(b, a));
      }),
    );
  });

  it('decays by a fifth down to a floor, and never raises a lower importance', () => {
    expect(decayedImportance(0.25)).toBe(0.2);
    expect(decayedImportance(0.06)).toBe(0.05);
    expect(decayedImportance(0.05)).toBeNull();
    expect(decayedImportance(0.01)).toBeNull();
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (x) => {
        const next = decayedImportance(x);
        if (next !== null) {
          expect(next).toBeLessThan(x);
          expect(next).toBeGreaterThanOrEqual(0.05);
        }
      }),
    );
  });
});

describe('backup names', () => {
  it('round-trip kind and time, and ignore files that are not backups', () => {
    const at = Date.UTC(2026, 0, 31, 8, 5, 9, 42);
    expect(backupName('manual', at)).toBe('mnemo-2026-01-31T08-05-09-042Z.sqlite');
    expect(parseBackupName(backupName('manual', at))).toEqual({ kind: 'manual', createdAt: at });
    expect(parseBackupName(backupName('automatic', at))).toEqual({ kind: 'automatic', createdAt: at });
    expect(parseBackupName('mnemo-auto-2026-01-31T08-05-09-042Z-2.sqlite')).toEqual({ kind: 'automatic', createdAt: at });
    expect(parseBackupName('pre-migration-42.sqlite')).toEqual({ kind: 'pre-migration', createdAt: 42 });
    expect(parseBackupName('pre-restore-43.sqlite')).toEqual({ kind: 'pre-restore', createdAt: 43 });
    for (const other of ['mnemo-2026-01-31T08-05-09-042Z.sqlite.partial', 'notes.txt', 'pre-restore-43.sqlite-wal', 'mnemo.db']) expect(parseBackupName(other)).toBeNull();
  });
});
