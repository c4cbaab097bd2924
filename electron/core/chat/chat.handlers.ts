/** `chat.*` and `summary.*`: sending, retrying and stopping answers, what the model saw for one; a thread's running summary. */
import type { Clock } from '../ports/clock.port';
import type { EventBus } from '../runtime/event-bus';
import type { Sqlite } from '../db/open-database';
import type { HandlersFor } from '../rpc/dispatcher';
import type { ThreadService } from '../threads/thread.service';
import { MnemoError } from '../../../shared/errors';
import type { ModelLane } from '../llm/model-lane';
import type { ChatService } from './chat.service';
import type { MessagesRepo } from '../conversation/messages.repo';
import type { PromptContextRepo } from './prompt-context.repo';
import { summaryAsShown, type MessageBranches } from '../conversation/message-branches';
import { loadSummary, updateSummaryByUser } from './summary.job';

export function chatHandlers(deps: { chat: ChatService; messages: MessagesRepo; promptContexts: PromptContextRepo; lane: Pick<ModelLane, 'typing'> }): HandlersFor<'chat'> {
  const { chat, messages, promptContexts } = deps;
  return {
    'chat.send': (input) => chat.send(input),
    'chat.retry': (input) => chat.retry(input),
    'chat.edit': (input) => chat.edit(input),
    'chat.regenerate': (input) => chat.regenerate(input),
    'chat.typing': () => {
      deps.lane.typing();
      return {};
    },
    'chat.stop': ({ threadId }) => ({ stopped: chat.stop(threadId) }),
    'chat.context': ({ messageId }) => {
      if (!messages.get(messageId)) throw new MnemoError('NOT_FOUND', `Message ${messageId} does not exist (its thread may have been deleted).`);
      return promptContexts.get(messageId);
    },
  };
}

export function summaryHandlers(deps: { sqlite: Sqlite; clock: Clock; events: EventBus; threads: ThreadService; branches: MessageBranches }): HandlersFor<'summary'> {
  const { sqlite, clock, events, threads, branches } = deps;
  return {
    'summary.get': ({ threadId }) => {
      threads.get(threadId); // NOT_FOUND for a thread that does not exist
      return summaryAsShown(loadSummary(sqlite, threadId), branches.leaf(threadId), branches);
    },
    'summary.update': ({ threadId, content }) => {
      threads.get(threadId);
      const summary = summaryAsShown(updateSummaryByUser(sqlite, clock, branches, threadId, content), branches.leaf(threadId), branches)!;
      events.emit('summary.updated', { summary });
      return summary;
    },
  };
}
