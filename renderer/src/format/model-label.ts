/**
 * A model's name where there is room for only part of it (the thread's model picker, capped so the header fits):
 * what tells two models apart is the model's own name and its tag (size, quantisation), not who published it. So the
 * publisher path is dropped ("hf.co/bartowski/" of "hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M") and
 * the end is kept whole: `head` may be cut with an ellipsis (CSS), `tail` never is, as LM Studio cuts in the middle.
 * The full name stays in the tooltip and in the open list.
 */

/** The most of a label's end kept whole: a short tag (":Q4_K_M", ":latest") or the last characters. */
const TAIL_CHARS = 12;

/** The name without the publisher path before its last "/" (a tag never holds one). */
export function modelShortName(name: string): string {
  const colon = name.indexOf(':');
  const base = colon === -1 ? name : name.slice(0, colon);
  return name.slice(base.lastIndexOf('/') + 1);
}

/** A label split so that head + tail === label and the tail is what must stay visible. */
export function splitForMiddleEllipsis(label: string): { head: string; tail: string } {
  const chars = [...label];
  if (chars.length <= TAIL_CHARS * 2) return { head: label, tail: '' };
  const colon = label.lastIndexOf(':');
  const tagLength = colon === -1 ? Infinity : [...label.slice(colon)].length;
  const keep = tagLength <= TAIL_CHARS ? tagLength : TAIL_CHARS - 2;
  return { head: chars.slice(0, -keep).join(''), tail: chars.slice(-keep).join('') };
}
