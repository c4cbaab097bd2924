/**
 * What chat needs from long-term memory: memories for the prompt (within a token budget, formatted as data) and a
 * record of which ones an answer used (memory.service.ts memoryRetrievalPort).
 */
export interface RetrievedMemory {
  memoryId: number;
  score: number;
  reason: 'pinned' | 'semantic' | 'keyword' | 'recency';
  /** The message's words the memory holds, as the message writes them (text/matched-words.ts); absent when none. */
  matched?: string[];
}

export interface MemoryRetrievalPort {
  retrieveForPrompt(input: {
    query: string;
    threadId: number;
    tokenBudget: number;
    estimateTokens: (text: string) => number;
    /** Memories the user excluded from this thread. */
    excludeIds?: ReadonlySet<number>;
  }): Promise<{
    items: RetrievedMemory[];
    text: string;
    /** The question's embedding took longer than the time budget: these are the keyword matches alone. */
    semanticTimedOut?: boolean;
  }>;
  /** Runs inside the transaction that stores the answer. */
  recordUse(messageId: number, items: RetrievedMemory[]): void;
}
