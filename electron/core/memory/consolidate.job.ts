/**
 * Summarising one cluster of related memories into one, as a background job (queued by maintenance:
 * consolidation-step.ts). The background model writes the summary; consolidation-summary.ts reads and checks it.
 *
 * Invariants:
 * - Only the cluster maintenance saw: every memory still active, unexpired and at the version the payload names,
 *   checked before the model is asked and again inside the write transaction. Otherwise the job does nothing.
 * - A summary that is not grounded in the originals (adds or drops content, holds a secret) changes nothing; the
 *   refusal is logged with the job id and the reason, never the text.
 * - Applied (no memory pinned or the user's): the summary is a new active memory (origin maintenance, reason
 *   'consolidated', a 'consolidated' timeline event naming the originals), with the highest importance of the
 *   originals, their category, a vector and its FTS entry; each original becomes 'superseded' by it (a version and a
 *   'superseded' event each). All through the memory writer, in the transaction that completes the job (fenced: a
 *   job taken back by another runner writes nothing). memory.unconsolidate undoes it.
 * - A cluster holding a pinned memory or one of the user's (memory-cap.ts), or a summary that reads like an instruction
 *   to the assistant (instruction-detector.ts), is never applied: the summary goes to the
 *   review inbox (status 'review', a 'proposed' event with flag 'consolidation', `replaces`/`alsoReplaces` the
 *   originals), where approving supersedes them and rejecting leaves them (review.service.ts).
 * - Events (memory.created, memory.updated) leave after the commit.
 */
import type { Memory, Settings } from '../../../shared/contract';
import { MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';
import type { EventBus } from '../runtime/event-bus';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import type { Logger } from '../ports/logger.port';
import { looksLikeInstruction } from '../safety/instruction-detector';
import { estimateTokens } from '../text/token-estimate';
import { cleanSummary, consolidationPrompt, summaryGrounding, SUMMARY_MAX_TOKENS } from './consolidation-summary';
import type { MemoryCap } from './memory-cap';
import type { MemoryService } from './memory.service';
import type { MemoryUpkeepStore } from './memory-upkeep.store';

export interface ConsolidateJobDeps {
  upkeep: Pick<MemoryUpkeepStore, 'latestVersion'>;
  events: EventBus;
  logger: Logger;
  model: BackgroundModel;
  settings: () => Settings;
  memories: Pick<MemoryService, 'getMemory' | 'createMemory' | 'updateMemory' | 'prepareEmbeddings'>;
  cap: MemoryCap;
}

export function createConsolidateJob(deps: ConsolidateJobDeps): JobHandler {
  const { upkeep, events, logger, memories, cap } = deps;

  /** The cluster's memories as the payload names them, or null when one changed, went or expired since. */
  function unchanged(cluster: ReadonlyArray<{ id: number; version: number }>): Memory[] | null {
    const out: Memory[] = [];
    for (const { id, version } of cluster) {
      const memory = memories.getMemory(id);
      if (!memory || memory.status !== 'active' || memory.expired || upkeep.latestVersion(id) !== version) return null;
      out.push(memory);
    }
    return out;
  }

  return {
    kind: 'consolidate',
    usesModel: true,
    async run({ job, signal }) {
      const settings = deps.settings();
      if (!settings.consolidationEnabled) return null;
      const originals = unchanged(job.payload.memories);
      if (!originals) {
        logger.info('consolidation skipped: the cluster changed since maintenance found it', { job: job.id });
        return null;
      }
      const prompt = consolidationPrompt(originals);
      const room = (await deps.model.contextWindow()) - SUMMARY_MAX_TOKENS - MESSAGE_OVERHEAD_TOKENS;
      if (estimateTokens(prompt) > room) {
        logger.info('consolidation skipped: the cluster does not fit the background model’s window', { job: job.id, room });
        return null;
      }
      const { text } = await deps.model.ask({ purpose: 'consolidate', messages: [{ role: 'user', content: prompt }], answerTokens: SUMMARY_MAX_TOKENS, signal });
      const summary = cleanSummary(text);
      const problem = summaryGrounding(
        summary,
        originals.map((m) => m.content),
      );
      if (problem) {
        logger.info('consolidation refused the model’s summary; nothing changed', { job: job.id, problem });
        return null;
      }
      const [embedding] = (await memories.prepareEmbeddings([summary], signal)) ?? [null];

      return (tx) => {
        const current = unchanged(job.payload.memories);
        if (!current) {
          logger.info('consolidation skipped: the cluster changed while the model wrote', { job: job.id });
          return;
        }
        const ids = current.map((m) => m.id);
        // A summary that reads like an instruction (its originals learned before the detector knew the phrasing) would
        // put an order to the assistant into every prompt: the user decides, as for a learned one (issue 26 item 7).
        const review = current.some((m) => m.pinned) || cap.usersAmong(ids).size > 0 || looksLikeInstruction(summary) !== null;
        const facts = { from: ids, summarised: ids.length };
        const created = memories.createMemory(
          {
            content: summary,
            category: current[0]!.category,
            importance: Math.max(...current.map((m) => m.importance)),
            confidence: Math.min(...current.map((m) => m.confidence)),
            // It expires only when every original does, with the last of them.
            expiresAt: current.every((m) => m.expiresAt !== null) ? Math.max(...current.map((m) => m.expiresAt!)) : null,
          },
          review
            ? { origin: 'maintenance', status: 'review', reason: 'consolidated', eventKind: 'proposed', embedding, eventData: { ...facts, flag: 'consolidation', replaces: ids[0], alsoReplaces: ids.slice(1) } }
            : { origin: 'maintenance', reason: 'consolidated', eventKind: 'consolidated', embedding, eventData: facts },
        );
        const superseded = review
          ? []
          : current.map((m) =>
              memories.updateMemory(
                m.id,
                { status: 'superseded', supersededBy: created.id },
                { origin: 'maintenance', reason: 'consolidated', eventKind: 'superseded', eventData: { by: created.id, consolidated: ids.length } },
              ),
            );
        tx.afterCommit(() => {
          events.emit('memory.created', { memory: created });
          for (const memory of superseded) events.emit('memory.updated', { memory });
        });
      };
    },
  };
}
