/**
 * The system text of a prompt: Mnemo's own lines, then the user's global instructions ("how should Mnemo answer"),
 * then the thread's own, all within the system share of the budget. Pure.
 *
 * Mnemo's lines come first and whole (they are short and say what the model is and what day it is). The room left
 * goes to the instructions: when both fit, both go whole; when not, each may use half of the room, and what one
 * leaves of its half goes to the other, so a short thread prompt is never cut because the global one is long. A cut
 * block keeps its beginning and ends with CUT_MARK, and is reported as cut (the context view says so).
 *
 * Instructions are only ever sent to the model: they are never part of what extraction reads (it reads the user's
 * message and the answer), so nothing is learned from them.
 */
import { fitToTokens } from '../llm/context-budget';

export const GLOBAL_INSTRUCTIONS_HEADING = 'How the user wants you to answer:';
export const THREAD_INSTRUCTIONS_HEADING = 'Instructions for this conversation:';
/** Ends an instructions block that was cut to fit. */
export const CUT_MARK = ' […]';

export interface InstructionsPlacement {
  tokens: number;
  cut: boolean;
}

export interface SystemText {
  text: string;
  tokens: number;
  globalInstructions: InstructionsPlacement | null;
  threadInstructions: InstructionsPlacement | null;
}

export function composeSystemText(input: {
  base: string;
  globalInstructions: string;
  threadInstructions: string | null;
  budgetTokens: number;
  estimate: (s: string) => number;
}): SystemText {
  const { estimate, budgetTokens } = input;
  const base = fitToTokens(input.base, budgetTokens, estimate);
  const blocks = [
    { heading: GLOBAL_INSTRUCTIONS_HEADING, body: input.globalInstructions.trim() },
    { heading: THREAD_INSTRUCTIONS_HEADING, body: (input.threadInstructions ?? '').trim() },
  ].map((b) => ({ ...b, tokens: estimate(b.body) }));
  // Each block costs its body plus its heading and the line breaks around it, with a token of slack for each join
  // (estimate(a + b) may exceed estimate(a) + estimate(b) by one: token-estimate.ts).
  const overhead = (heading: string) => estimate(heading) + 2 * estimate('\n\n') + 3;
  const wanted = blocks.map((b) => (b.body ? overhead(b.heading) + b.tokens : 0));
  const room = Math.max(0, budgetTokens - estimate(base));
  const allowed = shareRoom(wanted, room);

  const parts = [base];
  const placements = blocks.map((block, i): InstructionsPlacement | null => {
    if (!block.body) return null;
    const bodyRoom = allowed[i]! - overhead(block.heading);
    if (block.tokens <= bodyRoom) {
      parts.push(`${block.heading}\n${block.body}`);
      return { tokens: block.tokens, cut: false };
    }
    const kept = fitToTokens(block.body, bodyRoom - estimate(CUT_MARK), estimate);
    if (!kept) return { tokens: 0, cut: true };
    parts.push(`${block.heading}\n${kept}${CUT_MARK}`);
    return { tokens: estimate(kept + CUT_MARK), cut: true };
  });
  const text = parts.join('\n\n');
  return { text, tokens: estimate(text), globalInstructions: placements[0]!, threadInstructions: placements[1]! };
}

/** Splits `room` between two wants: whole when both fit; otherwise half each, a half one does not need going to the other. */
export function shareRoom(wanted: readonly number[], room: number): number[] {
  if (wanted.reduce((a, b) => a + b, 0) <= room) return [...wanted];
  const half = Math.floor(room / 2);
  const [a, b] = wanted as [number, number];
  if (a <= half) return [a, room - a];
  if (b <= half) return [room - b, b];
  return [half, room - half];
}
