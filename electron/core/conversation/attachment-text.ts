/**
 * How a user message's attached files go to the model, as pure functions: the typed text first, then each file as a
 * block naming it. The text of the files was extracted on the user's side (renderer/src/lib/read-attachment.ts); the
 * core never parses files. When the files do not fit the tokens allowed, each is cut keeping its beginning and its
 * end (a document's title and its conclusion are what a question most often refers to), with a visible note in the
 * middle, so neither the model nor the user mistakes a cut file for a whole one.
 */
import type { MessageAttachment } from '../../../shared/contract';
import { estimateTokens, fitsWithin, maxCharsWithin } from '../text/token-estimate';

/** The note standing in the middle of a cut file; N of M characters were left out. */
export function cutNote(cutChars: number, totalChars: number): string {
  return `[… cut: ${cutChars} of ${totalChars} characters …]`;
}

function block(name: string, text: string): string {
  return `<attached_file name="${name.replace(/"/g, "'")}">\n${text}\n</attached_file>`;
}

/** The user message as the model reads it: the typed text, then each attached file. */
export function composeUserContent(text: string, attachments: readonly MessageAttachment[]): string {
  if (attachments.length === 0) return text;
  return [text, ...attachments.map((a) => block(a.name, a.text))].join('\n\n');
}

/**
 * The longest cut of `text` (beginning + note + end, halves as equal as they can be) whose estimate is within
 * `maxTokens`; the whole text when it fits. Never longer than the text itself.
 */
export function cutKeepingEnds(text: string, maxTokens: number, estimate: (t: string) => number): { text: string; cut: boolean } {
  if (fitsWithin(text, maxTokens, estimate)) return { text, cut: false };
  const withKept = (kept: number): string => {
    const head = Math.ceil(kept / 2);
    const tail = kept - head;
    return `${text.slice(0, head)}\n${cutNote(text.length - kept, text.length)}\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
  };
  // Binary search on the characters kept: the estimate grows with them (token-estimate.ts: runs never get cheaper).
  // A cut keeping more than maxCharsWithin characters is longer than that and cannot fit, so with Mnemo's estimator
  // the search costs the budget, not the file (500,000 characters at most: ATTACHMENT_LIMITS).
  let lo = 0;
  let hi = estimate === estimateTokens ? Math.min(text.length - 1, maxCharsWithin(maxTokens)) : text.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitsWithin(withKept(mid), maxTokens, estimate)) lo = mid;
    else hi = mid - 1;
  }
  return { text: withKept(lo), cut: true };
}

export interface FittedUserContent {
  content: string;
  /** Estimated tokens of the attached files as sent (blocks included). */
  attachmentTokens: number;
  cut: boolean;
}

/**
 * The user message with its files within `maxAttachmentTokens` (uncalibrated estimate): each file gets an equal share,
 * and what a small file leaves unused goes to the larger ones.
 */
export function fitUserContent(
  text: string,
  attachments: readonly MessageAttachment[],
  maxAttachmentTokens: number,
  estimate: (t: string) => number,
): FittedUserContent {
  if (attachments.length === 0) return { content: text, attachmentTokens: 0, cut: false };
  const blockOverhead = (a: MessageAttachment) => estimate(block(a.name, '')) + 1;
  // Smallest first; a file is counted whole only when there is another to order it against.
  const tokens = new Map<number, number>();
  const tokensOf = (i: number): number => tokens.get(i) ?? tokens.set(i, estimate(attachments[i]!.text)).get(i)!;
  const order = attachments.map((a, i) => ({ a, i })).sort((x, y) => tokensOf(x.i) - tokensOf(y.i));
  const fitted: string[] = new Array<string>(attachments.length);
  let left = Math.max(0, maxAttachmentTokens);
  let cut = false;
  order.forEach(({ a, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    const room = Math.max(0, share - blockOverhead(a));
    const one = cutKeepingEnds(a.text, room, estimate);
    cut ||= one.cut;
    fitted[i] = block(a.name, one.text);
    left -= Math.min(share, estimate(fitted[i]) + 1);
  });
  const attachmentText = fitted.join('\n\n');
  return { content: `${text}\n\n${attachmentText}`, attachmentTokens: estimate(attachmentText), cut };
}
