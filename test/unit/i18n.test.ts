import { describe, expect, it } from 'vitest';
import { dictionaries, translate } from '../../renderer/src/i18n';

const en = dictionaries.en;
const zh = dictionaries['zh-CN'];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('UI strings', () => {
  it('zh-CN has every key of en, and no key en lacks', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('every string is translated (non-empty) in both languages', () => {
    for (const [key, text] of Object.entries(en)) expect(text.trim(), key).not.toBe('');
    for (const [key, text] of Object.entries(zh)) expect(text.trim(), key).not.toBe('');
  });

  it('a translation uses exactly the parameters of the English string', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
  });

  it('every singular (.one) form belongs to a plural key', () => {
    for (const key of Object.keys(en).filter((k) => k.endsWith('.one'))) expect(Object.keys(en), key).toContain(key.slice(0, -'.one'.length));
  });

  it('fills parameters and picks the singular form for a count of 1', () => {
    expect(translate('en', 'receipt.summary', { count: 3 })).toBe('3 memories used');
    expect(translate('en', 'receipt.summary', { count: 1 })).toBe('1 memory used');
    expect(translate('zh-CN', 'receipt.summary', { count: 3 })).toBe('使用了 3 条记忆');
    expect(translate('en', 'threads.rename', { title: 'Plans' })).toBe('Rename “Plans”');
    // A parameter the caller did not give stays visible rather than vanishing.
    expect(translate('en', 'threads.rename', {})).toBe('Rename “{title}”');
  });
});
