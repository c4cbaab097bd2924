/**
 * One model slot, as a laptop runs a local model: Ollama with OLLAMA_NUM_PARALLEL=1 serves one inference request at a
 * time, first come first served, and a request costs model time in proportion to its tokens: the prompt is read in
 * batches (llama.cpp's n_batch, 512 by default), then the reply is written one token at a time. Waiting for the slot
 * costs no model time.
 *
 * A client that goes away is noticed where llama.cpp notices it: between two prompt batches or two output tokens (the
 * runner checks for a cancelled request once per decode step), so a cancelled request keeps the slot until the end
 * of the batch or token in progress. A request cancelled while waiting never takes the slot.
 *
 * Time can run faster than on the modelled laptop (timeScale 10: ten times faster). Timestamps in `log` are
 * performance.now() milliseconds of this process, i.e. scaled (wall clock); multiply a difference by timeScale for the
 * laptop's "real" seconds. Steps are scheduled against the clock from where the step began (not slept one after the
 * other), so a late timer on a loaded machine does not add up over hundreds of tokens.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestPurpose } from '../support/request-kind';

export interface ModelSlotOptions {
  /** Prompt reading speed on the modelled machine (CPU laptop ~60, modest GPU ~300). */
  promptTokensPerSecond: number;
  /** Output speed on the modelled machine (CPU laptop ~10, modest GPU ~20). */
  outputTokensPerSecond: number;
  /** Prompt tokens read per step; a cancellation is seen between two steps. Default 512 (llama.cpp's n_batch). */
  batchTokens?: number;
  /** How much faster than the modelled machine time runs. Default 1 (real time); 10 = ten times faster. */
  timeScale?: number;
}

/** One inference request as the slot saw it. Times: performance.now() ms (scaled, see the file comment). */
export interface SlotRecord {
  path: string;
  /** The request body as sent. */
  body: Record<string, unknown>;
  /** Which job sent it (its purpose header). */
  purpose: RequestPurpose | null;
  arrivedAt: number;
  /** When it took the slot; null if its client went away while it waited. */
  startedAt: number | null;
  /** When it gave the slot back (or, never started, when its client went away). */
  endedAt: number | null;
  /** Its client went away before the reply was complete (or a fault broke the reply). */
  cancelled: boolean;
  /** When the fake saw its client go away; null if it never did. */
  goneAt: number | null;
  promptTokens: number;
  /** Prompt tokens read before it finished or was cancelled. */
  promptTokensRead: number;
  /** Tokens written (thinking and answer). */
  outputTokens: number;
  /** 'stop', 'length' (num_predict reached), or null while running or when cancelled. */
  doneReason: string | null;
}

/** A request holding the slot. end() gives it back (idempotent, and safe to call from a `finally`). */
export interface SlotTurn {
  readonly record: SlotRecord;
  /** Reads the prompt batch by batch; false when the client went away (the slot is then given back). */
  readPrompt(): Promise<boolean>;
  /** Writes `tokens` more output tokens, one by one; false when the client went away (the slot is then given back). */
  write(tokens: number): Promise<boolean>;
  /** Model time so far in the modelled machine's nanoseconds, as Ollama reports durations. */
  durationsNs(): { promptEval: number; eval: number; total: number };
  end(doneReason?: string): void;
}

export interface ModelSlot {
  /** Every inference request in arrival order (live array). */
  readonly log: SlotRecord[];
  /** Queues the request; resolves with its turn once it holds the slot, or null if its client went away first. */
  enter(res: ServerResponse, entry: Pick<SlotRecord, 'path' | 'body' | 'purpose' | 'promptTokens'>): Promise<SlotTurn | null>;
}

export function createModelSlot(options: ModelSlotOptions): ModelSlot {
  const batchTokens = options.batchTokens ?? 512;
  const timeScale = options.timeScale ?? 1;
  const msPerPromptToken = 1000 / options.promptTokensPerSecond / timeScale;
  const msPerOutputToken = 1000 / options.outputTokensPerSecond / timeScale;
  const log: SlotRecord[] = [];
  const waiting: Array<() => void> = [];
  let busy = false;

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  }

  async function enter(res: ServerResponse, entry: Pick<SlotRecord, 'path' | 'body' | 'purpose' | 'promptTokens'>): Promise<SlotTurn | null> {
    const record: SlotRecord = {
      ...entry,
      arrivedAt: performance.now(),
      startedAt: null,
      endedAt: null,
      cancelled: false,
      goneAt: null,
      promptTokensRead: 0,
      outputTokens: 0,
      doneReason: null,
    };
    log.push(record);
    // 'close' also fires after a response that ended normally; only an unfinished one means the client left.
    let gone = res.destroyed;
    if (gone) record.goneAt = record.arrivedAt;
    let leaveQueue: (() => void) | null = null;
    res.once('close', () => {
      if (res.writableFinished) return;
      gone = true;
      record.goneAt = performance.now();
      leaveQueue?.();
    });

    if (busy) {
      const admitted = await new Promise<boolean>((resolve) => {
        const take = () => resolve(true);
        waiting.push(take);
        leaveQueue = () => {
          // Already admitted (release() ran, the continuation has not yet): the turn sees `gone` at its first step.
          const at = waiting.indexOf(take);
          if (at < 0) return;
          waiting.splice(at, 1);
          resolve(false);
        };
        if (gone) leaveQueue();
      });
      leaveQueue = null;
      if (!admitted) {
        record.cancelled = true;
        record.endedAt = performance.now();
        return null;
      }
    } else {
      if (gone) {
        record.cancelled = true;
        record.endedAt = record.arrivedAt;
        return null;
      }
      busy = true;
    }

    const startedAt = performance.now();
    record.startedAt = startedAt;
    let promptDone = startedAt;
    let writeStart = 0;
    let ended = false;
    const end = (doneReason?: string) => {
      if (ended) return;
      ended = true;
      record.endedAt = performance.now();
      if (doneReason) record.doneReason = doneReason;
      else record.cancelled = true;
      release();
    };
    const stillThere = () => {
      if (gone) end();
      return !gone;
    };
    // Durations as this process lived them (wall clock), like every other time the core sees here: a core that
    // measures the server's speed from them then plans in the same clock as its own timers.
    const toNs = (ms: number) => Math.round(ms * 1_000_000);

    return {
      record,
      async readPrompt() {
        while (record.promptTokensRead < record.promptTokens) {
          record.promptTokensRead = Math.min(record.promptTokens, record.promptTokensRead + batchTokens);
          await sleepUntil(startedAt + record.promptTokensRead * msPerPromptToken);
          if (!stillThere()) return false;
        }
        promptDone = performance.now();
        return true;
      },
      async write(tokens) {
        writeStart ||= performance.now();
        for (let i = 0; i < tokens; i++) {
          record.outputTokens++;
          await sleepUntil(writeStart + record.outputTokens * msPerOutputToken);
          if (!stillThere()) return false;
        }
        return true;
      },
      durationsNs() {
        const now = record.endedAt ?? performance.now();
        return {
          promptEval: toNs(promptDone - startedAt),
          eval: toNs(writeStart ? now - writeStart : 0),
          // As Ollama's total_duration: from the request's arrival, so it includes the wait for the slot.
          total: toNs(now - record.arrivedAt),
        };
      },
      end,
    };
  }

  return { log, enter };
}

async function sleepUntil(at: number): Promise<void> {
  await sleep(Math.max(0, at - performance.now()));
}

// Han, kana, Hangul, CJK punctuation and full-width forms: one token each.
const CJK = '\\u1100-\\u11ff\\u3001-\\u33ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef';
const TOKEN_PIECE = new RegExp(`[${CJK}]|[^${CJK}]{1,4}`, 'gu');

/**
 * The fake model's tokenizer: one token per CJK character, one per 4 other characters (spaces included), the
 * averages of the byte-level BPE vocabularies small local models use (Llama 3, Qwen). Deliberately not the core's
 * estimate (electron/core/text/token-estimate.ts): the fake stands for the model, whose count the core only guesses.
 * The pieces join back to the text; the model's token count of a text is the number of its pieces.
 */
export function tokenPieces(text: string): string[] {
  return text.match(TOKEN_PIECE) ?? [];
}

export function countTokens(text: string): number {
  return tokenPieces(text).length;
}
