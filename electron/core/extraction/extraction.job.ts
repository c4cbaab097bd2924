/**
 * The extraction worker's job: one exchange in, at most a few memories out; or, when several exchanges of a thread
 * wait together (the user chatted faster than the model learns), up to EXTRACTION_BATCH of them in one request, each
 * fact committed as the exchange's whose words ground it. A straight line:
 * load the exchanges (content only, never thinking) -> skip trivial / incognito / memory off / a request to forget
 * (text/forget-request.ts) -> LLM with a JSON schema
 * -> parse and validate (invalid items dropped with a reason; a wholly invalid answer is a retryable failure) ->
 * embed (outside any transaction) -> ONE commit: what the trash holds is not learned again (memory-forget.ts), dedup (exact hash: confirmed; the same single-valued fact in other words
 * or a near duplicate: merge), supersede what it contradicts (the model's `replaces`, or another value of the same
 * single-valued fact: fact-slot.ts), review inbox for "ask first" and instruction-like candidates, create the rest
 * with provenance -> events after commit.
 *
 * A memory is confirmed once per time the user said it: an exact duplicate from the message it was learned, confirmed
 * or merged from, or from another version of that message (an edit of it, another answer to it: regenerate learns
 * the same words again; message-branches.ts), changes nothing, so the timeline and the memory's history hold one
 * "confirmed" per message the user actually wrote again.
 *
 * The user's words are the typed message and, only when the user ticked "Learn from this file" for them, the
 * message's attached files (learned-files.ts): facts grounded in such a file are learned like facts the user typed.
 *
 * Invariants: never lose, duplicate or invent a memory whatever the LLM or the process does. The commit runs inside
 * the queue's fenced transaction, so a cancelled or re-claimed job writes nothing; dedup reads happen inside it too,
 * so two jobs can never both create the same memory.
 */
import type { Memory, Settings } from '../../../shared/contract';
import type { EventBus } from '../runtime/event-bus';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import { contentHash } from '../memory/content-hash';
import { mergedWording } from '../text/learned-wording';
import type { MemoryService } from '../memory/memory.service';
import type { MemoryWrites, PreparedEmbedding } from '../memory/memory-writer';
import type { Logger } from '../ports/logger.port';
import { userTimeZone } from '../../../shared/time-zone';
import { closingQuestion, readsAsAnswer } from './answered-question';
import { buildExtractionRequest, EXTRACTION_BATCH } from './extract-prompt';
import { parseBatchExtraction, parseExtraction, type Candidate, type ExtractionResult } from './extract-parse';
import { candidateSlots, factSlots, sameValue, slotCues } from './fact-slot';
import { isTrivial } from '../text/small-talk';
import { attachmentsOf, type MessagesStore } from '../conversation/messages.store';
import { learnedFiles } from '../memory/learned-files';
import { detectForgetRequest } from '../text/forget-request';
import { repeatsTrashed } from '../memory/memory-forget';

export const LEARNED_NOTIFICATION_IMPORTANCE = 0.8;
/** Known memories shown to the extractor so it can mark contradictions. */
export const RELATED_MEMORIES = 5;
/** Active memories read at most per candidate when looking for the same single-valued fact (fact-slot.ts), newest first. */
export const SLOT_LOOKUP_LIMIT = 200;
/** Trashed memories read at most per candidate when looking for one that already says it, newest first. */
export const TRASH_LOOKUP_LIMIT = 50;

interface Exchange {
  threadId: number;
  incognito: boolean;
  user: { id: number; content: string; createdAt: number; files: Array<{ name: string; text: string }> };
  /** The assistant message the user's message follows, and the question it closed with (answered-question.ts). */
  before: { id: number; asked: string | null } | null;
}

export interface ExtractionOutcome {
  created: Memory[];
  updated: Memory[];
  review: Memory[];
  dropped: number;
}

export function createExtractionJob(deps: {
  messages: Pick<MessagesStore, 'userTurn'>;
  events: EventBus;
  logger: Logger;
  model: BackgroundModel;
  settings: () => Settings;
  /** Writes go through the memory writer's narrow interface (memory-writer.ts); lookups and vectors through the service. */
  memories: MemoryWrites & Pick<MemoryService, 'related' | 'prepareEmbeddings' | 'findByHash' | 'getMemory' | 'heardFrom' | 'withAnyWord' | 'nearest'>;
}): JobHandler {
  const { events, memories } = deps;

  function loadExchange(userMessageId: number, assistantMessageId: number): Exchange | null {
    // The reply is not read (extract-prompt.ts), but an exchange whose reply is gone is not learned from (null).
    const user = deps.messages.userTurn(userMessageId, assistantMessageId);
    if (!user) return null;
    return {
      threadId: user.thread_id,
      incognito: user.incognito === 1,
      user: { id: user.id, content: user.content, createdAt: user.created_at, files: learnedFiles(attachmentsOf(user.attachments)).map(({ name, text }) => ({ name, text })) },
      before: user.before_id === null ? null : { id: user.before_id, asked: closingQuestion(user.before_content ?? '') },
    };
  }

  /** What the user's words of an exchange are: the typed text and the files they let Mnemo learn from. */
  function learnable(exchange: Exchange | null, settings: Settings): exchange is Exchange {
    if (!exchange || exchange.incognito || settings.memoryMode === 'off') return false;
    // "Forget that I live in Berlin" is a request, never a fact (text/forget-request.ts).
    if (detectForgetRequest(exchange.user.content)) return false;
    // "Here are my notes" with a file to learn from is not small talk: the file is counted with the typed words.
    // A one-word answer to the assistant's question is not: "Rex" after "What is your dog called?".
    const answering = Boolean(exchange.before?.asked) && readsAsAnswer(exchange.user.content);
    return !isTrivial([exchange.user.content, ...exchange.user.files.map((f) => f.text.slice(0, 2_000))].join('\n'), answering);
  }

  return {
    kind: 'extract',
    usesModel: true,
    // The exchanges of a thread that wait together are learned in one request (extract-prompt.ts, EXTRACTION_BATCH):
    // the instructions, most of the request, are read once for all of them. In the thread the user is chatting in,
    // learning waits until a batch's worth waits, the user pauses for twice their usual pause, or goes to another
    // thread, at any speed of the model: meanwhile that thread's prompt carries the messages word for word, and
    // memories serve other threads and later (issue 25: 3.5 instead of 4.2 model seconds per exchange on a GPU laptop).
    // A thread's first exchange is learned at once on a machine that keeps up: the user sees what Mnemo learns.
    batch: EXTRACTION_BATCH,
    patience: EXTRACTION_BATCH,
    patienceAtAnySpeed: true,
    firstAtOnce: true,
    async run({ batch, signal }) {
      const settings = deps.settings();
      // An exchange deleted meanwhile (the cascade also removes its job; the fence then discards its part), incognito,
      // small talk, or memory switched off: nothing to learn from it, and no model call for it.
      const exchanges = batch
        .map((job) => ({ jobId: job.id, exchange: loadExchange(Number(job.payload.userMessageId), Number(job.payload.assistantMessageId)) }))
        .filter((x): x is { jobId: number; exchange: Exchange } => learnable(x.exchange, settings));
      const [first, ...more] = exchanges.map((x) => x.exchange);
      if (!first) return null;

      // What is already remembered on the subject, so the model can say a new fact replaces an old one.
      // A message is a sentence: any of its rare words may name the subject (a search-box AND of every word would
      // find nothing without semantic search).
      const subject = exchanges.map((x) => x.exchange.user.content).join('\n').slice(0, 500 * exchanges.length);
      const related = await memories.related(subject, RELATED_MEMORIES);
      const known = related.map((m) => ({ id: m.id, content: m.content }));
      // Dates the model is told and reads back ("today", "下周五") are the user's calendar days.
      const timeZone = userTimeZone(settings.timeZone);
      // The question each user message answers (the replies themselves are not read: extract-prompt.ts).
      const asked = exchanges.map((x) => x.exchange.before?.asked ?? null);
      const request = buildExtractionRequest({
        asked: asked[0],
        userText: first.user.content,
        messageDate: first.user.createdAt,
        timeZone,
        known,
        contextWindow: await deps.model.contextWindow(),
        files: first.user.files,
        more: more.map((e, i) => ({ asked: asked[i + 1], userText: e.user.content, files: e.user.files })),
      });
      // A model that never closed <think> put the JSON inside it: the gateway hands that reasoning back behind a
      // <think> tag, and the parser takes the last list in it.
      const { text: answer } = await deps.model.ask({ purpose: 'extract', messages: request.messages, format: request.format, answerTokens: request.answerTokens, signal });
      // Throws LLM_BAD_OUTPUT (retryable) when nothing in the answer is usable; drops invalid items with a reason.
      // Evidence must come from the user's words as the model saw them: the typed text and the learned files as cut.
      const knownIds = new Set(known.map((k) => k.id));
      const contexts = exchanges.map((x, i) => ({ userText: request.exchangeWords[i]!, messageDate: x.exchange.user.createdAt, timeZone, knownIds, asked: asked[i] }));
      const parsed = contexts.length === 1 ? oneExchange(parseExtraction(answer, contexts[0]!)) : parseBatchExtraction(answer, contexts);
      const all = parsed.perExchange.flat();
      const vectors = all.length > 0 ? await memories.prepareEmbeddings(all.map((c) => c.content), signal) : null;
      let offset = 0;
      const embeddings = parsed.perExchange.map((candidates) => {
        const part = vectors ? vectors.slice(offset, offset + candidates.length) : null;
        offset += candidates.length;
        return part;
      });

      return (tx, held) => {
        exchanges.forEach(({ jobId, exchange }, i) => {
          // Its job was cancelled, or its exchange deleted, while the model worked: nothing of it is written.
          if (!held.has(jobId)) return;
          const outcome = commitCandidates(exchange, parsed.perExchange[i]!, embeddings[i]!, settings);
          if (i === 0) outcome.dropped += parsed.dropped.length;
          tx.afterCommit(() => emitOutcome(exchange, outcome));
        });
        if (parsed.dropped.length > 0) deps.logger.info('extractor dropped items', { jobs: exchanges.map((x) => x.jobId), reasons: parsed.dropped.map((d) => d.reason) });
      };
    },
  };

  function commitCandidates(exchange: Exchange, candidates: Candidate[], embeddings: PreparedEmbedding[] | null, settings: Settings): ExtractionOutcome {
    const outcome: ExtractionOutcome = { created: [], updated: [], review: [], dropped: 0 };
    const provenance = { sourceThreadId: exchange.threadId, sourceMessageId: exchange.user.id };
    /**
     * A new memory from a candidate: active, or waiting in the review inbox ('proposed' on the timeline). The
     * 'proposed' event records why (the candidate's flag: review.service.ts shows it) and what it would replace.
     */
    const create = (candidate: Candidate, embedding: PreparedEmbedding | null, importance: number, needsReview: boolean, replaces: number[] = []) => {
      // `replaces` is the one the inbox shows; `alsoReplaces` the rest (rare: a store from before the slot rule, where
      // two values of one fact could both be active). Approval supersedes them all.
      const eventData = {
        ...(candidate.flag !== null ? { flag: candidate.flag, flagReason: candidate.flagReason } : {}),
        ...(replaces.length > 0 ? { replaces: replaces[0] } : {}),
        ...(replaces.length > 1 ? { alsoReplaces: replaces.slice(1) } : {}),
      };
      return memories.createMemory(
        { content: candidate.content, category: candidate.category, importance, confidence: candidate.confidence, expiresAt: candidate.expiresAt },
        {
          origin: 'extraction',
          status: needsReview ? 'review' : 'active',
          ...provenance,
          evidence: candidate.evidence,
          embedding,
          eventKind: needsReview ? 'proposed' : 'learned',
          ...(needsReview && Object.keys(eventData).length > 0 ? { eventData } : {}),
        },
      );
    };
    const supersede = (old: Memory, by: number) =>
      memories.updateMemory(old.id, { status: 'superseded', supersededBy: by }, { origin: 'extraction', reason: 'superseded', eventKind: 'superseded', eventData: { by } });
    /** A duplicate in other words: the wording the merge rule keeps (learned-wording.ts) survives in the existing memory. */
    const mergeInto = (target: Memory, candidate: Candidate, embedding: PreparedEmbedding | null, why: Record<string, unknown>) => {
      const content = mergedWording(target.content, candidate.content);
      return memories.updateMemory(
        target.id,
        {
          content,
          importance: Math.max(target.importance, candidate.importance),
          evidence: candidate.evidence,
          ...(candidate.expiresAt !== null ? { expiresAt: candidate.expiresAt } : {}),
        },
        {
          origin: 'extraction',
          reason: 'merged',
          eventKind: 'merged',
          touch: true,
          ...(content !== target.content && embedding ? { embedding } : {}),
          eventData: { messageId: exchange.user.id, ...why },
        },
      );
    };
    candidates.forEach((candidate, i) => {
      const embedding = embeddings?.[i] ?? null;
      const hash = contentHash(candidate.content);
      const sameText = memories.findByHash(hash);
      // Refused before, or deliberately deleted (forgotten on request too): never proposed again by the extractor, in
      // these words or in others (memory-forget.ts: a near duplicate by meaning, or nothing a trashed memory does not say).
      if (sameText.some((m) => m.status === 'rejected' || m.status === 'trashed') || repeatsTrash(candidate, embedding, settings)) {
        outcome.dropped++;
        return;
      }
      const exact = sameText.find((m) => m.status === 'active' || m.status === 'archived' || m.status === 'review');
      if (exact) {
        // The same words learned again from the same saying (header): nothing new to record.
        if (memories.heardFrom(exact.id, exchange.user.id)) return;
        outcome.updated.push(
          memories.updateMemory(
            exact.id,
            { importance: Math.max(exact.importance, candidate.importance) },
            { origin: 'extraction', reason: 'confirmed', eventKind: 'confirmed', touch: true, eventData: { messageId: exchange.user.id } },
          ),
        );
        return;
      }
      const needsReview = settings.memoryMode === 'ask' || candidate.flag !== null;
      // A contradiction ("moved to Berlin" after "lives in Lisbon"): the new memory supersedes the old, which stays in
      // history as superseded, never silently deleted. The old one is the model's `replaces`, and whatever active
      // memory holds the same single-valued fact with another value (fact-slot.ts), since small models leave
      // `replaces` out. Checked before near duplicates, which a contradiction would otherwise resemble.
      const slot = sameSlot(candidate, exchange.user.content);
      const modelReplaced = candidate.replaces !== null ? memories.getMemory(candidate.replaces) : null;
      const replaced = [...(modelReplaced?.status === 'active' ? [modelReplaced] : []), ...slot.differs.filter((m) => m.id !== modelReplaced?.id)];
      // The same fact said again in other words ("Moved to Porto" after "Lives in Porto"): a duplicate found by rule,
      // merged like a near duplicate; whatever it contradicts is superseded by the merged memory.
      const [same] = slot.same;
      if (same && candidate.flag === null) {
        // Learned from this saying already, in other words (another answer to the same message): nothing new.
        if (memories.heardFrom(same.id, exchange.user.id)) return;
        outcome.updated.push(mergeInto(same, candidate, embedding, { slot: slot.name }));
        if (!needsReview) for (const old of replaced.filter((m) => m.id !== same.id)) outcome.updated.push(supersede(old, same.id));
        return;
      }
      if (replaced.length > 0) {
        // Approving it later supersedes the old memories then (review.service.ts).
        const memory = create(candidate, embedding, Math.max(candidate.importance, ...replaced.map((m) => m.importance)), needsReview, replaced.map((m) => m.id));
        if (needsReview) {
          outcome.review.push(memory);
          return;
        }
        outcome.created.push(memory);
        for (const old of replaced) outcome.updated.push(supersede(old, memory.id));
        return;
      }
      // A flagged candidate never merges: the merge would put its words into an active memory, and so into every
      // prompt, without the review it was flagged for. It waits in review as a memory of its own.
      if (embedding && candidate.flag === null) {
        const [near] = memories.nearest(embedding.vector, {
          limit: 1,
          minSimilarity: settings.nearDuplicateSimilarity,
          categories: [candidate.category],
          statuses: ['active'],
        });
        if (near) {
          if (!memories.heardFrom(near.memory.id, exchange.user.id)) {
            outcome.updated.push(mergeInto(near.memory, candidate, embedding, { similarity: Math.round(near.similarity * 1000) / 1000 }));
          }
          return;
        }
      }
      const memory = create(candidate, embedding, candidate.importance, needsReview);
      (needsReview ? outcome.review : outcome.created).push(memory);
    });
    return outcome;
  }

  /** A candidate a trashed memory already says: by meaning (its vector), or by words (memory-forget.ts repeatsTrashed). */
  function repeatsTrash(candidate: Candidate, embedding: PreparedEmbedding | null, settings: Settings): boolean {
    const trashed = { statuses: ['trashed' as const] };
    if (embedding && memories.nearest(embedding.vector, { limit: 1, minSimilarity: settings.nearDuplicateSimilarity, ...trashed }).length > 0) return true;
    return memories.withAnyWord([candidate.content], { limit: TRASH_LOOKUP_LIMIT, ...trashed }).some((m) => repeatsTrashed(candidate.content, m.content));
  }

  /**
   * The active memories holding a single-valued fact the candidate states about the user (fact-slot.ts): with the same
   * value, newest first, or another. Only a memory whose every slot the candidate states too counts, so a memory that
   * also says something else ("Lives in Porto and works at Acme") is never replaced by half of it. Runs inside the
   * commit's transaction, so it sees the memories written by the job before.
   */
  function sameSlot(candidate: Candidate, userText: string): { name: string | null; same: Memory[]; differs: Memory[] } {
    const slots = candidateSlots(candidate.content, [candidate.evidence, userText]);
    const none = { name: null, same: [], differs: [] };
    if (slots.length === 0) return none;
    const same: Memory[] = [];
    const differs: Memory[] = [];
    const cues = [...new Set(slots.flatMap((s) => slotCues(s.slot)))];
    for (const memory of memories.withAnyWord(cues, { limit: SLOT_LOOKUP_LIMIT, statuses: ['active'], expired: false })) {
      const theirs = factSlots(memory.content);
      const shared = theirs.map((t) => ({ t, mine: slots.find((s) => s.slot === t.slot) }));
      if (theirs.length === 0 || shared.some((x) => !x.mine)) continue;
      if (shared.every((x) => sameValue(x.t, x.mine!))) same.push(memory);
      else differs.push(memory);
    }
    return { name: slots.map((s) => s.slot).join(','), same, differs };
  }

  function emitOutcome(exchange: Exchange, outcome: ExtractionOutcome): void {
    for (const memory of outcome.created) {
      events.emit('memory.created', { memory });
      if (memory.importance >= LEARNED_NOTIFICATION_IMPORTANCE) events.emit('memory.learned', { memory });
    }
    for (const memory of [...outcome.updated]) events.emit('memory.updated', { memory });
    for (const memory of outcome.review) events.emit('memory.created', { memory });
    events.emit('extraction.completed', {
      threadId: exchange.threadId,
      userMessageId: exchange.user.id,
      created: outcome.created.map((m) => m.id),
      updated: outcome.updated.map((m) => m.id),
      review: outcome.review.map((m) => m.id),
      dropped: outcome.dropped,
    });
  }
}

/** A one-exchange answer in the shape of a batch's. */
function oneExchange(result: ExtractionResult): { perExchange: Candidate[][]; dropped: ExtractionResult['dropped'] } {
  return { perExchange: [result.candidates], dropped: result.dropped };
}
