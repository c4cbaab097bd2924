/**
 * The composer's hint to the core that a message is coming (chat.typing): the model lane then holds background model
 * work and stops a running background request, so the model is free when the message goes out
 * (electron/core/llm/model-lane.ts). The lane's hold lasts a few seconds after each hint, so one hint a second while
 * the draft changes keeps it; more would only be traffic. Only a changed, non-empty draft is typing (moving the caret,
 * or a draft emptied after sending, is not).
 */

/** At most one hint this often (the lane's typing grace is a few times longer). */
export const TYPING_HINT_INTERVAL_MS = 1_000;

/** Returns what the composer calls with each new draft; `send` is called when a hint is due. */
export function createTypingHint(send: () => void, options: { intervalMs?: number; now?: () => number } = {}): (draft: string) => void {
  const intervalMs = options.intervalMs ?? TYPING_HINT_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let lastDraft = '';
  let lastSentAt = -Infinity;
  return (draft) => {
    if (draft.trim() === '' || draft === lastDraft) return;
    lastDraft = draft;
    const t = now();
    if (t - lastSentAt < intervalMs) return;
    lastSentAt = t;
    send();
  };
}
