/**
 * What chat needs from long-term memory: memories for the prompt (within a token budget, formatted as data), the
 * episodes of a time the question asks about, and a record of which memories an answer used (memory.service.ts
 * memoryRetrievalPort).
 */
import type { TimeWindow } from '../time/time-window';

/** What an earlier stretch of conversation was about (episodes/), as a prompt quotes it. */
export interface PromptEpisode {
  episodeId: number;
  threadId: number;
  threadTitle: string;
  title: string;
  content: string;
  startedAt: number;
}

export interface RetrievedMemory {
  memoryId: number;
  score: number;
  reason: 'pinned' | 'semantic' | 'keyword' | 'recency';
  /** The message's words the memory holds, as the message writes them (text/matched-words.ts); absent when none. */
  matched?: string[];
}

/** What the prompt's retrieval is asked: the question, within a token budget. */
export interface RetrieveInput {
  query: string;
  /** The thread asking (reserved for per-thread exclusions; not used for ranking). */
  threadId: number;
  tokenBudget: number;
  estimateTokens: (text: string) => number;
  /** Memories the user excluded from this thread. */
  excludeIds?: ReadonlySet<number>;
  /** The past time the question asks about (time/time-window.ts inThePast). */
  window?: TimeWindow | null;
  /** With a window: the question without its time phrase, what the relevance floor weighs. */
  topic?: string | undefined;
}

export interface MemoryRetrievalPort {
  retrieveForPrompt(input: RetrieveInput): Promise<{
    items: RetrievedMemory[];
    text: string;
    /** The question's embedding took longer than the time budget: these are the keyword matches alone. */
    semanticTimedOut?: boolean;
  }>;
  /**
   * Active episodes overlapping the window (never an incognito thread's: it has none): about `topic`, best first; all
   * of them, newest first, when `topic` is '' (a question about the time itself).
   */
  episodesWithin(window: TimeWindow, topic: string, limit: number): PromptEpisode[];
  /** Runs inside the transaction that stores the answer. */
  recordUse(messageId: number, items: RetrievedMemory[]): void;
}
