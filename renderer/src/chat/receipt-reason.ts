/**
 * Why an answer used a memory, in words, for its receipt: "pinned: always used", "similar in meaning to your
 * message", and for a memory found by its words, which ones ("matches “tea” and “coffee”", as the message wrote
 * them; the core records them with the receipt). A bare score would read as weakness: a pinned memory scores below
 * any keyword hit.
 */
import { translate, type Language } from '../i18n/i18n';
import { formatList } from '../format/format';
import type { MemoryUse } from './chat-merge';

export function receiptReason(use: Pick<MemoryUse, 'reason' | 'matched'>, language: Language): string {
  if (use.reason === 'keyword' && use.matched && use.matched.length > 0) {
    const words = formatList(
      use.matched.map((word) => translate(language, 'receipt.matchedWord', { word })),
      language,
    );
    return translate(language, 'receipt.why.keywordMatched', { words });
  }
  return translate(language, `receipt.why.${use.reason}`);
}
