/**
 * The model lane end to end, on real SQLite and the real Ollama adapter against the fake server: a chat stops a
 * background request that is running, its job goes back to the queue with its attempt returned, and the learning it
 * was doing lands once, neither lost nor doubled; a queue run in another process on the same data folder (a
 * terminal's `queue run`) obeys the app's chat the same way, through the lane's shared file; learning and the working
 * memory wait for a stretch of exchanges in the thread the user chats in, even on a model fast enough for each at once.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { LANE_TIMING } from '../../electron/core/llm/model-lane';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Core } from '../../electron/core/create-core';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { createTestClock } from '../support/memory-harness';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { until } from '../support/until';
import type { FakeOllama } from '../fakes/fake-ollama';

const harnesses = useChatHarnesses();

const FACT = { content: 'Keeps bees on the roof', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I keep bees on the roof' };
const answer = JSON.stringify({ memories: [FACT] });

/**
 * The background model answers extraction slowly the first time (a chunk every 150 ms: several seconds, ample time
 * for a chat to arrive while it streams), quickly after that; chat answers are quick.
 */
function scriptModel(fake: FakeOllama, slowFirst = true): { extractionRequests: () => FakeInferenceRequest[]; focusRequests: () => FakeInferenceRequest[] } {
  const extractionRequests: FakeInferenceRequest[] = [];
  const focusRequests: FakeInferenceRequest[] = [];
  fake.setDefaultReply((req): FakeReply => {
    if (req.purpose === 'extract') {
      extractionRequests.push(req);
      if (slowFirst && extractionRequests.length === 1) return { chunks: answer.match(/.{1,4}/g)!, delayMsPerChunk: 150 };
      return { content: answer };
    }
    if (req.purpose === 'focus') {
      focusRequests.push(req);
      return { content: JSON.stringify({ focus: 'Painting the garden shed', tasks: [] }) };
    }
    return { content: 'Noted, thank you.' };
  });
  return { extractionRequests: () => extractionRequests, focusRequests: () => focusRequests };
}

async function extractJobs(client: Client) {
  return unwrap(await client.call('queue.list', { status: ['queued', 'running', 'done', 'dead'], limit: 50 })).jobs.filter((j) => j.kind === 'extract');
}

async function extractUsage(client: Client) {
  return unwrap(await client.call('queue.usage', {})).purposes.find((p) => p.purpose === 'extract')!;
}

describe('one model, one lane', () => {
  const tempDir = useTempDirs();

  it('a chat stops a running extraction; its job goes back with its attempt and learns once after the chat', async () => {
    const h = await harnesses.ollama(tempDir());
    unwrap(await h.client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    const model = scriptModel(h.fake);

    const first = unwrap(await h.client.call('chat.send', { text: 'I keep bees on the roof of my building.' }));
    await until(() => model.extractionRequests().length === 1, 'the first extraction request');
    // The user sends the next message while extraction streams: the lane stops it before the chat goes out.
    const status = unwrap(await h.client.call('queue.status', {}));
    expect(status.learning.behind).toBe(1);
    unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'What should I plant for them?' }));
    await h.core.queue.waitForIdle();

    const memories = unwrap(await h.client.call('memory.list', {})).items;
    expect(memories.map((m) => m.content)).toEqual(['Keeps bees on the roof']);
    const usage = await extractUsage(h.client);
    expect(usage.preempted).toBe(1);
    const job = (await extractJobs(h.client)).find((j) => j.messageId === first.assistantMessage.id)!;
    // Stopped once, run once: the stop did not use up an attempt.
    expect(job).toMatchObject({ status: 'done', attempts: 1, lastErrorCode: null });
  });

  it('background work waits while the user types, and the status says why', async () => {
    // The lane's own clock, moved by hand: the typing grace ends when the test says, not after seconds of waiting.
    const laneClock = createTestClock(Date.now());
    let looks = 0;
    const laneNow = () => (looks++, laneClock.now());
    // No pause assumed for a user who types (model-lane.ts assumedPauseMs): this test is about the typing hold alone.
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, laneTiming: { now: laneNow, pollMs: 10, assumedPauseMs: 0 } } });
    unwrap(await h.client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    const model = scriptModel(h.fake, false);
    unwrap(await h.client.call('chat.send', { text: 'I keep bees on the roof of my building.' }));
    unwrap(await h.client.call('chat.typing', {}));
    expect(unwrap(await h.client.call('queue.status', {})).learning.waitingFor).toBe('chat');
    h.core.queue.start();
    // The typing grace holds it: the extraction job runs and waits in the lane, and nothing reaches the model while
    // the lane's clock stands still, however many times the lane looks.
    await until(async () => (await extractJobs(h.client)).some((j) => j.status === 'running'), 'the extraction job to wait in the lane');
    const seen = looks;
    await until(() => looks >= seen + 20, 'the lane to look at its clock again');
    expect(model.extractionRequests()).toHaveLength(0);
    laneClock.advance(LANE_TIMING.typingGraceMs);
    await h.core.queue.waitForIdle();
    expect(model.extractionRequests()).toHaveLength(1);
    expect(unwrap(await h.client.call('queue.status', {})).learning).toEqual({ waitingFor: null, behind: 0 });
  });

  it("a queue run in another process on the same data folder gives the model to the app's chat", async () => {
    const dir = tempDir();
    // The app's own pause after an answer: the terminal sees the chat's hold in the lane's shared file while it lasts.
    const app = await harnesses.ollama(dir, { core: { startQueue: false, laneTiming: LANE_TIMING } });
    unwrap(await app.client.call('settings.update', { patch: { workingMemoryEnabled: false, profileEnabled: false, episodesEnabled: false } }));
    const model = scriptModel(app.fake);
    const first = unwrap(await app.client.call('chat.send', { text: 'I keep bees on the roof of my building.' }));

    // The terminal: another core on the same folder, whose queue is driven as `mnemo queue run` drives it.
    const terminal: { core: Core; client: Client } = createTestCore(path.join(dir, 'data'), {
      llm: (host) => createOllamaLlm({ host }),
      env: { OLLAMA_HOST: app.fake.url },
      startQueue: false,
      laneTiming: LANE_TIMING,
    });
    harnesses.keep({ close: () => terminal.core.dispose() });
    const run = terminal.core.queue.runUntilIdle();
    await until(() => model.extractionRequests().length === 1, "the terminal's extraction request");
    unwrap(await app.client.call('chat.send', { threadId: first.threadId, text: 'What should I plant for them?' }));
    await run;

    expect((await extractUsage(terminal.client)).preempted).toBe(1);
    const memories = unwrap(await app.client.call('memory.list', {})).items;
    expect(memories.map((m) => m.content)).toEqual(['Keeps bees on the roof']);
    const jobs = await extractJobs(app.client);
    expect(jobs.find((j) => j.messageId === first.assistantMessage.id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('in the thread chatted in, memories wait for a stretch of three and the working memory for five, on a model that keeps up', async () => {
    const laneClock = createTestClock(Date.now());
    const h = await harnesses.ollama(tempDir(), { core: { laneTiming: { now: () => laneClock.now(), pollMs: 10 } } });
    unwrap(await h.client.call('settings.update', { patch: { profileEnabled: false, episodesEnabled: false } }));
    const model = scriptModel(h.fake, false);
    const promptsOf = (requests: () => FakeInferenceRequest[]) => ({
      get length() {
        return requests().length;
      },
      at: (i: number) => requests()[i]!.messages.map((m) => m.content).join('\n'),
    });
    const focusPrompts = promptsOf(model.focusRequests);
    const extractPrompts = promptsOf(model.extractionRequests);
    const jobsOf = async (kind: string) => unwrap(await h.client.call('queue.list', { status: ['queued', 'running', 'done'], limit: 50 })).jobs.filter((j) => j.kind === kind);
    const queued = async (kind: string) => (await jobsOf(kind)).filter((j) => j.status === 'queued').length;
    let threadId: number | undefined;
    /** One exchange as a person has it: a 10 s pause after the previous answer, typing, the message, the answer. */
    const exchange = async (n: number) => {
      if (n > 1) {
        laneClock.advance(10_000);
        unwrap(await h.client.call('chat.typing', {}));
        laneClock.advance(LANE_TIMING.typingGraceMs);
      }
      const sent = unwrap(await h.client.call('chat.send', { ...(threadId ? { threadId } : {}), text: `Step ${n} of the garden shed: I am painting wall ${n} today.` }));
      threadId = sent.threadId;
      laneClock.advance(LANE_TIMING.afterChatGraceMs);
      h.core.queue.poke();
    };
    const walls = (prompt: string) => [1, 2, 3, 4, 5, 6, 7, 8].filter((n) => prompt.includes(`painting wall ${n}`));
    // Until the lane knows two of this user's pauses, each exchange is learned at once. The working memory waits for
    // its stretch from the first keystroke (a reader's pause assumed meanwhile): exchanges 2 to 6.
    await exchange(1);
    // Done, not only asked: the next keystroke would stop a request still running, and its job would join the stretch.
    const done = async (kind: string) => (await jobsOf(kind)).filter((j) => j.status === 'done').length;
    await until(async () => (await done('extract')) === 1 && (await done('focus')) === 1, 'the first exchange learned at once');
    await exchange(2);
    await until(async () => (await done('extract')) === 2, 'the second exchange learned at once');
    // Mid-conversation: exchanges 3 to 5 are learned in one request.
    await exchange(3);
    await exchange(4);
    // Polled as a pair of counts, so a failure shows them.
    const waiting = async () => ({ extract: await queued('extract'), focus: await queued('focus') });
    await expect.poll(waiting, { timeout: 30_000, interval: 5, message: 'exchanges 3 and 4 waiting (focus: 2 to 4)' }).toEqual({ extract: 2, focus: 3 });
    // Waiting for the stretch on a model that keeps up is not learning behind: the status bar says nothing of it.
    expect(unwrap(await h.client.call('queue.status', {})).learning.behind).toBe(0);
    await exchange(5);
    await until(async () => (await done('extract')) === 5, 'one extraction request for exchanges 3 to 5');
    expect(extractPrompts.length).toBe(3);
    expect(walls(extractPrompts.at(2))).toEqual([3, 4, 5]);
    expect(focusPrompts.length).toBe(1);
    await exchange(6);
    await until(async () => (await done('focus')) === 6, 'one working-memory update for exchanges 2 to 6');
    expect(focusPrompts.length).toBe(2);
    expect(walls(focusPrompts.at(1))).toEqual([2, 3, 4, 5, 6]);
    await exchange(7);
    await exchange(8);
    await until(async () => (await done('extract')) === 8, 'one extraction request for exchanges 6 to 8');
    expect(extractPrompts.length).toBe(4);
    expect(walls(extractPrompts.at(3))).toEqual([6, 7, 8]);
    // The working memory of 7 and 8 waits until the pause has lasted twice the typical one: the user is away.
    expect(focusPrompts.length).toBe(2);
    expect(await queued('focus')).toBe(2);
    // This user's pause: 10 s after the answer's grace, so 11.5 s; twice that, from the answer, is away.
    laneClock.advance(2 * (10_000 + LANE_TIMING.afterChatGraceMs));
    h.core.queue.poke();
    await until(() => focusPrompts.length === 3, 'the update once the user is away');
    expect(walls(focusPrompts.at(2))).toEqual([7, 8]);
    // Every exchange learned from, in four requests.
    await h.core.queue.waitForIdle();
    expect((await jobsOf('extract')).map((j) => j.status)).toEqual(Array(8).fill('done'));
    expect(extractPrompts.length).toBe(4);
    await h.core.queue.waitForIdle();
    expect((await jobsOf('focus')).every((j) => j.status === 'done')).toBe(true);
  });
});
