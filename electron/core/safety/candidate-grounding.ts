/**
 * Whether a candidate memory says only what the user said: the rule that stops invented facts, the assistant's
 * suggestions and echoes of the extraction prompt, while accepting the ways small models really write.
 *
 * The candidate's terms are read the way search reads text (fts-text.ts, meaningful-terms.ts, word-stem.ts,
 * stop-words.ts): English word stems, and CJK text character by character with its bigrams. A term is the user's
 * when the user's message holds it:
 * - an English word: the same stem, or a stem one is a prefix of (3+ letters: "dev"/"developer", "allergic"/"allergy");
 *   names (capitalised inside a sentence: Porto, Mia) and numbers ("6", "two") only exactly, "two" and "2" alike;
 * - a CJK character: one of its bigrams with a neighbour is in the message (the user wrote the two characters side by
 *   side), or, alone between other words, the character is in the message. Two or more characters side by side that
 *   the user never wrote together are a new word: 苏州 for 杭州 (though 州 is the user's), 小米 for 小美. A numeral
 *   (三, 两) counts only as the user wrote it, like an English number.
 * Words that frame a statement about a person are no one's in particular and never count: third-person scaffolding
 * (the user, 用户, he/she), reporting ("mentioned", 提到), stance ("prefers", "enjoys", 喜欢, 打算), naming
 * ("named", 叫), standing relations ("lives in", "works as", 住在, "is learning", 学习), age ("6 years old"). A
 * single letter is not a term either. Classifiers are not framing: 条 is also the 条 of 面条, 件 that of 软件.
 *
 * Two texts, two rules:
 * - the CONTENT is what will be remembered and put into prompts, so every one of its terms must be the user's;
 * - the EVIDENCE only shows where the fact came from, and small models paraphrase it ("The user lives in Porto",
 *   the content again, a quote with "..."), so more than half of its terms must be the user's, but never a name, a
 *   number or a new CJK word that is not.
 * Both need at least one term of their own: "I" or "the user said" vouches for nothing.
 *
 * Evidence longer than LEARNED_MEMORY_MAX_CHARS is kept only when it is the user's text verbatim, then cut at a word
 * boundary (still the user's words). Content written in another language than the user's message
 * (message-language.ts) cannot be compared word by word: it rests on its evidence alone, and the caller sends it to
 * review.
 *
 * Limits, by design: terms are compared, not meaning. The user's words recombined ("works in Porto" from "I live in
 * Porto, my sister works in Lisbon"), a negation dropped ("Likes coffee" from "I don't like coffee") and one standing
 * relation for another (lives/works) pass; a paraphrase in the model's own nouns or verbs ("Drinks tea" from "I'd
 * rather have tea") is refused, and the extraction prompt asks for the user's own words.
 */
import { LEARNED_MEMORY_MAX_CHARS } from '../text/learned-wording';
import { textSegments } from '../text/fts-text';
import { meaningfulTerms, termKeys } from '../text/meaningful-terms';
import { isStopTerm } from '../text/stop-words';
import { stemWord } from '../text/word-stem';
import { otherLanguageReason, type MessageLanguage } from './message-language';

/** The shorter of two stems must be this long for a prefix to count as the same word in another form. */
export const MIN_WORD_FORM_PREFIX = 3;
/** Share of the evidence's terms that must be the user's (more than this). */
export const EVIDENCE_MIN_SHARE = 0.5;

const stems = (words: string) => words.split(' ').map(stemWord);

/** English framing: single words, and phrases matched as a sequence of stems. */
const FRAMING_WORDS = new Set(
  stems(
    // who: the parties of the conversation and "people"
    'user users person individual people assistant ' +
      // reporting and opinion
      'mention say said state note express indicate share report describe explain claim reveal confirm admit talk ' +
      'discuss seem appear find feel believe consider ' +
      // stance
      'prefer preference rather like love enjoy fond fan favorite favourite dislike hate want wish hope plan intend ' +
      'interest interested keen passionate appreciate care tend ' +
      // standing relations, naming, time, age
      'live reside based located work employed own learn study name named call called current recent regular ' +
      'general typically old age aged',
  ),
);
const FRAMING_PHRASES: string[][] = [stems('year old')];

/**
 * CJK framing words. Their characters are the model's, not the user's: they neither need to be found nor vouch for
 * a neighbour (叫小米 is not grounded by the user's 叫小美).
 */
const CJK_FRAMING = [
  '该用户', '用户', '对方', '本人', '自己', '助手', '提到', '提及', '表示', '说过', '说', '透露', '表达', '分享', '认为',
  '感觉', '发现', '喜欢', '喜爱', '热爱', '爱好', '偏好', '讨厌', '想要', '希望', '打算', '计划', '准备', '要求', '正在', '目前',
  '现在', '最近', '平时', '通常', '经常', '一般', '名叫', '叫做', '名字', '叫', '住在', '居住', '定居', '住', '工作', '从事',
  '学习', '拥有', '养', '年龄',
].sort((a, b) => b.length - a.length);

/** CJK numerals and the digits they stand for: 两 and 2 are the same number. 一 is a function character (一起, 一直). */
const CJK_NUMERALS: Record<string, string> = { 零: '0', 〇: '0', 二: '2', 两: '2', 三: '3', 四: '4', 五: '5', 六: '6', 七: '7', 八: '8', 九: '9', 十: '10' };

/** Number words by their stem (terms are stems: "twenty" is "twenti"), as digits. */
const NUMBER_WORDS = new Map(
  Object.entries({
    two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11',
    twelve: '12', twenty: '20', thirty: '30', forty: '40', fifty: '50', hundred: '100',
  }).map(([word, digits]) => [stemWord(word), digits]),
);

function numberKey(key: string): string {
  return NUMBER_WORDS.get(key) ?? key;
}

/** Case, width, quote style and whitespace differences are not differences in wording. */
export function normalizeForEvidence(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’ʼ´`]/gu, "'")
    .replace(/[“”„«»「」『』]/gu, '"')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The user's message, indexed once for every candidate drawn from it. */
export interface UserWords {
  normalized: string;
  /** Word stems (number words as digits), CJK bigrams and characters. */
  keys: Set<string>;
  /** The word stems alone, for word forms. */
  stems: string[];
  /**
   * The digits the message's CJK numerals stand for, so that a candidate's "8" matches the user's 八. Kept apart
   * from `keys`: a candidate's 三 must match the user's 三 where it stands (三个), not any 三 of the message (三年前).
   */
  numeralDigits: Set<string>;
}

export function indexUserWords(userText: string): UserWords {
  const keys = new Set<string>();
  const numeralDigits = new Set<string>();
  for (const key of termKeys(userText)) {
    keys.add(numberKey(key));
    const digit = CJK_NUMERALS[key];
    if (digit !== undefined) numeralDigits.add(digit);
  }
  const wordStems = [...keys].filter((k) => /^[a-z]+$/.test(k));
  return { normalized: normalizeForEvidence(userText), keys, stems: wordStems, numeralDigits };
}

/** How a text's terms stand against the user's words. */
export interface TermCount {
  /** Terms the user wrote. */
  found: number;
  /** Ordinary words the user did not write. */
  missing: number;
  /** Names, numbers and new CJK words the user did not write: invented, whatever else is found. */
  invented: number;
}

function sameWord(stem: string, user: UserWords): boolean {
  if (user.keys.has(stem)) return true;
  if (stem.length < MIN_WORD_FORM_PREFIX) return false;
  return user.stems.some((u) => u.length >= MIN_WORD_FORM_PREFIX && (u.startsWith(stem) || stem.startsWith(u)));
}

function countWords(words: string[], names: ReadonlySet<string>, user: UserWords, count: TermCount): void {
  const keys = words.map(stemWord);
  for (let i = 0; i < words.length; i++) {
    const phrase = FRAMING_PHRASES.find((p) => p.every((s, j) => keys[i + j] === s));
    if (phrase) {
      i += phrase.length - 1;
      continue;
    }
    if (isStopTerm(words[i]!) || FRAMING_WORDS.has(keys[i]!) || /^\p{L}$/u.test(words[i]!)) continue;
    const key = numberKey(keys[i]!);
    const specific = names.has(keys[i]!) || /\d/.test(key);
    if (specific ? user.keys.has(key) || user.numeralDigits.has(key) : sameWord(key, user)) count.found++;
    else if (specific) count.invented++;
    else count.missing++;
  }
}

type CharRole = 'function' | 'framing' | 'numeral' | 'content';

function charRoles(chars: string[]): CharRole[] {
  const roles: CharRole[] = chars.map((c) => (CJK_NUMERALS[c] !== undefined ? 'numeral' : isStopTerm(c) ? 'function' : 'content'));
  const run = chars.join('');
  for (let i = 0; i < chars.length; ) {
    const word = CJK_FRAMING.find((w) => run.startsWith(w, i));
    if (word === undefined) {
      i++;
      continue;
    }
    for (let j = i; j < i + word.length; j++) roles[j] = 'framing';
    i += word.length;
  }
  return roles;
}

function countCjkRun(chars: string[], user: UserWords, count: TermCount): void {
  const roles = charRoles(chars);
  const pairedByUser = (i: number, j: number) => j >= 0 && j < chars.length && user.keys.has(i < j ? chars[i]! + chars[j]! : chars[j]! + chars[i]!);
  // A character is covered when the user wrote it beside the same neighbour; the model's framing vouches for nothing.
  const covered = chars.map((c, i) => {
    if (roles[i] === 'numeral') return pairedByUser(i, i - 1) || pairedByUser(i, i + 1) || user.keys.has(CJK_NUMERALS[c]!);
    if (roles[i] !== 'content') return false;
    return (roles[i - 1] !== 'framing' && pairedByUser(i, i - 1)) || (roles[i + 1] !== 'framing' && pairedByUser(i, i + 1));
  });
  const counts = (i: number) => roles[i] === 'content' || roles[i] === 'numeral';
  for (let i = 0; i < chars.length; ) {
    if (!counts(i)) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < chars.length && counts(end + 1) && covered[end + 1] === covered[i]) end++;
    const length = end - i + 1;
    if (covered[i]) count.found++;
    else if (length > 1 || roles[i] === 'numeral') count.invented++; // a word the user never wrote
    else if (user.keys.has(chars[i]!)) count.found++; // the user's one-character word in a new place
    else count.missing++;
    i = end + 1;
  }
}

/** Counts a text's terms against the user's words (see the file comment). */
export function countTerms(text: string, user: UserWords): TermCount {
  const count: TermCount = { found: 0, missing: 0, invented: 0 };
  const names = new Set(meaningfulTerms(text).flatMap((t) => (t.name ? [t.key] : [])));
  let words: string[] = [];
  for (const segment of textSegments(text)) {
    if (segment.kind === 'word') {
      words.push(segment.word);
      continue;
    }
    countWords(words, names, user, count);
    words = [];
    countCjkRun(segment.chars, user, count);
  }
  countWords(words, names, user, count);
  return count;
}

const termsIn = (c: TermCount) => c.found + c.missing + c.invented;

/** Null when every term of the content is the user's; else why not. */
export function contentGrounding(content: string, user: UserWords): 'content_too_short' | 'content_not_in_user_text' | null {
  const count = countTerms(content, user);
  if (termsIn(count) === 0) return 'content_too_short';
  if (user.normalized.includes(normalizeForEvidence(content))) return null;
  return count.missing === 0 && count.invented === 0 ? null : 'content_not_in_user_text';
}

/** Every term of the content is the user's or the question's, and one at least is the user's own. */
function groundedInAnswer(content: string, user: UserWords, answered: UserWords): boolean {
  return contentGrounding(content, answered) === null && countTerms(content, user).found > 0;
}

/** Null when the evidence is the user's words (verbatim, or most terms and every name and number); else why not. */
export function evidenceGrounding(evidence: string, user: UserWords): 'evidence_too_short' | 'evidence_not_in_user_text' | null {
  const count = countTerms(evidence, user);
  if (termsIn(count) === 0) return 'evidence_too_short';
  if (user.normalized.includes(normalizeForEvidence(evidence))) return null;
  if (count.invented > 0) return 'evidence_not_in_user_text';
  return count.found / termsIn(count) > EVIDENCE_MIN_SHARE ? null : 'evidence_not_in_user_text';
}

/** Whether `evidence` is the user's own words, by the evidence rule above. */
export function evidenceSupportedBy(evidence: string, userText: string): boolean {
  return evidenceGrounding(evidence, indexUserWords(userText)) === null;
}

/** Cuts a verbatim quote to the cap at a word boundary (still a substring of the user's text). */
function shortenEvidence(evidence: string): string {
  if (evidence.length <= LEARNED_MEMORY_MAX_CHARS) return evidence;
  const cut = evidence.slice(0, LEARNED_MEMORY_MAX_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > LEARNED_MEMORY_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trim();
}

export type GroundingProblem = 'evidence_too_long' | 'evidence_too_short' | 'evidence_not_in_user_text' | 'content_too_short' | 'content_not_in_user_text';

export interface Grounded {
  /** The evidence to store: the candidate's, cut to the cap when it was a longer verbatim quote. */
  evidence: string;
  /** Why the content is in the other language than the user's message (it then goes to review); else null. */
  otherLanguage: string | null;
}

/**
 * A candidate's content and evidence against the user's words (the rules above): the evidence checked first. With
 * `answered` (the user's words and the question they answer, answered-question.ts), the content may also take the
 * question's words, provided one of its terms is the user's own.
 */
export function groundCandidate(content: string, evidence: string, user: UserWords, language: MessageLanguage, answered?: UserWords): Grounded | GroundingProblem {
  const tooLong = evidence.length > LEARNED_MEMORY_MAX_CHARS;
  if (tooLong && !user.normalized.includes(normalizeForEvidence(evidence))) return 'evidence_too_long';
  const evidenceProblem = evidenceGrounding(evidence, user);
  if (evidenceProblem) return evidenceProblem;
  const otherLanguage = otherLanguageReason(content, language);
  if (otherLanguage === null) {
    const contentProblem = contentGrounding(content, user);
    if (contentProblem && !(answered && groundedInAnswer(content, user, answered))) return contentProblem;
  }
  return { evidence: tooLong ? shortenEvidence(evidence) : evidence, otherLanguage };
}
