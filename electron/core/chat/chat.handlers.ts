/** `chat.*` and `summary.*`: sending, retrying and stopping answers, what the model saw for one; a thread's running summary. */
import type { Clock } from '../ports/clock.port';
import type { EventBus } from '../runtime/event-bus';
import type { HandlersFor } from '../rpc/dispatcher';
import type { ThreadService } from '../threads/thread.service';
import { MnemoError } from '../../../shared/errors';
import type { ModelLane } from '../llm/model-lane';
import type { ChatService } from './chat.service';
import type { MessagesStore } from '../conversation/messages.store';
import type { PromptContextStore } from './prompt-context.store';
import { summaryAsShown, type MessageBranches } from '../conversation/message-branches';
import type { SummaryStore } from '../conversation/summary.store';
import { updateSummaryByUser } from './summary.job';

export function chatHandlers(deps: { chat: ChatService; messages: MessagesStore; promptContexts: PromptContextStore; lane: Pick<ModelLane, 'typing'> }): HandlersFor<'chat'> {
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

export function summaryHandlers(deps: { summaries: SummaryStore; branches: MessageBranches; clock: Clock; events: EventBus; threads: ThreadService }): HandlersFor<'summary'> {
  const { summaries, branches, clock, events, threads } = deps;
  return {
    'summary.get': ({ threadId }) => {
      threads.get(threadId); // NOT_FOUND for a thread that does not exist
      return summaryAsShown(summaries.get(threadId), branches.leaf(threadId), branches);
    },
    'summary.update': ({ threadId, content }) => {
      threads.get(threadId);
      const summary = summaryAsShown(updateSummaryByUser(summaries, branches, threadId, content, clock.now()), branches.leaf(threadId), branches)!;
      events.emit('summary.updated', { summary });
      return summary;
    },
  };
}
