/**
 * A request to forget in the chat, the way ChatGPT's "Memory updated" works: the user's message asks
 * (text/forget-request.ts), Mnemo acts on it before the model answers (memory/memory-forget.ts: the trash, or the
 * candidates to pick from), the chat shows what happened under the answer (ForgetNotice: Undo, the picker, or
 * "nothing matched"), and the model, in the same one request it answers with, is told what happened, as data in the
 * fence (text/data-fence.ts), so it confirms in the user's language. No extra model call: finding the memories costs
 * a search (an embedding of the request at most).
 *
 * The forget_memory tool (memory-tools.ts) tells the model the same words through its tool message.
 *
 * Invariants: only for a question just asked (chat.send, chat.edit): a regenerated answer does not forget again; never
 * in an incognito thread or with memory off; the exchange is never learned from (chat.service.ts enqueues no
 * extraction for it, and extraction.job.ts skips the sentence).
 */
import type { ForgetNotice } from '../../../shared/contract';
import type { ForgetResult, MemoryForget } from '../memory/memory-forget';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { detectForgetRequest } from '../text/forget-request';

/** What the model is told a forget did (for the system text, or forget_memory's tool message). */
export function forgetReport(request: string, result: ForgetResult): string {
  const data = (lines: string[]) => `${DATA_NOT_INSTRUCTIONS}\n${fenced([`asked to forget: ${request}`, ...lines].join('\n'))}`;
  if (result.trashed.length > 0) {
    return (
      'Mnemo has just moved what the user asked to forget to its trash: you will not be told it again. ' +
      'Confirm briefly, in the user’s language, that it is forgotten; the user sees an Undo button under your answer.\n' +
      data(result.trashed.map((m) => `forgotten: ${m.content}`))
    );
  }
  if (result.candidates.length > 0) {
    return (
      'Several memories match what the user asked to forget, and none is forgotten yet: the user is shown them under ' +
      'your answer to tick the ones to forget. Say so briefly, in the user’s language.\n' +
      data(result.candidates.map((m) => `matches: ${m.content}`))
    );
  }
  return 'No memory matches what the user asked to forget, so nothing was deleted. Say so briefly, in the user’s language.\n' + data([]);
}

/** The notice the chat shows for a forget. */
export function forgetNotice(via: ForgetNotice['via'], request: string, result: ForgetResult): ForgetNotice {
  return { via, request, trashed: result.trashed.map((m) => m.id), candidates: result.candidates.map((m) => m.id) };
}

/**
 * The user's message, when it asks to forget: the forget done, its notice and what the model is told; else null.
 * Throws what the search throws: the answer then fails with that error, so the user never believes a forget that did
 * not happen.
 */
export async function forgetAskedIn(forget: MemoryForget, message: { id: number; content: string }): Promise<{ notice: ForgetNotice; note: string } | null> {
  const request = detectForgetRequest(message.content);
  if (!request) return null;
  const result = await forget.forget(request.subject, message.id);
  return { notice: forgetNotice('message', request.subject, result), note: forgetReport(request.subject, result) };
}
