/** The import panel's words about the cap on active memories, in both languages. */
import { describe, expect, it } from 'vitest';
import type { MemoryCapStanding } from '../../shared/contract';
import { translate, type Language } from '../../renderer/src/i18n/i18n';
import { importCapNotice } from '../../renderer/src/transfer/import-cap-notice';

const standing = (over: Partial<MemoryCapStanding> = {}): MemoryCapStanding => ({ cap: 10_000, active: 20_000, learned: 10_000, overCap: 0, restorableDays: 30, ...over });
const say = (dryRun: boolean, cap: MemoryCapStanding, language: Language = 'en') =>
  importCapNotice({ dryRun, cap }, language).map(({ key, params }) => translate(language, key, params));

describe('import cap notice', () => {
  it('says nothing while the active total stays within the cap', () => {
    expect(say(true, standing({ active: 10_000, learned: 4_000 }))).toEqual([]);
    expect(say(false, standing({ active: 9_999, learned: 9_999 }))).toEqual([]);
  });

  it('past the cap, says imported memories never count; and nothing is trashed while learned ones are within it', () => {
    expect(say(true, standing())).toEqual([
      'After this import you will have 20,000 active memories, more than the limit of 10,000. The limit counts only what Mnemo learned on its own (10,000 now): imported memories never count and are never moved to the trash for it.',
      'Nothing will be moved to the trash for the limit.',
    ]);
    expect(say(false, standing())[0]).toMatch(/^You now have 20,000 active memories, more than the limit of 10,000\./);
  });

  it('says how many learned memories the next maintenance moves to the trash, and how long they stay restorable', () => {
    expect(say(true, standing({ active: 20_500, learned: 10_500, overCap: 500, restorableDays: 14 }))[1]).toBe(
      'Mnemo learned 500 memories more than the limit allows: the next maintenance moves its 500 least useful learned ones to the trash, where you can restore them within 14 days.',
    );
    expect(say(true, standing({ learned: 10_001, overCap: 1 }))[1]).toBe(
      'Mnemo learned 1 memory more than the limit allows: the next maintenance moves its least useful learned one to the trash, where you can restore it within 30 days.',
    );
  });

  it('speaks Chinese too, with the numbers in place', () => {
    expect(say(true, standing({ active: 20_500, learned: 10_500, overCap: 500 }), 'zh-CN')).toEqual([
      '导入后你将有 20,500 条有效记忆，超过上限 10,000。上限只计算 Mnemo 自己学到的记忆（目前 10,500 条）：导入的记忆从不计入，也绝不会因此被移入回收站。',
      'Mnemo 自己学到的记忆比上限多 500 条：下次维护会把其中最不重要、最少使用的 500 条移入回收站，30 天内可以恢复。',
    ]);
  });
});
