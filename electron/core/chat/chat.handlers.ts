/** `chat.*` and `summary.*`: sending, retrying and stopping answers; a thread's running summary. */
import type { Clock } from '../ports/clock.port';
import type { EventBus } from '../event-bus';
import type { Sqlite } from '../db/open-database';
import type { HandlersFor } from '../rpc/dispatcher';
import type { ThreadService } from '../threads/thread.service';
import type { ChatService } from './chat.service';
import { loadSummary, updateSummaryByUser } from './summary.job';

export function chatHandlers(deps: { chat: ChatService }): HandlersFor<'chat'> {
  const { chat } = deps;
  return {
    'chat.send': (input) => chat.send(input),
    'chat.retry': (input) => chat.retry(input),
    'chat.stop': ({ threadId }) => ({ stopped: chat.stop(threadId) }),
  };
}

export function summaryHandlers(deps: { sqlite: Sqlite; clock: Clock; events: EventBus; threads: ThreadService }): HandlersFor<'summary'> {
  const { sqlite, clock, events, threads } = deps;
  return {
    'summary.get': ({ threadId }) => {
      threads.get(threadId); // NOT_FOUND for a thread that does not exist
      return loadSummary(sqlite, threadId);
    },
    'summary.update': ({ threadId, content }) => {
      threads.get(threadId);
      const summary = updateSummaryByUser(sqlite, clock, threadId, content);
      events.emit('summary.updated', { summary });
      return summary;
    },
  };
}
