/**
 * LoCoMo (long multi-session conversations, ACL 2024), the development half the team keeps in ../shared/data/locomo-dev
 * (its README holds the protocol): each conversation's observations become memories, its questions of categories 1-4
 * with evidence are asked, and a retrieved memory is a hit when its dialogue ids meet the question's evidence. Read
 * here, scored here; never shipped, never needed by `npm test`: without the folder the suite says so and skips.
 */
import fs from 'node:fs';
import path from 'node:path';
import { meaningfulTerms, termKeys } from '../electron/core/text/meaningful-terms';

/** The folder holding <id>.json: MNEMO_LOCOMO_DIR, else the team's folder beside the repository. */
export function locomoDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.MNEMO_LOCOMO_DIR?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'locomo-dev');
}

/** The categories the protocol asks (5 is adversarial, without evidence). */
export const LOCOMO_CATEGORIES = [1, 2, 3, 4] as const;
export type LocomoCategory = (typeof LOCOMO_CATEGORIES)[number];
/** What LoCoMo's categories are, as its paper and our README read them. */
export const CATEGORY_NAMES: Record<LocomoCategory, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface LocomoMemory {
  content: string;
  /** Dialogue ids of every turn the fact was written from (a fact written twice carries both). */
  diaIds: Set<string>;
  /** The session's date as LoCoMo gives it ("1:56 pm on 8 May, 2023"). */
  sessionDate: string;
  /** That time in ms, read as UTC; null when the data's date cannot be read. */
  learnedAt: number | null;
}

export interface LocomoQuestion {
  text: string;
  category: LocomoCategory;
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  /** The day after the last session (UTC ms): when the questions are asked; null without readable dates. */
  askedAt: number | null;
  memories: LocomoMemory[];
  questions: LocomoQuestion[];
}

/** Dialogue ids in whatever form the data writes them ("D1:3", "D8:6; D9:17", ["D1:3", "D1:9"]). */
function diaIdsOf(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join(' ') : String(value ?? '');
  return text.match(/D\d+:\d+/g) ?? [];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" as UTC ms; null when it does not read so. */
export function sessionTime(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (!m || month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** A fact without LoCoMo's leading list marks. */
function factText(raw: string): string {
  return raw.replace(/^\s*(?:[-*•]|\d+[.)])\s*/u, '').trim();
}

export function readLocomoConversation(file: string): LocomoConversation {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const byText = new Map<string, LocomoMemory>();
  for (const key of Object.keys(data)) {
    const session = /^session_(\d+)_observation$/.exec(key);
    if (!session) continue;
    const sessionDate = String(data[`session_${session[1]}_date_time`] ?? '');
    for (const facts of Object.values(data[key] as Record<string, unknown[]>)) {
      for (const entry of facts) {
        const [raw, ids] = entry as [string, unknown];
        const content = factText(String(raw));
        if (!content) continue;
        const known = byText.get(content);
        if (known) diaIdsOf(ids).forEach((id) => known.diaIds.add(id));
        else byText.set(content, { content, diaIds: new Set(diaIdsOf(ids)), sessionDate, learnedAt: sessionTime(sessionDate) });
      }
    }
  }
  const questions = (data.qa as Array<{ question: string; category: number; evidence?: unknown }>).flatMap((q): LocomoQuestion[] => {
    const evidence = diaIdsOf(q.evidence);
    const category = q.category as LocomoCategory;
    return LOCOMO_CATEGORIES.includes(category) && evidence.length > 0 ? [{ text: q.question, category, evidence }] : [];
  });
  const memories = [...byText.values()];
  const dated = memories.every((m) => m.learnedAt !== null) && memories.length > 0;
  const askedAt = dated ? Math.max(...memories.map((m) => m.learnedAt!)) + 86_400_000 : null;
  return { id: path.basename(file, '.json'), askedAt, memories, questions };
}

export type LocomoData = { available: true; conversations: LocomoConversation[] } | { available: false; why: string };

export function readLocomo(env: NodeJS.ProcessEnv = process.env): LocomoData {
  const dir = locomoDir(env);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
  if (files.length === 0) {
    return { available: false, why: `no LoCoMo conversations in ${dir} (the team's ../shared/data/locomo-dev beside the repository, or set MNEMO_LOCOMO_DIR)` };
  }
  return { available: true, conversations: files.map((f) => readLocomoConversation(path.join(dir, f))) };
}

/**
 * What retrieval could reach for one question, from the texts alone (no retrieval asked):
 * - 'unreachable': no observation cites the question's evidence turns, so no retrieval can hit it;
 * - 'shared words': an evidence memory holds a meaningful term of the question (text/meaningful-terms.ts, stems and
 *   CJK terms) that fewer than COMMON_SHARE of the conversation's memories hold: matching words can find it;
 * - 'names only': the evidence shares with the question only terms that many memories hold (the speakers' names, a
 *   word like "like"), or nothing: only knowing what words mean (an embedding model, a thesaurus) can find it.
 * A keyword search's hits beyond 'shared words' are luck: a names-only memory that happened to rank in.
 */
export type Reach = 'unreachable' | 'shared words' | 'names only';
export const REACHES: readonly Reach[] = ['unreachable', 'shared words', 'names only'];
/** A term at least this share of a conversation's memories hold says nothing about which one answers. */
const COMMON_SHARE = 0.1;

/** Each memory's term keys, how many memories hold a term, and which terms are common in the conversation (see Reach). */
export function conversationTerms(c: LocomoConversation): { keys: Array<Set<string>>; held: (key: string) => number; common: (key: string) => boolean } {
  const keys = c.memories.map((m) => termKeys(m.content));
  const df = new Map<string, number>();
  for (const k of keys) for (const t of k) df.set(t, (df.get(t) ?? 0) + 1);
  const held = (key: string) => df.get(key) ?? 0;
  return { keys, held, common: (key) => held(key) >= c.memories.length * COMMON_SHARE };
}

/** The memories (indexes) whose dialogue ids meet the question's evidence. */
export function evidenceMemories(c: LocomoConversation, q: LocomoQuestion): number[] {
  return c.memories.flatMap((m, i) => (q.evidence.some((e) => m.diaIds.has(e)) ? [i] : []));
}

/** Every question's reach, in order. */
export function questionReach(c: LocomoConversation): Reach[] {
  const { keys, common } = conversationTerms(c);
  return c.questions.map((q) => {
    const evidence = evidenceMemories(c, q);
    if (evidence.length === 0) return 'unreachable';
    const rare = meaningfulTerms(q.text).map((t) => t.key).filter((k) => !common(k));
    return evidence.some((i) => rare.some((k) => keys[i]!.has(k))) ? 'shared words' : 'names only';
  });
}

/** One question's retrieved memories (indexes into its conversation's memories), best first. */
export type Retrieved = number[];

export interface LocomoScore {
  questions: number;
  hit: number;
  evidenceRecall: number;
  byCategory: Record<LocomoCategory, number>;
  /** Questions hit and asked, by what retrieval could reach (questionReach). */
  byReach: Record<Reach, { hit: number; of: number }>;
  returned: number;
}

/** Hit rate (overall and per category), evidence recall and mean returned, over every conversation's questions. */
export function scoreLocomo(conversations: LocomoConversation[], answers: Retrieved[][]): LocomoScore {
  const hits: Record<LocomoCategory, number[]> = { 1: [], 2: [], 3: [], 4: [] };
  const recalls: number[] = [];
  const returned: number[] = [];
  const byReach = Object.fromEntries(REACHES.map((r) => [r, { hit: 0, of: 0 }])) as LocomoScore['byReach'];
  conversations.forEach((c, ci) => {
    const reach = questionReach(c);
    c.questions.forEach((q, qi) => {
      const got = answers[ci]![qi]!;
      const covered = new Set(got.flatMap((m) => [...c.memories[m]!.diaIds]));
      const hit = q.evidence.some((e) => covered.has(e));
      hits[q.category].push(hit ? 1 : 0);
      byReach[reach[qi]!].of++;
      if (hit) byReach[reach[qi]!].hit++;
      recalls.push(q.evidence.filter((e) => covered.has(e)).length / q.evidence.length);
      returned.push(got.length);
    });
  });
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const all = Object.values(hits).flat();
  return {
    questions: all.length,
    hit: mean(all),
    evidenceRecall: mean(recalls),
    byCategory: { 1: mean(hits[1]), 2: mean(hits[2]), 3: mean(hits[3]), 4: mean(hits[4]) },
    byReach,
    returned: mean(returned),
  };
}
