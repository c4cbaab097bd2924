/**
 * Whether a user message asks Mnemo to forget something, and what: "Please forget that I live in Berlin" ->
 * "I live in Berlin"; "don't remember my address", "stop remembering …", "delete what you know about my job",
 * 忘掉我住在柏林, 别记住…, 不要记住…, 删除关于我工作的记忆, 把…忘掉. The one rule: the chat (chat/forget-in-chat.ts)
 * acts on it before the model answers, and extraction (extraction.job.ts) never learns such a sentence as a fact.
 *
 * The shape counts, not the word: the verb must open a sentence as an order to the assistant (after "please", "can
 * you", "I want you to", 请, 你, 帮我…), so "I forgot my keys", "don't forget to call mom", "I don't remember
 * where I parked", "did you forget?", 我忘了带钥匙, 别忘了给妈妈打电话, 我不记得了 are not requests; nor, since Chinese
 * drops the subject of a statement, 忘了带伞 or 忘记带钥匙了 (only 忘掉…, …吧, or an asking word first: 请忘记…). A deletion must
 * name memory ("what you know about", "memories of", 记忆, 你记得的), so "delete this file" is not one either. What is
 * left after the verb must say something: "forget it", "never mind, forget that", 忘了吧 are dismissals, not requests.
 * Only the sentence holding the request gives the subject: "Forget that I live in Berlin. I moved to Paris." forgets
 * Berlin, not Paris.
 *
 * Pure; the corpus is test/unit/forget-request.test.ts.
 */
import { meaningfulTerms } from './meaningful-terms';

export interface ForgetRequest {
  /** What to forget, in the user's words, without the verb and its fillers ("I live in Berlin", 我住在柏林). */
  subject: string;
}

/** Words before the verb that keep it an order to the assistant. */
const EN_LEAD = String.raw`(?:(?:ok(?:ay)?|hey|hi|so|and|also|actually|mnemo|well|now)[,!]?\s+)*(?:please\s+|pls\s+|kindly\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i\s+(?:want|need|would\s+like|'d\s+like)\s+you\s+to\s+|i\s+'?d\s+like\s+you\s+to\s+|you\s+(?:can|should|must|may)\s+(?:now\s+)?)?(?:please\s+)?`;

/** English orders, each with the subject as its last group. */
const EN_PATTERNS: readonly RegExp[] = [
  // forget (that|about|the fact that|everything about|what I said about) X
  new RegExp(
    String.raw`^${EN_LEAD}(?:just\s+)?forget\s+(?!to\b|it\b[\s.!?]*$|about\s+it\b[\s.!?]*$)(?:(?:about\s+)?(?:the\s+fact\s+)?that\s+|about\s+|(?:everything|all|anything)\s+(?:you\s+know\s+)?(?:about|regarding)\s+|what\s+(?:i\s+(?:said|told\s+you)|you\s+know)\s+(?:about|regarding)\s+)?(.+)$`,
    'iu',
  ),
  // don't / do not / stop / no longer remember(ing) (that) X
  new RegExp(String.raw`^${EN_LEAD}(?:(?:don'?t|do\s+not|never)\s+(?:keep\s+)?remember(?:ing)?|stop\s+remembering|no\s+longer\s+remember)\s+(?:(?:the\s+fact\s+)?that\s+|about\s+)?(.+)$`, 'iu'),
  // delete / remove / erase / clear / wipe what you know | everything you remember | memories | your memory (about|of|that) X
  new RegExp(
    String.raw`^${EN_LEAD}(?:delete|remove|erase|clear|wipe|drop)\s+(?:(?:what|everything|anything|all)\s+(?:that\s+)?you\s+(?:know|remember|have\s+(?:stored|saved|learned))|(?:any|all|the|your)?\s*(?:memor(?:y|ies)|notes?|info(?:rmation)?|facts?)(?:\s+you\s+have)?)\s+(?:about|of|on|regarding|that\s+says|saying|that)\s+(.+)$`,
    'iu',
  ),
  // delete / remove X from (your) memory
  new RegExp(String.raw`^${EN_LEAD}(?:delete|remove|erase|drop)\s+(?:the\s+fact\s+that\s+|that\s+)?(.+?)\s+from\s+(?:your\s+)?(?:memory|memories)$`, 'iu'),
];

const ZH_FILLER = String.raw`^(?:(?:好的|好吧|那个|另外|还有|嗯)[，,、]?)*`;
/** Chinese words before the verb that make it an order to the assistant. */
const ZH_ASK = String.raw`(?:请你?|麻烦你?|能不能|可以|你能|你可以|帮我|我要你|我想让你|我希望你)`;
const ZH_LEAD = String.raw`${ZH_FILLER}${ZH_ASK}*(?:再|就|也)?`;

const ZH_PATTERNS: readonly RegExp[] = [
  // 请忘掉 / 你可以忘记 / 帮我忘了 X（…的事）
  new RegExp(`${ZH_FILLER}${ZH_ASK}+(?:再|就|也)?(?:忘掉|忘记|忘了|忘却)(?!了?吧?$)(?:关于)?(.+)$`, 'u'),
  // Without an asking word, Chinese drops the subject of a statement too (忘了带伞, 忘记带钥匙了: "I forgot …"): only
  // 忘掉 X, not said as past (…了), or 忘记 / 忘了 X 吧 is an order.
  new RegExp(`${ZH_FILLER}忘掉(?!了)(?:关于)?(.+?)(?<!了)$`, 'u'),
  new RegExp(`${ZH_FILLER}(?:忘记|忘了)(?:关于)?(.+?)吧$`, 'u'),
  // 把 X 忘掉 / 忘了 / 忘记 / 删掉 / 删除
  new RegExp(`${ZH_LEAD}把(.+?)(?:都|全)?(?:给我)?(?:忘掉|忘记|忘了|从(?:你的)?记忆(?:里|中)?(?:删掉|删除|去掉))`, 'u'),
  // 别记 / 不要记住 / 不用记 / 别再记着 / 不要再记得 X
  new RegExp(`${ZH_LEAD}你?(?:别|不要|不用|不必)再?记(?:住|着|得)?(?!错|混)(?:了)?(.+)$`, 'u'),
  // 删除 / 删掉 / 清除 (你记得的|你知道的)? 关于 X 的 (记忆|信息|内容)
  new RegExp(`${ZH_LEAD}(?:删除|删掉|清除|去掉|抹掉)(?:你(?:记得|知道|记住)的|所有|全部)?(?:关于)?(.+?)(?:的)?(?:记忆|信息|内容|事情|资料)$`, 'u'),
  // 删除 (你)记住的 X / 删除记忆：X
  new RegExp(`${ZH_LEAD}(?:删除|删掉|清除)(?:你)?(?:记得|记住|知道)的(.+)$`, 'u'),
];

/** Leading words of a subject that only point at it (English). */
const EN_SUBJECT_LEAD = /^(?:(?:about|that|the\s+fact\s+that|everything|all|what\s+you\s+know)\s+)+/iu;
/** Trailing politeness and time words that are not what to forget. */
const EN_SUBJECT_TAIL = /(?:[\s,]+(?:please|pls|thanks|thank\s+you|for\s+me|anymore|any\s+more|from\s+now\s+on|too|as\s+well|ok(?:ay)?))+$/iu;
const ZH_SUBJECT_LEAD = /^(?:关于|有关|那个|这个|你记得的|你知道的|我说过的|我告诉你的)+/u;
const ZH_SUBJECT_TAIL = /(?:这件事|的事情|的事|这个事实|这事|的信息|的记忆|的内容|吧|了|啊|哦|好吗|好不好|谢谢|。|！)+$/u;

/** The subject words that point at nothing on their own: "it", "that", 这个. */
const EMPTY_SUBJECT = /^(?:it|that|this|them|those|everything|all|all\s+that|it\s+all|about\s+it|what\s+i\s+said|这个|那个|这些|那些|它|吧|一切|所有)$/iu;

/** The sentences of a message: a request is one sentence ("Thanks. Forget that I live in Berlin."). */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？；;])\s*|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function cleanSubject(raw: string): string {
  let s = raw.trim().replace(/[\s.!?。！？,，;；:："'“”‘’]+$/u, '').replace(/^["'“‘「]+|["'”’」]+$/gu, '');
  for (let i = 0; i < 3; i++) {
    const before = s;
    s = s.replace(EN_SUBJECT_LEAD, '').replace(EN_SUBJECT_TAIL, '').replace(ZH_SUBJECT_LEAD, '').replace(ZH_SUBJECT_TAIL, '').trim();
    s = s.replace(/[\s.!?。！？,，;；:：]+$/u, '').trim();
    if (s === before) break;
  }
  return s;
}

/** The request in a message, or null. A message with several requests gives the first. Pure. */
export function detectForgetRequest(text: string): ForgetRequest | null {
  for (const sentence of sentences(text)) {
    for (const pattern of [...EN_PATTERNS, ...ZH_PATTERNS]) {
      const match = pattern.exec(sentence);
      if (!match?.[1]) continue;
      const subject = cleanSubject(match[1]);
      // "forget it", 忘了吧: a dismissal. A subject must hold a word that means something.
      if (subject === '' || EMPTY_SUBJECT.test(subject) || meaningfulTerms(subject).length === 0) continue;
      return { subject };
    }
  }
  return null;
}
