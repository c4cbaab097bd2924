/**
 * Every case of the grounding corpus (test/fixtures/evidence-corpus.ts) through the extraction parser, as the model's
 * whole answer: a candidate in the user's words is kept however it is phrased, one in another language than the
 * message waits for review, one that says what the user did not say is dropped for that reason (not another). A
 * failure prints every wrong verdict and the count per kind, so a rule change shows its whole effect at once.
 */
import { describe, expect, it } from 'vitest';
import { parseExtraction, type DropReason } from '../../electron/core/extraction/extract-parse';
import { GROUNDING_CORPUS, type GroundingCase } from '../fixtures/evidence-corpus';

const MESSAGE_DATE = Date.UTC(2025, 2, 10, 9, 30);
/** The reasons that mean "not what the user said". */
const NOT_GROUNDED: ReadonlySet<DropReason> = new Set(['evidence_not_in_user_text', 'evidence_too_short', 'content_not_in_user_text']);

function verdictOf(c: GroundingCase): string {
  const raw = JSON.stringify({ memories: [{ content: c.content, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence: c.evidence }] });
  const { candidates, dropped } = parseExtraction(raw, { userText: c.userText, messageDate: MESSAGE_DATE });
  const [candidate] = candidates;
  if (candidate) return candidate.flag === null ? 'keep' : candidate.flag === 'language' ? 'review' : `review (${candidate.flag})`;
  const reason = dropped[0]?.reason;
  return reason !== undefined && NOT_GROUNDED.has(reason) ? 'refuse' : `dropped: ${reason ?? 'nothing'}`;
}

function report(wrong: Array<{ c: GroundingCase; got: string }>): string {
  const kinds = [...new Set(GROUNDING_CORPUS.map((c) => c.kind))];
  const counts = kinds.map((kind) => {
    const all = GROUNDING_CORPUS.filter((c) => c.kind === kind).length;
    return `${kind}: ${wrong.filter((w) => w.c.kind === kind).length} wrong of ${all}`;
  });
  const rows = wrong.map(({ c, got }) => `${c.kind} | ${c.language} | ${c.note} | expected ${c.verdict}, got ${got} | ${c.content} <- ${c.evidence}`);
  return [`${wrong.length} of ${GROUNDING_CORPUS.length} wrong`, ...counts, '', 'kind | lang | note | verdict | content <- evidence', ...rows].join('\n');
}

describe('grounding corpus', () => {
  it('has at least 60 cases, every verdict in both languages', () => {
    expect(GROUNDING_CORPUS.length).toBeGreaterThanOrEqual(60);
    for (const verdict of ['keep', 'review', 'refuse'] as const) {
      for (const language of ['en', 'zh'] as const) {
        expect(GROUNDING_CORPUS.some((c) => c.verdict === verdict && c.language === language), `${verdict}/${language}`).toBe(true);
      }
    }
  });

  it('keeps what the user said, however phrased; refuses what the user did not say; sends other languages to review', () => {
    const wrong = GROUNDING_CORPUS.map((c) => ({ c, got: verdictOf(c) })).filter(({ c, got }) => got !== c.verdict);
    expect(wrong.length, report(wrong)).toBe(0);
  });
});
