import { meaningfulTerms } from './meaningful-terms';

/**
 * A user message with no more than this many meaningful terms (meaningful-terms.ts: stems without stop words, CJK
 * bigrams) is small talk ("hello", "ok thanks", 谢谢你): nothing in it can ground a memory (candidate-grounding.ts) or
 * start a task, so it is not worth an LLM call (extraction.job.ts; focus.job.ts while no task is open, since "done"
 * may finish one). Counted in terms, not characters: a Chinese fact is often under 20 characters
 * ("我对青霉素过敏，以前打针差点出事。"), and "I live in Porto." is 16.
 */
export const TRIVIAL_MAX_TERMS = 1;

/**
 * `answering`: the message answers a question the assistant just asked (extraction/answered-question.ts); then one
 * term is enough ("Rex" after "What is your dog called?"), none is still small talk ("yes", "好的").
 */
export function isTrivial(userText: string, answering = false): boolean {
  return meaningfulTerms(userText).length <= (answering ? 0 : TRIVIAL_MAX_TERMS);
}
