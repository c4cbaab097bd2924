/**
 * "Searching memories: cat…" under an answer being written, while a search the model asked for runs (the core's
 * message.searchStarted) and until the answer's text goes on: without it the chat would sit silent, or claim the
 * model is loading, while the tools work.
 */
import { useChatStore } from './chat.store';
import { useT } from '../i18n/use-t';

export function SearchingLine({ threadId, messageId }: { threadId: number; messageId: number }) {
  const t = useT();
  const searching = useChatStore((s) => {
    const current = s.threads[threadId]?.searching;
    return current?.messageId === messageId ? current : null;
  });
  if (!searching) return null;
  return (
    <p className="model-loading searching" role="status">
      <span className="spinner" aria-hidden="true" /> {t(searching.tool === 'search_conversations' ? 'chat.searchingConversations' : 'chat.searchingMemories', { query: searching.query })}
    </p>
  );
}

/** Whether the answer's own status line ("Loading the model…") gives way to the search's. */
export function useSearching(threadId: number, messageId: number): boolean {
  return useChatStore((s) => s.threads[threadId]?.searching?.messageId === messageId);
}
