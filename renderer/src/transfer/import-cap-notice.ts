/**
 * What an import's report says about the cap on active memories, as UI messages: nothing while the active total
 * stays within the cap; past it, that imported memories never count against it, and whether the next maintenance
 * will move any of Mnemo's own learned memories to the trash (only when those alone are beyond the cap).
 */
import type { ImportReport } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import type { Language, MessageKey, Params } from '../i18n/i18n';

export interface Notice {
  key: MessageKey;
  params: Params;
}

export function importCapNotice({ dryRun, cap: c }: Pick<ImportReport, 'dryRun' | 'cap'>, language: Language): Notice[] {
  if (c.active <= c.cap) return [];
  const n = (value: number) => formatNumber(value, language, 0);
  return [
    { key: dryRun ? 'transfer.cap.after' : 'transfer.cap.now', params: { active: n(c.active), cap: n(c.cap), learned: n(c.learned) } },
    c.overCap > 0 ? { key: 'transfer.cap.trash', params: { count: c.overCap, n: n(c.overCap), days: c.restorableDays } } : { key: 'transfer.cap.nothing', params: {} },
  ];
}
