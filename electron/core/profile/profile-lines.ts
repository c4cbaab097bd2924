/**
 * The profile line by line: what each line was written from, the check a rewrite must pass before it replaces the
 * profile, and the profile without the lines of memories that were purged.
 *
 * Sources (stored beside the profile, user_profile.sources): the memories the rewrite read (`notes`) and, per line of
 * the content, the memories it draws on: those it shares a term with (terms as search reads them: word stems, CJK
 * bigrams; framing words such as "the user", "prefers", 喜欢 are nobody's). `[]` is a line drawn from no memory
 * (a heading, a blank line, or words the user typed into the profile themselves); `null` is a line that could not be
 * compared (written in another language than any memory it was written from) and so may draw on any of them.
 *
 * The check of a rewrite (the consolidation rule, consolidation-summary.ts, applied per line):
 * - a line holding a secret refuses the whole rewrite, as does an instruction-like line (instruction-detector.ts)
 *   that no memory says: such a profile would be read by the model before every answer;
 * - a line with a term no memory (nor the user's own edit of the profile, which the rewrite is asked to keep) holds
 *   is dropped: the model invented or misread it; when more than half of the lines are dropped the answer as a whole
 *   is not a profile of these memories and the rewrite is refused;
 * - a line in a language none of its memories is written in cannot be compared word by word: it is kept, with
 *   sources `null`.
 * A refused rewrite leaves the previous profile as it was.
 *
 * A purge removes from the profile, at once and without a model, every line that draws on a purged memory: lines whose
 * sources name it, lines that could not be compared when it was among the memories read, and any line sharing a
 * term with its text (which also reaches words the user copied into the profile, and profiles written before
 * sources were kept). A heading left with nothing under it goes too. The next rewrite (the purge schedules one)
 * brings back what the remaining memories say.
 */
import { countTerms, contentGrounding, indexUserWords, type UserWords } from '../safety/candidate-grounding';
import { looksLikeInstruction } from '../safety/instruction-detector';
import { detectLanguage, type MessageLanguage } from '../safety/message-language';
import { secretRefusal } from '../safety/secret-detector';

export interface ProfileSources {
  /** The memories the rewrite read. */
  notes: number[];
  /** Per line of the content (split at '\n'): the memories it draws on; null: any of `notes` (see the header). */
  lines: Array<number[] | null>;
}

export interface SourceNote {
  id: number;
  content: string;
}

export type ProfileProblem = 'empty' | 'secret' | 'instruction' | 'ungrounded';

export type ProfileCheck =
  | { ok: true; content: string; sources: ProfileSources; dropped: number }
  | { ok: false; problem: ProfileProblem };

/** The headings the profile prompt asks for, in both languages: structure, never anybody's words. */
const HEADING_WORDS = [
  'name', 'language', 'languages', 'location', 'work', 'job', 'preferences', 'instructions for the assistant', 'instructions',
  '姓名', '名字', '语言', '位置', '所在地', '地点', '居住地', '工作', '职业', '偏好', '喜好', '给助手的指示', '对助手的指示', '助手指示', '指示',
];
const HEADING_LABEL = new RegExp(String.raw`^(?:\*\*|__)?(?:${HEADING_WORDS.map(escapeRegExp).join('|')})(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*`, 'iu');
const LIST_MARKER = /^\s*(?:[-*•+]|\d+[.)])\s+/u;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A Markdown heading, a bold line of its own, or a bare heading word ("Work:", "## 工作"). */
function isHeading(line: string): boolean {
  const t = line.trim();
  if (/^#{1,6}\s/u.test(t)) return true;
  if (LIST_MARKER.test(t)) return false;
  if (/^(?:\*\*|__)[^*_]+(?:\*\*|__)[:：]?$/u.test(t)) return true;
  const bare = t.replace(/[:：]$/u, '').toLowerCase();
  return HEADING_WORDS.includes(bare);
}

/** What a content line says: without its list marker, emphasis and a heading word used as a label ("Location: Berlin"). */
export function lineBody(line: string): string {
  return line.replace(LIST_MARKER, '').trim().replace(HEADING_LABEL, '').replace(/\*\*|__/g, '').trim();
}

/** True for a line that says something (not blank, not a heading). */
function isContent(line: string): boolean {
  return line.trim() !== '' && !isHeading(line) && lineBody(line) !== '';
}

const sharesTerm = (text: string, words: UserWords) => countTerms(text, words).found > 0;

/** Headings with no content line under them (before the next heading or the end) are dropped. */
function withoutEmptySections<T>(lines: Array<{ text: string; meta: T }>): Array<{ text: string; meta: T }> {
  const out: Array<{ text: string; meta: T }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isHeading(line.text)) {
      let j = i + 1;
      while (j < lines.length && !isHeading(lines[j]!.text) && !isContent(lines[j]!.text)) j++;
      if (j >= lines.length || isHeading(lines[j]!.text)) continue;
    }
    out.push(line);
  }
  // No blank lines left at the ends, nor two in a row.
  const tidy = out.filter((l, i) => l.text.trim() !== '' || (i > 0 && i < out.length - 1 && out[i - 1]!.text.trim() !== ''));
  while (tidy.length > 0 && tidy.at(-1)!.text.trim() === '') tidy.pop();
  return tidy;
}

/**
 * The check of a rewrite (see the header). `previous`: the profile being replaced; when the user edited it, its
 * words count as grounded and its lines keep the sources they had.
 */
export function checkProfile(
  content: string,
  notes: readonly SourceNote[],
  previous: { content: string; sources: ProfileSources | null; editedByUser: boolean } | null,
): ProfileCheck {
  const noteWords = notes.map((n) => ({ id: n.id, words: indexUserWords(n.content), language: detectLanguage(n.content) }));
  const languages = new Set<MessageLanguage>(noteWords.map((n) => n.language));
  const userEdit = previous?.editedByUser ? previous.content : '';
  const grounds = indexUserWords([...notes.map((n) => n.content), userEdit].join('\n'));
  const voices = [...noteWords.map((n) => n.words), ...(userEdit ? [indexUserWords(userEdit)] : [])];
  const previousSources = previous ? sourcesByLine(previous.content, previous.sources) : new Map<string, number[] | null>();

  const kept: Array<{ text: string; meta: number[] | null }> = [];
  let contentLines = 0;
  let dropped = 0;
  for (const line of content.split('\n')) {
    if (!isContent(line)) {
      kept.push({ text: line, meta: [] });
      continue;
    }
    contentLines++;
    const body = lineBody(line);
    if (secretRefusal(body) !== null) return { ok: false, problem: 'secret' };
    // An instruction only a memory (one the user let in, through review) or the user's own edit may carry: said by
    // neither, it is injected.
    if (looksLikeInstruction(body) !== null && !voices.some((words) => contentGrounding(body, words) === null)) return { ok: false, problem: 'instruction' };
    const grounded = contentGrounding(body, grounds) === null;
    const comparable = languages.size === 0 || languages.has(detectLanguage(body));
    if (!grounded && comparable) {
      dropped++;
      continue;
    }
    if (!grounded) {
      kept.push({ text: line, meta: null });
      continue;
    }
    const drawn = noteWords.filter((n) => sharesTerm(body, n.words)).map((n) => n.id);
    const before = previousSources.get(line.trim());
    kept.push({ text: line, meta: before === null ? null : [...new Set([...drawn, ...(before ?? [])])] });
  }
  if (contentLines === 0) return { ok: false, problem: 'empty' };
  if (dropped * 2 > contentLines) return { ok: false, problem: 'ungrounded' };
  const lines = withoutEmptySections(kept);
  if (!lines.some((l) => isContent(l.text))) return { ok: false, problem: 'empty' };
  return { ok: true, content: lines.map((l) => l.text).join('\n'), sources: { notes: notes.map((n) => n.id), lines: lines.map((l) => l.meta) }, dropped };
}

/** Each line's sources by its trimmed text (the first of equal lines). */
function sourcesByLine(content: string, sources: ProfileSources | null): Map<string, number[] | null> {
  const out = new Map<string, number[] | null>();
  if (!sources) return out;
  content.split('\n').forEach((line, i) => {
    const key = line.trim();
    if (key && !out.has(key) && i < sources.lines.length) out.set(key, sources.lines[i]!);
  });
  return out;
}

/**
 * Sources for a profile the user just wrote: a line they kept as it was keeps what it was written from; a line they
 * typed or changed is their own words ([]).
 */
export function sourcesAfterUserEdit(content: string, before: { content: string; sources: ProfileSources | null } | null): ProfileSources {
  const known = before ? sourcesByLine(before.content, before.sources) : new Map<string, number[] | null>();
  return { notes: before?.sources?.notes ?? [], lines: content.split('\n').map((line) => (known.has(line.trim()) ? known.get(line.trim())! : [])) };
}

/**
 * The profile without the lines that draw on these purged memories (see the header); null when no line does.
 * `content` '' means nothing of the profile is left.
 */
export function profileWithout(
  profile: { content: string; sources: ProfileSources | null },
  purged: readonly SourceNote[],
): { content: string; sources: ProfileSources; removed: number } | null {
  if (purged.length === 0) return null;
  const ids = new Set(purged.map((p) => p.id));
  const purgedWords = purged.map((p) => indexUserWords(p.content));
  const sources = profile.sources;
  const wasRead = sources?.notes.some((id) => ids.has(id)) ?? false;
  // A line past the recorded ones (there should be none) draws on nothing recorded; null stays null.
  const lines = profile.content.split('\n').map((text, i) => ({ text, meta: sources && i < sources.lines.length ? sources.lines[i]! : [] }));
  let removed = 0;
  const kept = lines.filter((line) => {
    if (!isContent(line.text)) return true;
    const body = lineBody(line.text);
    const drawsOn = line.meta === null ? wasRead : line.meta.some((id) => ids.has(id));
    if (drawsOn || purgedWords.some((w) => sharesTerm(body, w))) {
      removed++;
      return false;
    }
    return true;
  });
  if (removed === 0) return null;
  const left = withoutEmptySections(kept);
  const any = left.some((l) => isContent(l.text));
  return {
    content: any ? left.map((l) => l.text).join('\n') : '',
    sources: { notes: (sources?.notes ?? []).filter((id) => !ids.has(id)), lines: any ? left.map((l) => l.meta) : [] },
    removed,
  };
}

/** Stored sources, or null when absent or unreadable (a purge then goes by shared words alone). */
export function parseSources(json: string | null): ProfileSources | null {
  if (json === null) return null;
  try {
    const v = JSON.parse(json) as ProfileSources;
    const idList = (a: unknown): a is number[] => Array.isArray(a) && a.every((x) => Number.isSafeInteger(x));
    if (!v || !idList(v.notes) || !Array.isArray(v.lines) || !v.lines.every((l) => l === null || idList(l))) return null;
    return v;
  } catch {
    return null;
  }
}
