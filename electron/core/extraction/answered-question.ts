/**
 * The question a user's message answers: facts spread over two turns ("Where do you live now?" / "Berlin, since May";
 * "你的狗叫什么？" / "旺财") are learned from the user's answer read with the assistant's question just before it.
 *
 * The rule, in one place:
 * - The question is the assistant message the user's message follows on its path (messages.parent_id), and only its
 *   closing question: the last sentences ending in "?" or "？" at the end of the message (at most two, at most
 *   QUESTION_MAX_CHARS, keeping the end). A reply that ends in a statement asked nothing; a question in the middle of a
 *   long answer is rhetorical or already answered by the answer itself.
 * - It reaches the extraction request only when there is one, so an exchange that answers no question costs nothing
 *   more (about 20-60 tokens when it does).
 * - A fact's content may take words from the question only when the user's message is an answer (at most
 *   ANSWER_MAX_CHARS: longer messages say what they mean on their own) and at least one of the content's terms is the
 *   user's own (candidate-grounding.ts): "Has a dog named Rex" from "What's your dog called?" / "Rex"; never "Likes sushi"
 *   from "Do you like sushi?" / "Not really", nor anything from a bare "yes". The evidence is always the user's words.
 */

/** The longest question carried into the extraction request (characters, keeping its end). */
export const QUESTION_MAX_CHARS = 300;
/** The longest user message read as an answer to the question before it. */
export const ANSWER_MAX_CHARS = 200;
/** At most this many closing question sentences. */
const MAX_QUESTION_SENTENCES = 2;

/** Sentences with their closing punctuation (Latin and CJK), a newline ending one too. */
const SENTENCE = /[^.!?。！？\n]+[.!?。！？]*[\s]*|\n+/gu;

/** The assistant message's closing question (see the file comment), or null when it ends without asking. */
export function closingQuestion(assistantText: string): string | null {
  const text = assistantText.replace(/[\s*_`"'”’)）]+$/u, '').trim();
  if (!/[?？]$/u.test(text)) return null;
  const sentences = (text.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
  const asked: string[] = [];
  for (let i = sentences.length - 1; i >= 0 && asked.length < MAX_QUESTION_SENTENCES; i--) {
    if (!/[?？]$/u.test(sentences[i]!)) break;
    asked.unshift(sentences[i]!);
  }
  const question = asked.join(' ');
  return question.length <= QUESTION_MAX_CHARS ? question : question.slice(question.length - QUESTION_MAX_CHARS).trimStart();
}

/** Whether a user's message is short enough to be read as an answer to the question before it. */
export function readsAsAnswer(userText: string): boolean {
  return userText.trim().length <= ANSWER_MAX_CHARS;
}
