/**
 * The parts of a message that asks several things: "Where do I work, and what did the dentist say?" is two
 * questions, 我在哪里工作？还有牙医说了什么 too. The keyword relevance floor (search/keyword-query.ts) judges each part
 * on its own as well as the whole, so one part's words no memory holds do not keep the other part's memories out.
 *
 * A part ends at a sentence end or a semicolon, at a comma or "and"/"also" that a question word follows (", and what",
 * "and where", ", also who"), and at 还有 / 另外 / 以及 / 而且 / a Chinese comma. A message with one part is [the message].
 * Cutting too often costs little: a part without a term of the store says nothing, and each part still has to pass
 * the floors on its own words.
 */
const QUESTION_WORDS = 'what|where|when|who|whom|whose|which|why|how|do|does|did|is|are|was|were|can|could|should|will|would|have|has|had';
const SPLIT = new RegExp(
  [
    '[?？!！。;；]+',
    `,?\\s+(?:and|also|plus|but)\\s+(?=(?:also\\s+)?(?:${QUESTION_WORDS})\\b)`,
    `,\\s*(?=(?:${QUESTION_WORDS})\\b)`,
    '[，、]?(?:还有|另外|以及|而且|并且|再就是)',
    '，',
  ].join('|'),
  'giu',
);

export function questionParts(text: string): string[] {
  const parts = text.split(SPLIT).map((p) => p.trim()).filter((p) => p !== '');
  return parts.length === 0 ? [text] : parts;
}
