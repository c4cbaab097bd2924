/**
 * The files of a user message that Mnemo may learn from, and which of them a memory's evidence came from. A file is
 * learned from only when the user ticked "Learn from this file" for it (MessageAttachment.learn): extraction then reads
 * its text as the user's own words (extraction.job.ts), and a memory's provenance names the file its evidence is
 * found in (memory.service.ts), read from the message each time rather than stored: the file name is the user's text,
 * which stays with the message and goes when the message does.
 */
import type { MessageAttachment } from '../../../shared/contract';
import { normalizeForEvidence, evidenceSupportedBy } from '../safety/candidate-grounding';

/** The attachments the user let Mnemo learn from; never any other. */
export function learnedFiles(attachments: readonly MessageAttachment[]): MessageAttachment[] {
  return attachments.filter((a) => a.learn === true);
}

/**
 * The name of the learned file that holds `evidence`, or null when the typed text holds it (the message comes first)
 * or no learned file does. "Holds" is the evidence rule of candidate-grounding.ts, with a verbatim quote checked first
 * (cheap even for a long file).
 */
export function evidenceFile(evidence: string | null, typedText: string, attachments: readonly MessageAttachment[]): string | null {
  const files = learnedFiles(attachments);
  if (evidence === null || files.length === 0) return null;
  if (evidenceSupportedBy(evidence, typedText)) return null;
  const quote = normalizeForEvidence(evidence);
  const verbatim = files.find((f) => normalizeForEvidence(f.text).includes(quote));
  if (verbatim) return verbatim.name;
  return files.find((f) => evidenceSupportedBy(evidence, f.text))?.name ?? null;
}
