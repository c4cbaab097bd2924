import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictionaries, translate, type Language, type Message } from '../../renderer/src/i18n/i18n';

const en = dictionaries.en;
const languages = Object.keys(dictionaries) as Language[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** A message's forms by name; a plain string is its own "other" form. */
const forms = (message: Message): Record<string, string> => (typeof message === 'string' ? { other: message } : message);
const other = (message: Message) => (typeof message === 'string' ? message : message.other);

describe('UI strings', () => {
  it.each(languages)('%s has every key of en, and no key en lacks', (language) => {
    expect(Object.keys(dictionaries[language]).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(languages)('%s names each key once in its file (JSON keeps the last of two silently: a merge can leave one)', (language) => {
    const file = fs.readFileSync(path.join(import.meta.dirname, '../../renderer/src/locales', `${language}.json`), 'utf8');
    const keys = [...file.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1]!);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it.each(languages)('%s has every string translated (non-empty) in every form', (language) => {
    for (const [key, message] of Object.entries(dictionaries[language])) {
      for (const [form, text] of Object.entries(forms(message))) expect(text.trim(), `${key} ${form}`).not.toBe('');
    }
  });

  it.each(languages)('%s uses exactly the parameters of the English string', (language) => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const message = dictionaries[language][key];
      expect(placeholders(other(message)), key).toEqual(placeholders(other(en[key])));
      // A form for a particular count may write the number out ("1 memory"), never use a parameter the others lack.
      for (const [form, text] of Object.entries(forms(message))) expect(placeholders(other(message)), `${key} ${form}`).toEqual(expect.arrayContaining(placeholders(text)));
    }
  });

  it.each(languages)('%s plural messages have the forms its plural rules pick, and only those', (language) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const [key, message] of Object.entries(dictionaries[language])) {
      if (typeof message === 'string') continue;
      const named = Object.keys(message).filter((form) => !/^=\d+$/.test(form));
      expect(named.sort(), key).toEqual([...categories].sort());
    }
  });

  it('fills parameters and picks the form for the count', () => {
    expect(translate('en', 'receipt.summary', { count: 3 })).toBe('3 memories used');
    expect(translate('en', 'receipt.summary', { count: 1 })).toBe('1 memory used');
    expect(translate('en', 'receipt.summary', { count: 0 })).toBe('0 memories used');
    expect(translate('zh-CN', 'receipt.summary', { count: 3 })).toBe('使用了 3 条记忆');
    expect(translate('zh-CN', 'receipt.summary', { count: 1 })).toBe('使用了 1 条记忆');
    expect(translate('en', 'threads.rename', { title: 'Plans' })).toBe('Rename “Plans”');
    // A parameter the caller did not give stays visible rather than vanishing.
    expect(translate('en', 'threads.rename', {})).toBe('Rename “{title}”');
    // Without a count, the general form.
    expect(translate('en', 'receipt.summary')).toBe('{count} memories used');
  });

  it('counted messages read right for one (issue 30: "Changed 1 memories", "1 were")', () => {
    expect(translate('en', 'memories.bulk.doneSkipped', { count: 1, skipped: 1 })).toBe('Changed 1 memory; already that way: 1.');
    expect(translate('en', 'memories.bulk.trashedSkipped', { count: 1, skipped: 1 })).toBe('Moved 1 memory to the trash; already there: 1.');
    expect(translate('en', 'timeline.consolidatedCount', { count: 1 })).toBe('summarises 1 memory');
    expect(translate('en', 'timeline.undoSummaryDone', { count: 1 })).toBe('The memory is back; the summary is in the trash.');
    expect(translate('en', 'memories.bulk.trashedSkipped', { count: 3, skipped: 2 })).toBe('Moved 3 memories to the trash; already there: 2.');
    expect(translate('zh-CN', 'memories.bulk.doneSkipped', { count: 1, skipped: 1 })).toBe('已更改 1 条记忆；1 条原本就是这样。');
  });

  it('an exact form ("=1") wins over the plural category, in a language whose rules have no "one"', () => {
    const params = (count: number) => ({ count, n: String(count), days: 30 });
    expect(translate('zh-CN', 'transfer.cap.trash', params(1))).toBe('Mnemo 自己学到的记忆比上限多 1 条：下次维护会把其中最不重要、最少使用的那条移入回收站，30 天内可以恢复。');
    expect(translate('zh-CN', 'transfer.cap.trash', params(2))).toBe('Mnemo 自己学到的记忆比上限多 2 条：下次维护会把其中最不重要、最少使用的 2 条移入回收站，30 天内可以恢复。');
  });
});
