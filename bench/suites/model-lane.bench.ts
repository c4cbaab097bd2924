/**
 * One model, one lane (issue 25): a scripted user chats with a real core on a laptop whose one local model serves one
 * request at a time, while the core's background jobs (extract, focus, title, summary, ...) ask the same model.
 *
 * The laptop is the fake Ollama in its one-slot mode (test/fakes/fake-model-slot.ts): requests are served one at a
 * time in arrival order, the prompt read at the laptop's prompt speed in 512-token batches, the reply written token by
 * token, a cancelled request freed at its next batch or token. Two laptops: a CPU one (60 prompt / 10 output tokens per
 * second) and one with a modest GPU (300 / 20). Time runs `timeScale` times faster than on the laptop, for the user's
 * typing and reading, for the model, and for the model lane's grace windows (CoreOptions.laneTiming); every figure is
 * scaled back to the laptop's seconds. The core's other timers are wall-clock and not scaled: the profile's 5-minute
 * debounce and the episodes' 30 quiet minutes (so neither job runs within a session), the queue's retry backoff.
 *
 * The user (bench/fixtures/laptop-session.ts): 20 exchanges in four threads, half English, half Chinese. Per exchange
 * they type for a few seconds (the composer calls `chat.typing` every second), send with `chat.send` and wait for the
 * answer, then read it (20-40 s) before typing the next. The fake model answers every request from one script (a
 * function of the request), so both runs see the same answers:
 * - before: `chatFirst: false`, today's policy: background requests start whenever the queue has work;
 * - after: the default, chat first: the chat or typing holds background requests and stops a running one.
 *
 * Figures, from the fake's record of every request it served (its slot log):
 * - a chat request waited behind background work when a background request held the slot as it arrived; its wait is
 *   from its arrival to the moment it took the slot (over all chat requests: p50, p95, max);
 * - the background model work per exchange (prompt tokens read, output tokens written, model seconds, cancelled work
 *   included), and how many background requests were stopped for the chat;
 * - the drain: from the last answer until the queue is idle (core.queue.waitForIdle).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelUsage } from '../../shared/contract';
import { createClient, unwrap } from '../../shared/client';
import { createCore } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';
import { LANE_TIMING } from '../../electron/core/llm/model-lane';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { createBagOfWordsEmbedder } from '../../test/fakes/bag-of-words.embedder';
import { startFakeOllama, type FakeInferenceRequest, type FakeReply, type SlotRecord } from '../../test/fakes/fake-ollama';
import type { RequestPurpose } from '../../test/support/request-kind';
import { LAPTOP_SESSION, type ScriptedExchange, type ScriptedThread } from '../fixtures/laptop-session';
import { summarize, type SuiteResult } from '../harness';

interface Laptop {
  label: string;
  promptTokensPerSecond: number;
  outputTokensPerSecond: number;
}

const LAPTOPS: Laptop[] = [
  { label: 'CPU laptop: 60 prompt / 10 output tokens/s', promptTokensPerSecond: 60, outputTokensPerSecond: 10 },
  { label: 'GPU laptop: 300 prompt / 20 output tokens/s', promptTokensPerSecond: 300, outputTokensPerSecond: 20 },
];

type Policy = 'before' | 'after';

/** A queue that has not drained after this long (wall clock) is stuck: the run fails rather than hang. */
const DRAIN_LIMIT_MS = 10 * 60_000;

export interface ModelLaneBenchOptions {
  /** How many of the session's threads the user goes through (each has 5 exchanges). */
  threads: number;
  /** How much faster than the laptop time runs. */
  timeScale: number;
}

export async function modelLaneBench(options: ModelLaneBenchOptions): Promise<SuiteResult[]> {
  const threads = LAPTOP_SESSION.slice(0, options.threads);
  const results: SuiteResult[] = [];
  for (const laptop of LAPTOPS) {
    const runs = { before: await playSession(threads, laptop, 'before', options.timeScale), after: await playSession(threads, laptop, 'after', options.timeScale) };
    results.push(report(laptop, runs, options.timeScale));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// The session

interface SessionRun {
  exchanges: number;
  slotLog: SlotRecord[];
  /** From chat.send to its answer, in the laptop's seconds. */
  answerSeconds: number[];
  /** From the last answer until the queue was idle, in the laptop's seconds. */
  drainSeconds: number;
  usage: ModelUsage | null;
  dead: number;
  /** What the session left in memory (active memories' contents, sorted): both policies must learn the same. */
  learned: string[];
  /** The facts the session's user states (what a perfect run learns). */
  facts: number;
}

async function playSession(threads: ScriptedThread[], laptop: Laptop, policy: Policy, timeScale: number): Promise<SessionRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-lane-'));
  const fake = await startFakeOllama({ slot: { promptTokensPerSecond: laptop.promptTokensPerSecond, outputTokensPerSecond: laptop.outputTokensPerSecond, timeScale } });
  fake.setDefaultReply(laptopModel(threads));
  const core = createCore({
    dataDir: path.join(dir, 'data'),
    host: 'test',
    llm: (host) => createOllamaLlm({ host }),
    env: { OLLAMA_HOST: fake.url },
    embedder: createBagOfWordsEmbedder({ dimensions: 64 }),
    dailyTasks: false,
    chatFirst: policy === 'after',
    laneTiming: {
      typingGraceMs: LANE_TIMING.typingGraceMs / timeScale,
      afterChatGraceMs: LANE_TIMING.afterChatGraceMs / timeScale,
      pollMs: Math.max(5, LANE_TIMING.pollMs / timeScale),
      assumedPauseMs: LANE_TIMING.assumedPauseMs / timeScale,
    },
  });
  const client = createClient(createInProcessTransport(core));
  /** Waits `seconds` of the laptop's time. */
  const laptopTime = (seconds: number) => sleep((seconds * 1000) / timeScale);
  const answerSeconds: number[] = [];
  try {
    const exchanges = threads.flatMap((t) => t.exchanges);
    let lastAnswerAt = 0;
    for (const thread of threads) {
      let threadId: number | undefined;
      for (const exchange of thread.exchanges) {
        for (let s = 0; s < typingSeconds(exchange.text, thread.language); s++) {
          unwrap(await client.call('chat.typing', {}));
          await laptopTime(1);
        }
        const sentAt = performance.now();
        const sent = unwrap(await client.call('chat.send', { text: exchange.text, ...(threadId === undefined ? {} : { threadId }) }));
        lastAnswerAt = performance.now();
        answerSeconds.push(((lastAnswerAt - sentAt) * timeScale) / 1000);
        threadId = sent.threadId;
        if (exchange !== exchanges.at(-1)) await laptopTime(exchange.readSeconds);
      }
    }
    const drained = core.queue.waitForIdle().then(() => performance.now());
    const stuck = sleep(DRAIN_LIMIT_MS, null, { ref: false });
    const idleAt = await Promise.race([drained, stuck]);
    if (idleAt === null) throw new Error(`model-lane bench: the queue did not drain in ${DRAIN_LIMIT_MS / 1000} s (${JSON.stringify(core.queue.state())})`);
    const usage = await client.call('queue.usage', {});
    const learned = unwrap(await client.call('memory.list', { limit: 500 })).items.map((m) => m.content).sort();
    return {
      learned,
      facts: new Set(threads.flatMap((t) => t.exchanges.flatMap((e) => e.learn.map((f) => f.content)))).size,
      exchanges: exchanges.length,
      slotLog: [...fake.slotLog],
      answerSeconds,
      drainSeconds: ((idleAt - lastAnswerAt) * timeScale) / 1000,
      usage: usage.ok ? usage.value : null,
      dead: core.queue.state().dead,
    };
  } finally {
    await core.dispose();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** How long the user types a message, in the laptop's seconds: ~8 characters a second in English, 2 in Chinese (IME). */
function typingSeconds(text: string, language: ScriptedThread['language']): number {
  return Math.min(15, Math.max(3, Math.round(text.length / (language === 'zh' ? 2 : 8))));
}

// ---------------------------------------------------------------------------------------------------------------
// The laptop's model: what a small model would answer to each request of the session

function laptopModel(threads: ScriptedThread[]): (request: FakeInferenceRequest) => FakeReply {
  const exchanges = threads.flatMap((t) => t.exchanges);
  const threadOf = (prompt: string) => threads.find((t) => t.exchanges.some((e) => prompt.includes(e.text.slice(0, 16)))) ?? threads[0]!;
  const pretty = (value: unknown) => ({ content: JSON.stringify(value, null, 2) });
  return (request) => {
    const prompt = request.messages.map((m) => m.content).join('\n');
    const purpose = request.purpose ?? 'chat';
    if (purpose === 'chat') {
      const last = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      return { content: exchanges.find((e) => last.includes(e.text))?.reply ?? 'Sure, happy to help with that.' };
    }
    if (purpose === 'extract') {
      // The user's messages are JSON in the prompt (one, or a stretch of them): their words appear as JSON strings, and
      // the model picks out the facts of every message it was shown, in the fields the prompt asks for.
      const shown = exchanges.filter((e) => prompt.includes(JSON.stringify(e.text)));
      return pretty({ memories: shown.flatMap((e) => e.learn).map((f) => ({ ...f, importance: 0.7, validity: 'permanent' })) });
    }
    const thread = threadOf(prompt);
    if (purpose === 'focus') return pretty({ focus: thread.focus, tasks: thread.tasks });
    if (purpose === 'title') return { content: thread.title };
    return { content: proseAbout(thread, purpose) };
  };
}

/** A summary, episode, profile or consolidated note of about 60-100 tokens, in the thread's language. */
function proseAbout(thread: ScriptedThread, purpose: RequestPurpose): string {
  const facts = thread.exchanges.flatMap((e: ScriptedExchange) => e.learn.map((f) => f.content));
  if (purpose === 'profile') return facts.map((f) => `- ${f}`).join('\n');
  if (thread.language === 'zh') return `用户正在${thread.focus}。${facts.join('；')}。待办：${thread.tasks.map((t) => t.text).join('；')}。`;
  return `The user is ${thread.focus.charAt(0).toLowerCase()}${thread.focus.slice(1)}. ${facts.join('. ')}. Open tasks: ${thread.tasks.map((t) => t.text).join('; ')}.`;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

function report(laptop: Laptop, runs: Record<Policy, SessionRun>, timeScale: number): SuiteResult {
  const seconds = (ms: number) => (ms * timeScale) / 1000;
  const rows: SuiteResult['rows'] = [];
  const notes: string[] = [];
  const missing = runs.before.learned.filter((m) => !runs.after.learned.includes(m));
  notes.push(missing.length === 0 ? 'learned: everything the old policy learned, the new one learned too' : `learned by the old policy only: ${missing.join('; ')}`);
  for (const policy of ['before', 'after'] as const) {
    const run = runs[policy];
    const chats = run.slotLog.filter((r) => r.purpose === 'chat');
    const background = run.slotLog.filter((r) => r.purpose !== 'chat');
    /** The background request that held the model when `chat` arrived, if any. */
    const holderOf = (chat: SlotRecord) =>
      background.find((b) => b.startedAt !== null && b.startedAt <= chat.arrivedAt && (b.endedAt ?? Infinity) > chat.arrivedAt);
    const holders = chats.map(holderOf).filter((b) => b !== undefined);
    const waits = summarize(chats.map((c) => seconds((c.startedAt ?? c.arrivedAt) - c.arrivedAt)));
    const maxWait = Math.max(0, ...chats.map((c) => seconds((c.startedAt ?? c.arrivedAt) - c.arrivedAt)));
    const answers = summarize(run.answerSeconds);
    const perExchange = (n: number) => (n / run.exchanges).toFixed(0);
    const modelSeconds = (records: SlotRecord[]) => records.reduce((s, r) => s + (r.startedAt === null ? 0 : seconds((r.endedAt ?? r.startedAt) - r.startedAt)), 0);
    const stopped = background.filter((r) => r.cancelled);
    rows.push({
      policy: policy === 'before' ? 'before: background whenever queued' : 'after: chat first',
      'chats waited': `${holders.length}/${chats.length}`,
      'wait p50 s': waits.p50.toFixed(1),
      'wait p95 s': waits.p95.toFixed(1),
      'wait max s': maxWait.toFixed(1),
      'answer p50/p95 s': `${answers.p50.toFixed(0)}/${answers.p95.toFixed(0)}`,
      'bg prompt tok/exch': perExchange(background.reduce((s, r) => s + r.promptTokensRead, 0)),
      'bg output tok/exch': perExchange(background.reduce((s, r) => s + r.outputTokens, 0)),
      'bg model s/exch': (modelSeconds(background) / run.exchanges).toFixed(1),
      'bg stopped': `${stopped.filter((r) => r.startedAt !== null).length} (+${stopped.filter((r) => r.startedAt === null).length} waiting)`,
      'drain s': run.drainSeconds.toFixed(0),
      learned: `${run.learned.length}/${run.facts}`,
    });
    if (holders.length > 0) {
      // A stopped request still holds the model until its batch or token is done: that is the wait "after" leaves.
      notes.push(`${policy}, chats waited behind: ${holders.map((b) => `${b.purpose}${b.cancelled ? ' (stopped, ending at its next batch or token)' : ''}`).join(', ')}`);
    }
    const purposes = [...new Set(background.map((r) => r.purpose))];
    notes.push(
      `${policy}, background model s/exchange by purpose: ${purposes
        .map((p) => {
          const records = background.filter((r) => r.purpose === p);
          return `${p} ${(modelSeconds(records) / run.exchanges).toFixed(1)} (${records.length} requests, ${records.filter((r) => r.cancelled).length} stopped)`;
        })
        .join(', ')}${run.dead > 0 ? `; ${run.dead} dead jobs` : ''}`,
    );
    if (run.usage) {
      const used = run.usage.purposes.filter((p) => p.requests > 0 || p.preempted > 0);
      notes.push(
        `${policy}, queue.usage: ${used.map((p) => `${p.purpose} ${p.requests} req, ${p.promptTokens}+${p.outputTokens} tok, ${((p.modelMs * timeScale) / 1000).toFixed(0)} s, ${p.preempted} preempted`).join('; ')}` +
          (run.usage.speed ? `; measured speed ${(run.usage.speed.promptPerSecond / timeScale).toFixed(0)}/${(run.usage.speed.outputPerSecond / timeScale).toFixed(1)} tok/s` : ''),
      );
    }
  }
  notes.push(
    `${runs.after.exchanges} exchanges (half English, half Chinese), typing 3-15 s with chat.typing every second, reading 20-40 s; time ${timeScale}x faster than the laptop, figures in the laptop's seconds`,
    "chats waited: a background request held the model when the chat request arrived; wait: arrival to start of the chat request, over all chat requests; answer: chat.send to its answer",
    'bg: background requests as the model served them, stopped ones included (their work is lost); stopped: by the chat mid-request (+ before they started); drain: last answer to an idle queue',
  );
  return { suite: `Model lane: chat beside background work on one local model (${laptop.label})`, rows, notes };
}
