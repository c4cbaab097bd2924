/**
 * The database's version in words: "Database version 17" for the migration "0017_reply_writer". A migration's name
 * means nothing to a user, so no hover or line shows it outside Settings' support tooltip; a name without a number
 * is shown as it is.
 */
import type { useT } from '../i18n/use-t';

export function schemaLabel(schemaVersion: string, t: ReturnType<typeof useT>): string {
  const match = /^(\d+)_/.exec(schemaVersion);
  return match ? t('status.schemaVersion', { n: Number(match[1]) }) : `${t('status.schema')}: ${schemaVersion}`;
}
