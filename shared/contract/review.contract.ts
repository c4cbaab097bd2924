import { z } from 'zod';
import { Id, Timestamp, operation } from './define';
import { Memory, MemoryCategory, WrittenBy } from './memory.contract';

/**
 * Why a candidate waits for review whatever the memory mode: 'instruction', it reads like an instruction to the
 * assistant; 'language', it is written in another language than the user's message (keyword search in the user's
 * language would not find it); 'consolidation', a summary maintenance wrote of several memories, one of them pinned or
 * the user's (approving supersedes them all, rejecting leaves them). Null: it waits only because memory mode is "ask first".
 */
export const ReviewFlag = z.enum(['instruction', 'language', 'consolidation']);
export type ReviewFlag = z.output<typeof ReviewFlag>;

/**
 * The review inbox: candidates the extractor proposed while memory mode is "ask first", and any flagged candidate
 * (always reviewed). A rejected candidate is remembered so it is not proposed again. `writtenBy`: the connected app
 * that proposed it (absent: Mnemo proposed it from a conversation; and from older cores).
 */
export const ReviewItem = Memory.extend({ replaces: Memory.nullable(), flag: ReviewFlag.nullable(), writtenBy: WrittenBy.optional() });
export type ReviewItem = z.output<typeof ReviewItem>;

export const reviewOperations = {
  'review.list': operation(
    'Candidates waiting for review, newest first; with the memory each would replace (a contradiction), which approving supersedes.',
    z.object({ limit: z.number().int().min(1).max(500).default(100) }).strict(),
    z.object({ items: z.array(ReviewItem), total: z.number().int().nonnegative() }),
  ),
  'review.approve': operation(
    'Accepts a candidate into memory, optionally edited first (text, category, importance, pin, expiry).',
    z
      .object({
        memoryId: Id,
        content: z.string().trim().min(1).max(2000).optional(),
        category: MemoryCategory.optional(),
        importance: z.number().min(0).max(1).optional(),
        pinned: z.boolean().optional(),
        /** Null: never expires (as memory.update). */
        expiresAt: Timestamp.nullable().optional(),
      })
      .strict(),
    Memory,
  ),
  'review.reject': operation('Refuses a candidate; the same fact will not be proposed again.', z.object({ memoryId: Id }).strict(), Memory),
};

export const reviewEvents = {
  /** Background re-embedding after a model switch or while vectors are missing. */
  'embedding.reindexProgressed': z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  /** A new memory of high importance (>= 0.8) was learned: the UI may show a notification. */
  'memory.learned': z.object({ memory: Memory }),
  /** One exchange was processed by the extractor: what it created, updated or sent to review (ids only). */
  'extraction.completed': z.object({
    threadId: z.number().int().nullable(),
    userMessageId: z.number().int().nullable(),
    created: z.array(Id),
    updated: z.array(Id),
    review: z.array(Id),
    dropped: z.number().int().nonnegative(),
  }),
};
