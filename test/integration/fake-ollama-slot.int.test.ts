/**
 * The fake Ollama's one-slot mode (test/fakes/fake-model-slot.ts), which the model-lane benchmark measures against:
 * one request at a time in arrival order, a client that goes away frees the slot at the next prompt batch or output
 * token, num_predict cuts the reply. Assertions are on order and on token counts, never on how long a step took: time
 * runs 20x faster than the modelled laptop, and a loaded machine only makes the fake's timers late.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama, type SlotRecord } from '../fakes/fake-ollama';
import { tokenPieces } from '../fakes/fake-model-slot';
import { until } from '../support/until';

const SPEED = { promptTokensPerSecond: 60, outputTokensPerSecond: 10, timeScale: 20 };
/** Wall-clock ms one token costs at SPEED. */
const PROMPT_TOKEN_MS = 1000 / SPEED.promptTokensPerSecond / SPEED.timeScale;
const OUTPUT_TOKEN_MS = 1000 / SPEED.outputTokensPerSecond / SPEED.timeScale;

/** A reply of exactly `tokens` model tokens (4 characters each). */
const replyOf = (tokens: number) => ({ content: 'abc '.repeat(tokens) });

let fake: FakeOllama | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function start(batchTokens?: number): Promise<FakeOllama> {
  fake = await startFakeOllama({ slot: { ...SPEED, ...(batchTokens ? { batchTokens } : {}) } });
  return fake;
}

interface Answer {
  lines: Array<Record<string, unknown>>;
  content: string;
  last: Record<string, unknown>;
}

/** A streamed /api/chat request, read to its end; `signal` aborts it as a closed app or a cancelled job does. */
async function chat(url: string, content: string, opts: { signal?: AbortSignal; numPredict?: number; onLine?: () => void } = {}): Promise<Answer> {
  const res = await fetch(`${url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({
      model: 'llama3.2',
      messages: [{ role: 'user', content }],
      ...(opts.numPredict === undefined ? {} : { options: { num_predict: opts.numPredict } }),
    }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const parts = (partial + Buffer.from(chunk).toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts.filter(Boolean)) {
      lines.push(JSON.parse(part) as Record<string, unknown>);
      opts.onLine?.();
    }
  }
  const text = lines.map((l) => (l.message as { content?: string } | undefined)?.content ?? '').join('');
  return { lines, content: text, last: lines.at(-1) ?? {} };
}

/** Aborts a request; the promise of its answer then rejects, which is what we want. */
function aborted(answer: Promise<Answer>): Promise<void> {
  return answer.then(
    () => {
      throw new Error('the aborted request answered');
    },
    () => undefined,
  );
}

/**
 * Sends a second request and, once it waits behind the running `first`, makes `first`'s client go away; resolves with
 * both records when both are over.
 */
async function leaveWithOneWaiting(f: FakeOllama, first: Promise<Answer>, stop: AbortController): Promise<[SlotRecord, SlotRecord]> {
  const next = chat(f.url, 'my turn');
  await until(() => f.slotLog.length === 2);
  stop.abort();
  await aborted(first);
  await next;
  return f.slotLog as [SlotRecord, SlotRecord];
}

describe('fake Ollama, one-slot mode', () => {
  it('serves two concurrent requests one after the other, counting model tokens and model time', async () => {
    const f = await start();
    f.script(replyOf(30), replyOf(30));
    const [a, b] = await Promise.all([chat(f.url, 'first question'), chat(f.url, 'second question')]);
    const [first, second] = f.slotLog as [SlotRecord, SlotRecord];

    expect(second.startedAt).toBeGreaterThanOrEqual(first.endedAt!);
    expect(second.arrivedAt).toBeLessThan(first.endedAt!); // it did wait
    for (const [answer, record] of [[a, first], [b, second]] as const) {
      expect(answer.content).toBe('abc '.repeat(30));
      expect(record).toMatchObject({ cancelled: false, goneAt: null, outputTokens: 30, doneReason: 'stop' });
      // "first question" is 4 tokens of the fake's tokenizer, plus the template's 4 around the message.
      expect(record.promptTokens).toBe(8);
      expect(answer.last).toMatchObject({ done: true, done_reason: 'stop', prompt_eval_count: 8, eval_count: 30 });
      // Durations are wall-clock, as this process lived them: 30 tokens at 10/s is at least 3 s of the laptop's time,
      // i.e. 3 s / timeScale here (a slow machine only adds to it).
      expect(answer.last.eval_duration as number).toBeGreaterThanOrEqual((2.9e9 / SPEED.timeScale) | 0);
    }
    // The second one's total_duration includes its wait, as Ollama's does.
    expect(b.last.total_duration as number).toBeGreaterThan((a.last.eval_duration as number) + (b.last.eval_duration as number));
  });

  it('never starts a request whose client went away while it waited', async () => {
    const f = await start();
    f.script(replyOf(100), replyOf(1), replyOf(1));
    const long = chat(f.url, 'long');
    await until(() => f.slotLog[0]?.startedAt != null);
    const leaving = new AbortController();
    const waiting = chat(f.url, 'I will leave', { signal: leaving.signal });
    await until(() => f.slotLog.length === 2);
    leaving.abort();
    await aborted(waiting);
    await Promise.all([long, chat(f.url, 'after')]);

    const [first, gone, after] = f.slotLog as [SlotRecord, SlotRecord, SlotRecord];
    expect(gone).toMatchObject({ startedAt: null, cancelled: true, promptTokensRead: 0, outputTokens: 0 });
    expect(first.cancelled).toBe(false);
    expect(after.startedAt).toBeGreaterThanOrEqual(first.endedAt!);
  });

  it('frees the slot at the next output token when the client goes away mid-reply', async () => {
    const f = await start();
    const total = 2_000; // 200 s on the modelled laptop, 10 s here: far longer than the test waits
    f.script(replyOf(total), replyOf(1));
    const stop = new AbortController();
    let lines = 0;
    const long = chat(f.url, 'tell me everything', { signal: stop.signal, onLine: () => void lines++ });
    await until(() => lines >= 3);
    const [cut, second] = await leaveWithOneWaiting(f, long, stop);
    expect(cut.cancelled).toBe(true);
    expect(cut.doneReason).toBeNull();
    expect(cut.outputTokens).toBeLessThan(total);
    // At most the token in progress when the fake saw the client go is written after it.
    const dueAtGone = Math.ceil((cut.goneAt! - cut.startedAt!) / OUTPUT_TOKEN_MS);
    expect(cut.outputTokens).toBeLessThanOrEqual(dueAtGone + 1);
    expect(second.startedAt).toBeGreaterThanOrEqual(cut.endedAt!);
    expect(second.startedAt!).toBeLessThan(cut.startedAt! + total * OUTPUT_TOKEN_MS);
  });

  it('reads the prompt in batches and stops within one batch when the client goes away', async () => {
    const batchTokens = 64; // 1 s of the modelled laptop, 53 ms here
    const f = await start(batchTokens);
    f.script(replyOf(5), replyOf(1));
    const prompt = 'word '.repeat(5_000); // 6,250 tokens: 104 s on the laptop, 5 s here
    const stop = new AbortController();
    const long = chat(f.url, prompt, { signal: stop.signal });
    await until(() => (f.slotLog[0]?.promptTokensRead ?? 0) >= 3 * batchTokens);
    const [cut, second] = await leaveWithOneWaiting(f, long, stop);
    expect(cut).toMatchObject({ cancelled: true, outputTokens: 0 });
    expect(cut.promptTokensRead % batchTokens).toBe(0);
    expect(cut.promptTokensRead).toBeLessThan(cut.promptTokens);
    // The batch in progress when the fake saw the client go is the last one read.
    const dueAtGone = Math.ceil((cut.goneAt! - cut.startedAt!) / PROMPT_TOKEN_MS);
    expect(cut.promptTokensRead).toBeLessThanOrEqual(dueAtGone + batchTokens);
    expect(second.startedAt).toBeGreaterThanOrEqual(cut.endedAt!);
    expect(second.startedAt!).toBeLessThan(cut.startedAt! + cut.promptTokens * PROMPT_TOKEN_MS);
  });

  it('cuts the reply at num_predict with done_reason "length"', async () => {
    const f = await start();
    f.script(replyOf(40));
    const answer = await chat(f.url, 'a short one please', { numPredict: 5 });
    expect(answer.content).toBe('abc '.repeat(5));
    expect(answer.last).toMatchObject({ done_reason: 'length', eval_count: 5 });
    expect(f.slotLog[0]).toMatchObject({ outputTokens: 5, doneReason: 'length', cancelled: false });
  });

  it('counts one token per CJK character and one per four other characters, and the pieces join back', () => {
    const text = '我下周三要去上海出差。Meeting at 9am, bring the slides!';
    const pieces = tokenPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(tokenPieces('我下周三要去上海出差。')).toHaveLength(11);
    expect(tokenPieces('abcdefgh')).toEqual(['abcd', 'efgh']);
  });
});
