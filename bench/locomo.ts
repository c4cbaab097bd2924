/**
 * LoCoMo (long multi-session conversations, ACL 2024), the development half the team keeps in ../shared/data/locomo-dev
 * (its README holds the protocol): each conversation's observations become memories, its questions of categories 1-4
 * with evidence are asked, and a retrieved memory is a hit when its dialogue ids meet the question's evidence. Read
 * here, scored here; never shipped, never needed by `npm test`: without the folder the suite says so and skips.
 */
import fs from 'node:fs';
import path from 'node:path';

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

/** One question's retrieved memories (indexes into its conversation's memories), best first. */
export type Retrieved = number[];

export interface LocomoScore {
  questions: number;
  hit: number;
  evidenceRecall: number;
  byCategory: Record<LocomoCategory, number>;
  returned: number;
}

/** Hit rate (overall and per category), evidence recall and mean returned, over every conversation's questions. */
export function scoreLocomo(conversations: LocomoConversation[], answers: Retrieved[][]): LocomoScore {
  const hits: Record<LocomoCategory, number[]> = { 1: [], 2: [], 3: [], 4: [] };
  const recalls: number[] = [];
  const returned: number[] = [];
  conversations.forEach((c, ci) => {
    c.questions.forEach((q, qi) => {
      const got = answers[ci]![qi]!;
      const covered = new Set(got.flatMap((m) => [...c.memories[m]!.diaIds]));
      hits[q.category].push(q.evidence.some((e) => covered.has(e)) ? 1 : 0);
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
    returned: mean(returned),
  };
}
