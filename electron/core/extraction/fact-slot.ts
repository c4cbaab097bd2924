/**
 * Single-valued facts about the user: where they live, who employs them, their job, their age, their relationship
 * status, their favourite X. Each has one current value, a "slot": a new value replaces the old one ("Moved to
 * Berlin" after "Lives in Porto"), whether or not the extraction model filled `replaces` (small models skip optional
 * fields). extraction.job.ts uses this rule alone; it is pure so that its corpus is a unit test.
 *
 * A slot is read only from a clause that states the fact about the user, now:
 * - the clause starts with the statement, after an optional user subject (I, we, the user, 我, 用户) and adverbs of
 *   time (now, recently, last year, 现在, 去年); a sentence whose first clause has another subject ("My sister lives
 *   in Lisbon, works at Acme") gives nothing, since its later clauses are about that person too;
 * - in a present form or a change of state ("lives in", "moved to", "works at", "joined", 住在, 搬到, 在…工作, 入职);
 *   past or planned facts ("used to live", "lived in", "plans to move", 以前住在, 打算搬到) name no slot, so they
 *   never replace a current value;
 * - the value is a name, not a description: "moved to a new flat" or 加入了一个读书会 names no place or employer.
 * "is a …" is not an occupation here ("is a vegetarian", "is a night owl" are not jobs); "works as", "job is",
 * 职业是, 是一名 are. 在…工作 reads the place of work as an employer (我在杭州工作 then 我在阿里巴巴工作 replaces the
 * first): Chinese gives no sign of which it is.
 *
 * Values are compared on their meaningful terms (meaningful-terms.ts: English stems, CJK bigrams): one value's terms
 * within the other's is the same value ("Acme" / "Acme Robotics", 杭州 / 杭州市), else a different one.
 */
import { meaningfulTerms } from '../text/meaningful-terms';
import { searchTerms } from '../text/fts-text';
import { stemWord } from '../text/word-stem';

export type SlotName = 'residence' | 'employer' | 'occupation' | 'age' | 'relationship' | `favourite:${string}`;

export interface FactSlot {
  slot: SlotName;
  /** The value's meaningful terms, sorted; for a relationship the status comes first ("married", "ana"). */
  keys: string[];
}

type BaseSlot = Exclude<SlotName, `favourite:${string}`> | 'favourite';

interface SlotRule {
  slot: BaseSlot;
  /** Matched against the clause after its subject and adverbs; group `value` is the value, `thing` a favourite's. */
  pattern: RegExp;
  /** For a relationship: the status the rule states, whatever its wording. */
  status?: (m: RegExpMatchArray) => string;
  /** The value must be a name (no "a new flat", 一家公司). */
  named?: true;
}

/**
 * Words as written (the full-text index's tokens, fts-text.ts) of which every clause a rule matches holds one, so the
 * memories that may hold a slot are found by a keyword lookup. test/unit/fact-slot.test.ts checks it on the corpus.
 */
export const SLOT_CUES: Record<BaseSlot, readonly string[]> = {
  residence: ['live', 'lives', 'living', 'reside', 'resides', 'residing', 'based', 'moved', 'relocated', 'home', '住在', '居住', '定居', '生活在', '家在', '搬到', '搬去', '搬至', '搬家'],
  employer: ['work', 'works', 'working', 'employed', 'joined', 'started', 'employer', '工作', '上班', '任职', '就职', '入职', '加入', '受雇'],
  occupation: ['work', 'works', 'working', 'employed', 'job', 'profession', 'occupation', 'title', '职业', '工作', '一名', '担任'],
  age: ['years', 'year', 'yrs', 'old', 'aged', 'turned', '岁'],
  relationship: [
    'married', 'single', 'engaged', 'divorced', 'widowed', 'separated', 'relationship', 'girlfriend', 'boyfriend', 'partner',
    'wife', 'husband', 'fiance', 'fiancee', '已婚', '结婚', '单身', '订婚', '离婚', '离异', '丧偶', '朋友', '对象', '老婆', '妻子', '丈夫', '老公', '恋爱',
  ],
  favourite: ['favourite', 'favorite', '最喜欢', '最爱'],
};

/** The cue words of a slot (see SLOT_CUES). */
export function slotCues(slot: SlotName): readonly string[] {
  return SLOT_CUES[slot.startsWith('favourite:') ? 'favourite' : (slot as BaseSlot)];
}

const BE = String.raw`(?:(?:am|is|are|'m|'re)\s+)?`;
const HAVE = String.raw`(?:(?:have|has|'ve)\s+)?`;
const THEN = String.raw`(?:(?:now|currently|just|recently|finally|officially|also|still)\s+)?`;
const REST = String.raw`(?<value>.+)`;
/** The user's possessive, or what a stripped user subject leaves of it ("The user's job" -> "'s job"). */
const POSS = String.raw`(?:my|our|(?:the\s+)?user's|'s)\s+`;
/** After a relationship status: nothing, or a partner or a time ("Married to Ana", "single since May"), never "engaged in a project". */
const STATUS_TAIL = String.raw`(?<value>(?:\s+(?:to|with|since|for|from|and|but|now|recently|last|this|in\s+\d{4})\b.*|\s*[,;.(].*)?)$`;

const RULES: SlotRule[] = [
  // Residence.
  { slot: 'residence', named: true, pattern: new RegExp(String.raw`^${BE}${THEN}(?:(?:have|has)\s+been\s+)?(?:live|lives|living|reside|resides|residing|based)\s+in\s+${REST}`, 'iu') },
  { slot: 'residence', named: true, pattern: new RegExp(String.raw`^${HAVE}${THEN}(?:moved|relocated)\s+(?:back\s+)?(?:from\s+.+?\s+)?(?:back\s+)?to\s+${REST}`, 'iu') },
  { slot: 'residence', named: true, pattern: new RegExp(String.raw`^${POSS}home\s+is\s+(?:now\s+)?in\s+${REST}`, 'iu') },
  { slot: 'residence', named: true, pattern: /^(?:从.{1,12}?)?(?:(?:现在|目前|已经|刚刚?)?(?:住在|居住在|定居在|定居于|生活在|家在)|搬(?:家)?(?:到|去|至)了?)(?<value>.+)/u },
  // Employer.
  { slot: 'employer', named: true, pattern: new RegExp(String.raw`^${BE}${THEN}(?:work|works|working)\s+(?:at|for)\s+${REST}`, 'iu') },
  { slot: 'employer', named: true, pattern: new RegExp(String.raw`^${BE}${THEN}employed\s+(?:at|by)\s+${REST}`, 'iu') },
  { slot: 'employer', named: true, pattern: new RegExp(String.raw`^${HAVE}${THEN}(?:joined|started\s+(?:working\s+)?at)\s+${REST}`, 'iu') },
  { slot: 'employer', named: true, pattern: new RegExp(String.raw`^${POSS}(?:current\s+)?employer\s+is\s+${REST}`, 'iu') },
  { slot: 'employer', named: true, pattern: /^在(?<value>.+?)(?:工作|上班|任职|就职)(?:了)?$/u },
  { slot: 'employer', named: true, pattern: /^(?:就职于|任职于|受雇于|入职了?|加入了?)(?<value>.+)/u },
  // Occupation.
  { slot: 'occupation', pattern: new RegExp(String.raw`^${BE}${THEN}(?:work|works|working|employed)\s+as\s+(?:an?\s+)?${REST}`, 'iu') },
  { slot: 'occupation', pattern: new RegExp(String.raw`^${POSS}(?:current\s+)?(?:job|job\s+title|profession|occupation)\s+is\s+(?:an?\s+)?${REST}`, 'iu') },
  { slot: 'occupation', pattern: /^(?:的)?(?:职业|工作)是(?:一名|一个)?(?<value>.+)/u },
  { slot: 'occupation', pattern: /^(?:是一名|担任)(?<value>.+)/u },
  // Age.
  { slot: 'age', pattern: new RegExp(String.raw`^${BE}(?<value>\d{1,3})\s*(?:years?|yrs?)\s*old\b`, 'iu') },
  { slot: 'age', pattern: new RegExp(String.raw`^${BE}${THEN}(?:aged|turned)\s+(?<value>\d{1,3})\b`, 'iu') },
  { slot: 'age', pattern: /^(?:今年|已经|刚刚?)?满?(?<value>\d{1,3}|[一二三四五六七八九十两]{1,4})(?:周)?岁(?!生日|的|时|那)/u },
  // Relationship status.
  {
    slot: 'relationship',
    pattern: new RegExp(String.raw`^${BE}${THEN}(?:happily\s+)?(?<status>married|single|engaged|divorced|widowed|separated)${STATUS_TAIL}`, 'iu'),
    status: (m) => m.groups!.status!.toLowerCase(),
  },
  { slot: 'relationship', pattern: new RegExp(String.raw`^${HAVE}${THEN}got\s+(?<status>married|engaged|divorced)${STATUS_TAIL}`, 'iu'), status: (m) => m.groups!.status!.toLowerCase() },
  { slot: 'relationship', pattern: new RegExp(String.raw`^${BE}${THEN}in\s+a\s+relationship${STATUS_TAIL}`, 'iu'), status: () => 'relationship' },
  {
    slot: 'relationship',
    pattern: /^(?:has|have)\s+a\s+(?<status>girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?)(?![-\w])(?<value>.*)/iu,
    status: (m) => ({ wife: 'married', husband: 'married' } as Record<string, string>)[m.groups!.status!.toLowerCase()] ?? (/^fianc/i.test(m.groups!.status!) ? 'engaged' : 'relationship'),
  },
  {
    slot: 'relationship',
    pattern: /^(?<status>已婚|已经结婚|结婚了|单身|订婚了|已订婚|离婚了|已离婚|离异|丧偶)(?<value>(?:[了啦].*)?)$/u,
    status: (m) => ({ 单身: 'single', 离异: 'divorced', 丧偶: 'widowed' } as Record<string, string>)[m.groups!.status!] ?? (/订婚/u.test(m.groups!.status!) ? 'engaged' : /离婚/u.test(m.groups!.status!) ? 'divorced' : 'married'),
  },
  {
    slot: 'relationship',
    pattern: /^(?:有(?:一个)?|在谈)(?<status>女朋友|男朋友|对象|老婆|妻子|丈夫|老公|恋爱)(?<value>.*)/u,
    status: (m) => (/老婆|妻子|丈夫|老公/u.test(m.groups!.status!) ? 'married' : 'relationship'),
  },
  // Favourites: one slot per thing ("favourite colour", 最喜欢的颜色).
  { slot: 'favourite', pattern: /^(?:(?:my|our|(?:the\s+)?user's|'s)\s+)?(?:all-time\s+)?favou?rite\s+(?<thing>[^,;]+?)\s+(?:is|are)\s+(?<value>.+)/iu },
  { slot: 'favourite', pattern: /^(?:的)?最(?:喜欢|爱)的(?<thing>.+?)是(?<value>.+)/u },
];

/** Who the statement is about: the user, or (any other opening) someone or something else. */
const USER_SUBJECT = /^(?:i|we|(?:the\s+)?user)(?=\s|')\s*|^(?:我们|我|用户|用戶)/iu;
/** Words of time and degree before the statement ("Last year I moved", "现在已经在…工作"). */
const LEAD_IN = new RegExp(
  [
    String.raw`^(?:now|currently|recently|just|finally|also|still|actually|officially|these\s+days|as\s+of\s+now)\b[\s,]*`,
    String.raw`^(?:last|this)\s+(?:year|month|week|summer|spring|autumn|fall|winter)\b[\s,]*`,
    String.raw`^(?:in\s+\d{4}|a\s+(?:few\s+)?(?:years?|months?|weeks?|days?)\s+ago)\b[\s,]*`,
    String.raw`^(?:现在|目前|如今|最近|已经|刚刚|刚|也|还|终于|正式|今年|去年|前年|上个?月|上周|前不久|不久前)`,
  ].join('|'),
  'iu',
);
/** Clauses: sentences, then their parts (commas, "and", "but"; 而且, 但是). */
const SENTENCE_END = /[.!?。！？;；\n]+/u;
const CLAUSE_BREAK = /[,，、:：]|\s+(?:and|but|while|whereas|so)\s+|而且|但是|并且|不过|同时/iu;
/** Where a value ends: a new clause or a circumstance after the name. */
const VALUE_END =
  /[,，、;；:：()（）"“”]|(?:^|\s+)(?:and|but|with|since|for|because|as|from|where|when|while|now|currently|last|this|next|after|before|until|at|in|on|near)\b|(?:和|跟|与|以后|之后|以来|已经|了$)/iu;
/** An opening that says the value is a description, not a name: "a new flat", "my parents' place", 一家公司. */
const NOT_A_NAME = /^(?:a|an|my|our|his|her|their|this|that|some|another)\s|^(?:一|这|那|某)|^(?:家|家里|家中)$|附近|旁边|对面|楼上|楼下/iu;
/** "the Netherlands" is a name, "the office" is not. */
const THE_COMMON_NOUN = /^[Tt]he\s+\p{Ll}/u;
/** Words that introduce a name ("a girlfriend named Mia", 叫小美): not part of the value. */
const NAMING_WORD = /\b(?:named|called)\b|叫做?|名叫/giu;
const LOWERCASE_START = /^\p{Ll}/u;
const ANY_CAPITAL = /\p{Lu}/u;

/** The slots a text states about the user (usually one; "Lives in Porto and works at Acme" gives two). */
export function factSlots(text: string): FactSlot[] {
  const out: FactSlot[] = [];
  for (const sentence of text.replaceAll('’', "'").split(SENTENCE_END)) {
    const clauses = sentence.split(CLAUSE_BREAK).map((c) => c.trim()).filter((c) => c !== '');
    let aboutUser = true;
    clauses.forEach((clause, i) => {
      const read = readClause(clause);
      // A later clause without its own subject shares the first clause's ("My sister lives in Lisbon, works at Acme").
      if (i === 0) aboutUser = read.subject !== 'other' || read.slot !== null;
      if (read.slot === null) return;
      if (read.subject === 'user' || (read.subject === 'none' && (i === 0 || aboutUser))) out.push(read.slot);
    });
  }
  return dedupe(out);
}

/**
 * The slots of a candidate memory that the user's own words state too (its evidence, or the message as a whole): a
 * model that wrote "Lives in Paris" for "I used to live in Paris", or for "my sister lives in Paris", names no slot.
 */
export function candidateSlots(content: string, userWords: readonly string[]): FactSlot[] {
  const stated = userWords.flatMap((w) => factSlots(w));
  return factSlots(content).filter((s) => stated.some((t) => t.slot === s.slot && sameValue(t, s)));
}

/** Same value: the terms of one are among the other's. */
export function sameValue(a: FactSlot, b: FactSlot): boolean {
  const within = (x: string[], y: string[]) => x.every((k) => y.includes(k));
  return within(a.keys, b.keys) || within(b.keys, a.keys);
}

function readClause(clause: string): { subject: 'user' | 'none' | 'other'; slot: FactSlot | null } {
  let rest = leadIn(clause);
  let subject: 'user' | 'none' | 'other' = 'none';
  const who = USER_SUBJECT.exec(rest);
  if (who) {
    subject = 'user';
    rest = leadIn(rest.slice(who[0].length));
  }
  for (const rule of RULES) {
    const m = rest.match(rule.pattern);
    if (!m) continue;
    const slot = toSlot(rule, m, clause);
    // "My job is …", "Our home is in …": the possessive says whose.
    if (slot) return { subject: subject === 'none' && /^(?:my|our)\s/iu.test(rest) ? 'user' : subject, slot };
  }
  // Nothing recognised: the clause has a subject of its own unless it opens with a verb we do not know; a word
  // that is not a user subject counts as another subject, which only ever keeps later clauses out.
  return { subject: subject === 'user' ? 'user' : 'other', slot: null };
}

function leadIn(text: string): string {
  let rest = text.trim();
  for (let i = 0; i < 4; i++) {
    const m = LEAD_IN.exec(rest);
    if (!m || m[0] === '') break;
    rest = rest.slice(m[0].length).trim();
  }
  return rest;
}

/**
 * A place or an employer is named: not "a new flat" or 一家公司; in English it is capitalised ("works at home", "lives
 * in fear" are not), unless the whole clause is written in lower case ("i moved to berlin").
 */
function isAName(value: string, clause: string): boolean {
  if (NOT_A_NAME.test(value) || THE_COMMON_NOUN.test(value)) return false;
  return !LOWERCASE_START.test(value.replace(/^the\s+/u, '')) || !ANY_CAPITAL.test(clause);
}

function toSlot(rule: SlotRule, m: RegExpMatchArray, clause: string): FactSlot | null {
  const raw = (m.groups?.value ?? '').trim();
  const end = VALUE_END.exec(raw);
  const value = (end ? raw.slice(0, end.index) : raw).trim();
  if (rule.named && !isAName(value, clause)) return null;
  const keys = [...new Set(meaningfulTerms(value.replace(NAMING_WORD, ' ')).map((t) => t.key))].sort();
  if (rule.status) return { slot: 'relationship', keys: [rule.status(m), ...keys.filter((k) => k !== rule.status!(m))] };
  if (keys.length === 0) return null;
  if (rule.slot !== 'favourite') return { slot: rule.slot, keys };
  const thing = thingKey(m.groups?.thing ?? '');
  return thing === '' ? null : { slot: `favourite:${thing}`, keys };
}

/** "colour" and "colours", "color": one favourite. American and British spellings of the common ones agree. */
function thingKey(thing: string): string {
  const terms = searchTerms(thing.replace(/colour/giu, 'color').replace(/flavour/giu, 'flavor'));
  return terms.map((t) => stemWord(t)).join(' ');
}

function dedupe(slots: FactSlot[]): FactSlot[] {
  const seen = new Set<string>();
  return slots.filter((s) => {
    const id = `${s.slot}=${s.keys.join(' ')}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
