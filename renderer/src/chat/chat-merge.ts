/**
 * How a thread's message list absorbs what arrives from two channels that are not ordered with each other: events
 * over the event socket (created, delta, completed) and the result of chat.send over its own request.
 * Invariant: a finished reply is never overwritten by anything older (a late "created" or a late delta).
 */
import type { EventPayload, Message } from '../../../shared/contract';

export type MemoryUse = EventPayload<'message.completed'>['memoriesUsed'][number];

/** Replaces the message with the same id, or inserts it in id order. */
export function upsertMessage(list: readonly Message[], incoming: Message): Message[] {
  const index = list.findIndex((m) => m.id === incoming.id);
  if (index >= 0) {
    const existing = list[index]!;
    if (existing.status !== 'streaming' && incoming.status === 'streaming') return list as Message[];
    const next = list.slice();
    next[index] = incoming;
    return next;
  }
  const next = list.slice();
  let at = next.length;
  while (at > 0 && next[at - 1]!.id > incoming.id) at--;
  next.splice(at, 0, incoming);
  return next;
}

/** Appends streamed text to a reply that is still streaming; anything else is left alone (returns the same list). */
export function applyDelta(list: readonly Message[], messageId: number, content: string, thinking: string): Message[] {
  const index = list.findIndex((m) => m.id === messageId);
  if (index < 0 || list[index]!.status !== 'streaming' || (content === '' && thinking === '')) return list as Message[];
  const existing = list[index]!;
  const next = list.slice();
  next[index] = { ...existing, content: existing.content + content, thinking: existing.thinking + thinking };
  return next;
}

/** Merges a page of older messages in front of what is loaded (ids may overlap after a reconnect). */
export function mergeOlder(older: readonly Message[], loaded: readonly Message[]): Message[] {
  let merged = loaded.slice();
  for (const m of older) merged = upsertMessage(merged, m);
  return merged;
}

export type ReplyState = 'idle' | 'waiting' | 'loading-model' | 'streaming';

/**
 * What the thread is doing now, for the stop button and the "model loading" indicator: a reply that has produced
 * nothing yet is the model loading (Ollama loads it before the first token).
 */
export function replyState(list: readonly Message[], sending: boolean): ReplyState {
  const last = list[list.length - 1];
  if (last && last.role === 'assistant' && last.status === 'streaming') {
    return last.content === '' && last.thinking === '' ? 'loading-model' : 'streaming';
  }
  return sending ? 'waiting' : 'idle';
}

/** The reply a Retry replaces: the last message when it is an answer that did not complete. */
export function retryableReply(list: readonly Message[]): Message | null {
  const last = list[list.length - 1];
  return last && last.role === 'assistant' && (last.status === 'error' || last.status === 'stopped' || last.status === 'truncated') ? last : null;
}

/**
 * The view while a new version of `messageId` is written (an edit of a question, a regenerated answer): what comes
 * before it. The new version and its reply arrive as message.created events; the old branch stays in the core.
 */
export function branchFrom(list: readonly Message[], messageId: number): Message[] {
  const index = list.findIndex((m) => m.id === messageId);
  return index < 0 ? (list as Message[]) : list.slice(0, index);
}
