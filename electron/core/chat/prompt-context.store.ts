/**
 * What the model saw for each answer (shared/contract PromptContext), one JSON row per assistant message in
 * message_contexts, written in the answer's own transaction and deleted with it (foreign key cascade).
 */
import { PromptContext } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { Logger } from '../ports/logger.port';

export function createPromptContextStore(sqlite: Sqlite, logger: Logger) {
  const insert = sqlite.prepare('INSERT OR REPLACE INTO message_contexts (message_id, breakdown) VALUES (?, ?)');
  const byMessage = sqlite.prepare('SELECT breakdown FROM message_contexts WHERE message_id = ?');
  return {
    /** Inside the transaction that finishes the answer. */
    save(messageId: number, context: PromptContext): void {
      insert.run(messageId, JSON.stringify(context));
    },
    /** Null when none was recorded (an answer from before, or one whose prompt could not be assembled). */
    get(messageId: number): PromptContext | null {
      const row = byMessage.get(messageId) as { breakdown: string } | undefined;
      if (!row) return null;
      let json: unknown = null;
      try {
        json = JSON.parse(row.breakdown);
      } catch {
        // reported below as unreadable
      }
      const parsed = PromptContext.safeParse(json);
      // A row this version cannot read is shown as "not recorded", never as an error over the whole thread.
      if (!parsed.success) logger.warn('unreadable prompt context', { message: messageId });
      return parsed.success ? parsed.data : null;
    },
  };
}

export type PromptContextStore = ReturnType<typeof createPromptContextStore>;
