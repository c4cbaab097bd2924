/**
 * Turns the extraction model's raw answer into candidate memories, or refuses it: the pipeline, in order, and the
 * checks that belong to no single stage.
 *
 * The model's answer is untrusted in two ways: its FORM (small models wrap, fence, think aloud, rename fields, use
 * other scales, get cut off) and its CONTENT (it may restate the assistant's guess as a user fact, copy a pasted API
 * key, or obey an injection in the conversation). Form is repaired as far as it honestly can be; content is checked
 * against the user's own words:
 *
 * 1. locate the list in the answer (model-json-locate.ts: reasoning, prose, fences, wrappers, truncation);
 * 2. read each item into Mnemo's fields (candidate-normalise.ts: field names, categories, scales, validity);
 * 3. nothing with a secret in its content or evidence survives (secret-detector.ts), nor anything repeating a secret
 *    the user's message holds, keyword or not ("my bank PIN 4821" -> "Has a bank PIN (4821)"); checked before
 *    anything else about the item, since it is the reason that matters;
 * 4. ground every candidate in the user's words (candidate-grounding.ts): all of its content, most of its evidence
 *    and every name and number in either; this is what stops invented facts, the assistant's suggestions and echoes
 *    of the extraction prompt, while third-person, restated and reworded answers pass;
 * 5. text that reads like an instruction to the assistant is kept but flagged, for the review inbox; so is content
 *    written in another language than the user's message (message-language.ts), which step 4 then could not check
 *    word by word but which must still rest on evidence in the user's words;
 * 6. the same content twice is kept once, and at most `maxItems` candidates are kept.
 *
 * Outcomes: candidates (possibly none) plus the dropped items with a reason, or MnemoError LLM_BAD_OUTPUT (retryable)
 * when the answer is unusable as a whole: empty, no JSON, no list of memories, or cut off before the first item was
 * complete. A well-formed empty list ({"memories": []}) is a success with no candidates.
 *
 * Reasons never contain the user's or the model's text, so they are safe to log.
 */
import { z } from 'zod';
import { MemoryCategory, ReviewFlag } from '../../../shared/contract';
import { LEARNED_MEMORY_MAX_CHARS } from '../text/learned-wording';
import { normalizeForHash } from '../memory/content-hash';
import { readsAsAnswer } from './answered-question';
import { groundCandidate, indexUserWords, type GroundingProblem, type UserWords } from '../safety/candidate-grounding';
import { answerScales, formProblem, MIN_CONTENT_CHARS, normaliseItem, type NormaliseContext } from './candidate-normalise';
import { MAX_CANDIDATES } from './extract-prompt';
import { INJECTION_KINDS, looksLikeInstruction } from '../safety/instruction-detector';
import { detectLanguage, type MessageLanguage } from '../safety/message-language';
import { badOutput, locateMemoryList } from './model-json-locate';
import { detectSecret, secretEchoCheck, type SecretMatch } from '../safety/secret-detector';

/** Items after this many are not examined at all. */
const MAX_ITEMS_EXAMINED = 50;
/** Why a candidate should wait in the review inbox instead of going straight into memory (review.contract.ts). */
export const CandidateFlag = ReviewFlag;
export type CandidateFlag = ReviewFlag;

export const Candidate = z.object({
  content: z.string().min(MIN_CONTENT_CHARS).max(LEARNED_MEMORY_MAX_CHARS),
  category: MemoryCategory,
  importance: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  /** End of the last day the fact holds (ms, UTC), or null for no expiry. */
  expiresAt: z.number().int().nullable(),
  /** The user's words the fact rests on (checked against the user's text). */
  evidence: z.string().min(1).max(LEARNED_MEMORY_MAX_CHARS),
  /**
   * 'instruction': reads like an instruction to the assistant; 'language': written in another language than the
   * user's message. Either way it goes to the review inbox rather than into memory.
   */
  flag: CandidateFlag.nullable(),
  /** The id of a known memory this fact contradicts (same subject, new value); only ids the prompt listed. */
  replaces: z.number().int().positive().nullable(),
  /**
   * With a flag: where the instruction-like text was seen (content, evidence, or the user's message as a whole) and
   * what it looked like, e.g. "content: a rule for every answer"; or the two languages, "content in English, message
   * in Chinese". Safe to log (no user text). Null without a flag.
   */
  flagReason: z.string().nullable(),
});
export type Candidate = z.output<typeof Candidate>;

export type DropReason =
  | 'truncated'
  | 'not_an_object'
  | 'content_missing'
  | 'content_too_short'
  | 'content_too_long'
  | 'unknown_category'
  | 'evidence_missing'
  | GroundingProblem
  | `secret:${string}`
  | 'invalid_fields'
  | 'duplicate'
  | 'beyond_max_items';

export interface DroppedItem {
  /** Position of the item in the model's list (0-based). */
  index: number;
  reason: DropReason;
}

export interface ExtractionResult {
  candidates: Candidate[];
  dropped: DroppedItem[];
  /** The answer was cut off (or unreadable from some point): items after the cut are unknown. */
  truncated: boolean;
}

export interface ParseContext {
  /** The user's message, exactly as stored: evidence must come from it. */
  userText: string;
  /** When the user's message was written (ms): relative validities resolve against it. */
  messageDate: number;
  /** Default MAX_CANDIDATES (3). */
  maxItems?: number;
  /** Ids of the known memories shown to the model; a `replaces` naming any other id is ignored. */
  knownIds?: ReadonlySet<number>;
  /** The user's time zone (userTimeZone(settings.timeZone)): "today" and dates are their days. Default UTC. */
  timeZone?: string;
  /** The assistant's question the user's message answers (answered-question.ts closingQuestion), if any. */
  asked?: string | null;
}

interface ItemContext extends NormaliseContext {
  user: UserWords;
  /** The user's words with the question they answer, when the message reads as an answer to one. */
  answered: UserWords | undefined;
  /** The language of the user's message: content in the other one goes to review. */
  language: MessageLanguage;
  userTextInjection: () => Flagging;
  /** Finds a secret of the user's message repeated in a candidate's text. */
  userSecretEcho: (text: string) => SecretMatch | null;
}

function judgeItem(item: unknown, ictx: ItemContext): Candidate | DropReason {
  const read = normaliseItem(item, ictx);
  if (typeof read === 'string') return read;
  const { content, evidence: evidenceText } = read;

  // Secrets first: whatever else is wrong with the item, this is the reason that matters.
  const secret = detectSecret(content) ?? (evidenceText ? detectSecret(evidenceText) : null) ?? ictx.userSecretEcho(`${content}\n${evidenceText}`);
  if (secret) return `secret:${secret.kind}`;

  const problem = formProblem(read);
  if (problem) return problem;
  const grounded = groundCandidate(content, evidenceText, ictx.user, ictx.language, ictx.answered);
  if (typeof grounded === 'string') return grounded;

  const candidate: Candidate = {
    content,
    category: read.category!, // formProblem refused a null one
    importance: read.importance,
    confidence: read.confidence,
    expiresAt: read.expiresAt,
    evidence: grounded.evidence,
    ...reviewFlag(content, grounded.evidence, grounded.otherLanguage, ictx.userTextInjection),
    replaces: read.replaces,
  };
  return Candidate.safeParse(candidate).success ? candidate : 'invalid_fields';
}

/**
 * The memory's own text decides first (it is what future prompts will contain). Its evidence and the user's whole
 * message count only for outright injection (override, system prompt, role change, concealment): a user who says
 * "from now on answer in French" has stated a preference, but one whose message says "ignore previous
 * instructions" may be pasting an attack, and every fact drawn from it deserves a human look.
 */
type Flagging = Pick<Candidate, 'flag' | 'flagReason'>;
const NOT_FLAGGED: Flagging = { flag: null, flagReason: null };

/** An instruction outranks a language slip: it is the reason the user most needs to see. */
function reviewFlag(content: string, evidence: string, otherLanguage: string | null, userTextInjection: () => Flagging): Flagging {
  const instruction = instructionFlag(content, evidence, userTextInjection);
  return instruction.flag !== null || otherLanguage === null ? instruction : { flag: 'language', flagReason: otherLanguage };
}

function instructionFlag(content: string, evidence: string, userTextInjection: () => Flagging): Flagging {
  const own = looksLikeInstruction(content);
  if (own) return { flag: 'instruction', flagReason: `content: ${own.reason}` };
  const quoted = looksLikeInstruction(evidence);
  if (quoted && INJECTION_KINDS.has(quoted.kind)) return { flag: 'instruction', flagReason: `evidence: ${quoted.reason}` };
  return userTextInjection();
}

function injectionIn(userText: string): () => Flagging {
  let memo: Flagging | undefined;
  return () => {
    if (memo === undefined) {
      const m = looksLikeInstruction(userText);
      memo = m && INJECTION_KINDS.has(m.kind) ? { flag: 'instruction', flagReason: `user message: ${m.reason}` } : NOT_FLAGGED;
    }
    return memo;
  };
}

/**
 * Parses the extraction model's answer (its content; reasoning blocks are removed here too). Throws MnemoError
 * LLM_BAD_OUTPUT only when the answer is unusable as a whole; see the file comment.
 */
export function parseExtraction(raw: string, ctx: ParseContext): ExtractionResult {
  const { accepted, dropped, truncated } = judgeAnswer(raw, ctx);
  return { candidates: accepted.map((a) => a.candidate), dropped, truncated };
}

/**
 * One answer about several exchanges of a thread (a batch, extract-prompt.ts): each fact belongs to the first
 * exchange whose user words ground it, and is judged as that exchange's (its evidence, relative dates, secret echoes
 * and review flags are read against that exchange's words); a fact no exchange grounds is dropped with the first
 * exchange's reason, and a fact two items state is kept once.
 */
export function parseBatchExtraction(raw: string, contexts: ParseContext[]): { perExchange: Candidate[][]; dropped: DroppedItem[]; truncated: boolean } {
  const judged = contexts.map((ctx) => judgeAnswer(raw, ctx));
  const perExchange = contexts.map((): Candidate[] => []);
  const placed = new Set<number>();
  const contents = new Set<string>();
  const dropped: DroppedItem[] = [];
  judged.forEach((verdict, i) => {
    for (const { index, candidate } of verdict.accepted) {
      if (placed.has(index)) continue;
      placed.add(index);
      const key = normalizeForHash(candidate.content);
      if (contents.has(key)) {
        dropped.push({ index, reason: 'duplicate' });
        continue;
      }
      contents.add(key);
      perExchange[i]!.push(candidate);
    }
  });
  dropped.push(...judged[0]!.dropped.filter((d) => !placed.has(d.index)));
  return { perExchange, dropped: dropped.sort((a, b) => a.index - b.index), truncated: judged[0]!.truncated };
}

/** Every item of the answer judged against one exchange: the accepted ones with their place in the model's list. */
function judgeAnswer(raw: string, ctx: ParseContext): { accepted: Array<{ index: number; candidate: Candidate }>; dropped: DroppedItem[]; truncated: boolean } {
  const maxItems = Math.max(0, Math.floor(ctx.maxItems ?? MAX_CANDIDATES));
  const found = locateMemoryList(raw);
  const { items } = found;
  const examined = items.slice(0, MAX_ITEMS_EXAMINED);
  const ictx: ItemContext = {
    incomplete: found.incomplete,
    scales: answerScales(examined),
    messageDate: ctx.messageDate,
    timeZone: ctx.timeZone ?? 'UTC',
    knownIds: ctx.knownIds ?? new Set(),
    userText: ctx.userText,
    user: indexUserWords(ctx.userText),
    answered: ctx.asked && readsAsAnswer(ctx.userText) ? indexUserWords(`${ctx.asked}\n${ctx.userText}`) : undefined,
    language: detectLanguage(ctx.userText),
    userTextInjection: injectionIn(ctx.userText),
    userSecretEcho: secretEchoCheck(ctx.userText),
  };
  const accepted: Array<{ index: number; candidate: Candidate }> = [];
  const dropped: DroppedItem[] = [];
  const seen = new Set<string>();
  let complete = 0;

  examined.forEach((item, index) => {
    const result = judgeItem(item, ictx);
    if (result !== 'truncated') complete++;
    if (typeof result === 'string') {
      dropped.push({ index, reason: result });
      return;
    }
    const key = normalizeForHash(result.content);
    if (seen.has(key)) {
      dropped.push({ index, reason: 'duplicate' });
      return;
    }
    seen.add(key);
    if (accepted.length >= maxItems) {
      dropped.push({ index, reason: 'beyond_max_items' });
      return;
    }
    accepted.push({ index, candidate: result });
  });
  for (let index = MAX_ITEMS_EXAMINED; index < items.length; index++) dropped.push({ index, reason: 'beyond_max_items' });

  if (items.length > 0 && complete === 0) throw badOutput('truncated');
  return { accepted, dropped, truncated: found.truncated };
}
