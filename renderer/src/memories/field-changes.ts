import type { MemoryVersion } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import { toDateInput } from '../format/local-day';
import type { Language } from '../i18n/i18n';
import type { Translate } from '../i18n/use-t';

/** What changed from one version to the next besides the text, in words ("category Skill → Project", "pinned"). */
export function fieldChanges(before: MemoryVersion, after: MemoryVersion, t: Translate, language: Language): string[] {
  const changes: string[] = [];
  if (before.category !== after.category) changes.push(t('history.change.category', { from: t(`category.${before.category}`), to: t(`category.${after.category}`) }));
  if (before.importance !== after.importance) {
    changes.push(t('history.change.importance', { from: formatNumber(before.importance, language, 2), to: formatNumber(after.importance, language, 2) }));
  }
  if (before.pinned !== after.pinned) changes.push(after.pinned ? t('history.change.pinned') : t('history.change.unpinned'));
  if (before.status !== after.status) changes.push(t('history.change.status', { from: t(`status.memory.${before.status}`), to: t(`status.memory.${after.status}`) }));
  if (before.expiresAt !== after.expiresAt) {
    changes.push(after.expiresAt === null ? t('history.change.noExpiry') : t('history.change.expiry', { date: toDateInput(after.expiresAt) }));
  }
  return changes;
}
