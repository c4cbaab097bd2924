/**
 * The language of the user's message, and whether a candidate memory is written in it.
 *
 * Memories are found by keyword in the language the user asks in: "Has an orange cat" learned from 我养了一只橘猫
 * is never found by 猫. So the extraction prompt is written in the message's language and asks for content in it
 * (extract-prompt.ts), and a candidate the model wrote in the other language anyway is not stored active: it waits
 * in the review inbox, where the user can reword it before approving (extract-parse.ts flags it 'language').
 * Translating it instead would need a second model call whose output nothing could check against the user's words.
 *
 * Only the pair the prompt knows is told apart: Chinese (Han and kana) against Latin-script text. A message in
 * another script (Korean, Cyrillic) is 'en' here, and its candidates are never flagged.
 */

export type MessageLanguage = 'en' | 'zh';

const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[A-Za-z]+/g;
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/**
 * 'zh' when Chinese dominates the text, else 'en'. Han characters are weighed against Latin words (a Chinese word
 * averages under two characters), so "我在用React和TypeScript写项目" is Chinese and "I love 寿司" is English.
 */
export function detectLanguage(text: string): MessageLanguage {
  const han = text.match(HAN)?.length ?? 0;
  const words = text.match(LATIN_WORD)?.length ?? 0;
  if (han === 0) return 'en';
  return han * 0.6 > words ? 'zh' : 'en';
}

const NAMES: Record<MessageLanguage, string> = { en: 'English', zh: 'Chinese' };

/**
 * Why `content` is not in the message's language ("content in English, message in Chinese"; no user text, safe to
 * log), or null. Content holding any letter of the message's script is in its language: 用 React 写前端 from a
 * Chinese message, "Cooks 麻婆豆腐" from an English one.
 */
export function otherLanguageReason(content: string, message: MessageLanguage): string | null {
  const chinese = CJK_LETTER.test(content);
  const latin = LATIN_LETTER.test(content);
  if (message === 'zh' && !chinese && latin) return `content in ${NAMES.en}, message in ${NAMES.zh}`;
  if (message === 'en' && chinese && !latin) return `content in ${NAMES.zh}, message in ${NAMES.en}`;
  return null;
}
