/**
 * The stretch rule, in one place: a thread's stretches of activity are its messages cut wherever two consecutive
 * messages are more than the quiet time apart. A gap of exactly the quiet time keeps one stretch. Each stretch gets
 * one episode; a stretch is known by its first message, which later messages never change (they can only extend it).
 *
 * Invariants (property-tested in test/unit/episode-stretch.test.ts): the stretches partition the messages in order;
 * inside a stretch no gap exceeds the quiet time; between two stretches the gap does.
 */

export interface StampedMessage {
  id: number;
  createdAt: number;
}

/** The messages (in thread order: by id, which follows time) as consecutive stretches. */
export function stretchesOf<T extends StampedMessage>(messages: readonly T[], quietMs: number): T[][] {
  const stretches: T[][] = [];
  let current: T[] = [];
  for (const m of messages) {
    const last = current.at(-1);
    if (last && m.createdAt - last.createdAt > quietMs) {
      stretches.push(current);
      current = [];
    }
    current.push(m);
  }
  if (current.length > 0) stretches.push(current);
  return stretches;
}

/** The stretch that holds the message with this id, or null when none does. */
export function stretchHolding<T extends StampedMessage>(messages: readonly T[], quietMs: number, messageId: number): T[] | null {
  return stretchesOf(messages, quietMs).find((s) => s.some((m) => m.id === messageId)) ?? null;
}

/** When a stretch ending with this message is quiet: the moment its episode is due. */
export function quietAt(last: StampedMessage, quietMs: number): number {
  return last.createdAt + quietMs;
}
