/**
 * Function words: the terms of a question that say how it is asked, not what it is about ("Where do I live now?" is
 * about "live"). Relevance search leaves them out, so a memory is never found because it shares "for" or "的"
 * with a question.
 *
 * Terms are those of searchTerms (fts-text.ts): folded words, CJK bigrams and lone CJK characters.
 * - English: the usual function words (pronouns, articles, auxiliaries, prepositions, question words), the pieces
 *   contractions split into ("don't" -> "don", "t"), and a few words of chat ("please", "tell").
 * - Chinese has no spaces, so a sentence reaches search as overlapping bigrams: 我住在哪里 -> 我住 住在 在哪 哪里,
 *   and most of a question's bigrams straddle two words. A bigram is a function term when it holds a particle, a
 *   pronoun, the copula, a question word, 一 or 有 (我住, 是什, 写一, 有好: these characters sit at the edge of
 *   words, and the few words they are inside say little: 没有, 所有, 一些), when both of its characters are function characters (在哪, 多少), or when it is one of the
 *   function words listed below (怎样, 时候). A bigram with one other function character stays: 住在, 过敏 and 不吃
 *   carry the meaning of their sentence.
 * The Chinese rules were chosen by measurement on the retrieval-quality set (bench/suites/retrieval-quality.bench.ts):
 * with the pair rule alone, a question's boundary bigrams (我住, 写一, 么时) outweighed its words in the relevance
 * floor and Chinese answers fell below it; dropping every bigram with any function character lost 过敏, 住在, 不吃.
 */

const ENGLISH = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom whose this that these those am is are was ' +
    'were be been being have has had having do does did doing a an the and but if or because as until while of at by ' +
    'for with about against between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more most other some such no ' +
    'nor not only own same so than too very can will just should now would could might must shall may also ever still ' +
    'yet even much many s t d ll m o re ve y don ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn ' +
    'shan shouldn wasn weren won wouldn please tell thanks thank hi hello hey ok okay anything something everything ' +
    'nothing anyone someone everyone anybody somebody ' +
    // Light verbs, nouns and adverbs that frame a question rather than name its subject ("What kind of...",
    // "Where do I go...", "usually").
    'go goes going went gone get gets getting got make makes making made use uses used using need needs know ' +
    'think remember kind sort thing things way lot usually often always never sometimes currently actually really'
  ).split(' '),
);

/** Particles, pronouns, the copula, question words, 一 and 有: a bigram holding one straddles a word boundary. */
const CJK_EDGE_CHARS = new Set(Array.from('的了吗呢吧啊呀嘛么我你您他她它们是这那哪谁啥什一有'));

/** Function characters that also form words with a content character (在 in 住在, 过 in 过敏, 不 in 不吃). */
const CJK_FUNCTION_CHARS = new Set(
  Array.from('的了吗呢吧啊呀嘛么哦呗啦我你您他她它们咱是这那哪谁啥个在和跟与及或也都就又还很太被把给让对从向往到为以而且但之其此些每各几多少怎什着过地得所要会能可该应不没有一请'),
);

/** Function words of two characters that also occur in content words (样 in 样子, 时 in 时间, 问 in 问题). */
const CJK_STOP_BIGRAMS = new Set(['怎样', '如何', '为何', '可以', '时候', '东西', '知道', '觉得', '告诉', '请问']);

const CJK_CHAR = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+$/u;

/** Whether a search term (see the file comment) only says how a question is asked. */
export function isStopTerm(term: string): boolean {
  if (!CJK_CHAR.test(term)) return ENGLISH.has(term);
  const chars = Array.from(term);
  if (chars.length === 1) return CJK_FUNCTION_CHARS.has(chars[0]!) || CJK_EDGE_CHARS.has(chars[0]!);
  if (CJK_STOP_BIGRAMS.has(term) || chars.some((c) => CJK_EDGE_CHARS.has(c))) return true;
  return chars.every((c) => CJK_FUNCTION_CHARS.has(c));
}
