import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/contract';
import { MnemoError } from '../../shared/errors';
import { createModelLane, type ModelLaneOptions } from '../../electron/core/llm/model-lane';
import { useTempDirs } from '../support/temp-dir';

type Schedule = Pick<Settings, 'learningSchedule' | 'learningNeedsPower'>;

/** A lane on a clock the test moves; it polls every 5 ms of real time, so a moved clock is seen at once. */
function laneFor(overrides: Partial<ModelLaneOptions> = {}) {
  let t = 1_000_000;
  const schedule: Schedule = { learningSchedule: 'gaps', learningNeedsPower: false };
  const lane = createModelLane({ settings: () => schedule, signalFile: null, now: () => t, pollMs: 5, typingGraceMs: 4_000, afterChatGraceMs: 1_500, awayAfterMs: 60_000, ...overrides });
  return { lane, schedule, advance: (ms: number) => (t += ms) };
}

/** A background request that runs until its signal aborts (or `finish` is called). */
function openRequest() {
  let started = false;
  let finish: (value: string) => void = () => {};
  const request = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      started = true;
      finish = resolve;
      signal.addEventListener('abort', () => reject(new MnemoError('ABORTED', 'stopped')), { once: true });
    });
  return { request, started: () => started, finish: (v: string) => finish(v) };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const tempDir = useTempDirs();

/** Exchanges whose pauses (answer to the next keystroke) last `pauseMs`, then the user sends the next message. */
function chatWithPauses(lane: ReturnType<typeof createModelLane>, advance: (ms: number) => number, pauseMs: number, count: number): void {
  for (let i = 0; i < count; i++) {
    lane.beginChat()();
    advance(pauseMs);
    lane.typing();
    advance(4_001);
  }
}

/** The pauses the shared file remembers. */
const rememberedIn = (signalFile: string): unknown => (JSON.parse(fs.readFileSync(signalFile, 'utf8')) as { pauses?: unknown }).pauses;

/** Two exchanges whose pauses (answer to the next keystroke) last 10 s each, then a third answer: a pause begins. */
function answerAfterTwoPauses(lane: ReturnType<typeof createModelLane>, advance: (ms: number) => number): void {
  for (let i = 0; i < 2; i++) {
    lane.beginChat()();
    advance(10_000);
    lane.typing();
    advance(4_001);
  }
  lane.beginChat()();
}

describe('model lane', () => {
  it('runs a background request at once when nothing holds the model', async () => {
    const { lane } = laneFor();
    expect(lane.hold()).toBeNull();
    await expect(lane.runBackground(new AbortController().signal, async () => 'done')).resolves.toBe('done');
  });

  it('stops a running background request when a chat begins: PREEMPTED, not ABORTED', async () => {
    const { lane } = laneFor();
    const r = openRequest();
    const running = lane.runBackground(new AbortController().signal, r.request);
    await tick();
    expect(r.started()).toBe(true);
    const release = lane.beginChat();
    await expect(running).rejects.toMatchObject({ code: 'PREEMPTED', details: { reason: 'chat' } });
    release();
  });

  it("the caller's own abort stays ABORTED", async () => {
    const { lane } = laneFor();
    const caller = new AbortController();
    const r = openRequest();
    const running = lane.runBackground(caller.signal, r.request);
    await tick();
    caller.abort();
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('holds background work during a chat and for the grace after it, then lets it run', async () => {
    const { lane, advance } = laneFor();
    const release = lane.beginChat();
    expect(lane.hold()).toBe('chat');
    let ran = false;
    const waiting = lane.runBackground(new AbortController().signal, async () => {
      ran = true;
      return 'ok';
    });
    await tick(50);
    expect(ran).toBe(false);
    release();
    await tick(50);
    expect(lane.hold()).toBe('chat'); // the grace after the answer
    expect(ran).toBe(false);
    advance(1_501);
    await expect(waiting).resolves.toBe('ok');
    expect(lane.hold()).toBeNull();
  });

  it('holds while two chats run until both are released', async () => {
    const { lane, advance } = laneFor();
    const a = lane.beginChat();
    const b = lane.beginChat();
    a();
    advance(10_000);
    expect(lane.hold()).toBe('chat');
    b();
    advance(1_501);
    expect(lane.hold()).toBeNull();
  });

  it('typing stops a running request and holds new ones for the typing grace', async () => {
    const { lane, advance } = laneFor();
    const r = openRequest();
    const running = lane.runBackground(new AbortController().signal, r.request);
    await tick();
    lane.typing();
    await expect(running).rejects.toMatchObject({ code: 'PREEMPTED' });
    expect(lane.hold()).toBe('chat');
    advance(3_999);
    expect(lane.hold()).toBe('chat');
    lane.typing(); // still typing: the grace starts again
    advance(3_999);
    expect(lane.hold()).toBe('chat');
    advance(2);
    expect(lane.hold()).toBeNull();
  });

  it('a request that finished before the chat keeps its answer', async () => {
    const { lane } = laneFor();
    const r = openRequest();
    const running = lane.runBackground(new AbortController().signal, r.request);
    await tick();
    r.finish('answer');
    await expect(running).resolves.toBe('answer');
    lane.beginChat()();
  });

  it("'paused' gives a waiting or running request back at once (the queue keeps the job), until switched back", async () => {
    const { lane, schedule } = laneFor();
    const r = openRequest();
    const running = lane.runBackground(new AbortController().signal, r.request);
    await tick();
    schedule.learningSchedule = 'paused';
    await expect(running).rejects.toMatchObject({ code: 'PREEMPTED', details: { reason: 'paused' } });
    expect(lane.hold()).toBe('paused');
    expect(lane.waitsLong()).toBe(true);
    let ran = false;
    await expect(lane.runBackground(new AbortController().signal, async () => (ran = true))).rejects.toMatchObject({ code: 'PREEMPTED' });
    expect(ran).toBe(false);
    schedule.learningSchedule = 'gaps';
    expect(lane.waitsLong()).toBe(false);
    await lane.runBackground(new AbortController().signal, async () => (ran = true));
    expect(ran).toBe(true);
  });

  it("'away' waits until the user has been away for a while", async () => {
    const { lane, schedule, advance } = laneFor();
    schedule.learningSchedule = 'away';
    // Nobody was here since the start: away.
    expect(lane.hold()).toBeNull();
    lane.typing();
    advance(5_000);
    expect(lane.hold()).toBe('away');
    advance(55_001);
    expect(lane.hold()).toBeNull();
  });

  it('waits for mains power only when asked to', () => {
    const { lane, schedule } = laneFor();
    lane.setOnBattery(true);
    expect(lane.hold()).toBeNull();
    schedule.learningNeedsPower = true;
    expect(lane.hold()).toBe('battery');
    lane.setOnBattery(false);
    expect(lane.hold()).toBeNull();
  });

  it('with chatFirst off (the old policy) nothing ever holds or stops background work', async () => {
    const { lane } = laneFor({ chatFirst: false });
    const r = openRequest();
    const running = lane.runBackground(new AbortController().signal, r.request);
    await tick();
    lane.beginChat();
    lane.typing();
    expect(lane.hold()).toBeNull();
    r.finish('kept');
    await expect(running).resolves.toBe('kept');
  });

  it('tells listeners when the hold changes, including when a grace runs out on its own', async () => {
    const { lane } = laneFor({ now: Date.now, afterChatGraceMs: 30 });
    const seen: Array<string | null> = [];
    lane.onChange(() => seen.push(lane.hold()));
    lane.beginChat()();
    await tick(120);
    expect(seen).toEqual(['chat', null]);
    lane.dispose();
  });

  it("a request that would not fit in this user's typical pause waits for a longer one", async () => {
    const { lane, advance } = laneFor();
    answerAfterTwoPauses(lane, advance);
    advance(1_501); // past the grace: nothing holds now
    expect(lane.hold()).toBeNull();
    let longRan = false;
    const long = lane.runBackground(new AbortController().signal, async () => (longRan = true), 12_000);
    // A short one fits in what is left of the pause and runs at once.
    await expect(lane.runBackground(new AbortController().signal, async () => 'short', 3_000)).resolves.toBe('short');
    await tick(50);
    expect(longRan).toBe(false);
    advance(8_500); // the pause now outlasts the typical one, but only half of all pauses do: still waiting
    await tick(50);
    expect(longRan).toBe(false);
    expect(lane.stretchLeftMs(60_000)).toBe(2 * 10_000 - (1_501 + 8_500));
    advance(10_000); // twice the typical pause: the user is likely away
    expect(lane.stretchLeftMs(60_000)).toBe(0);
    await long;
    expect(longRan).toBe(true);
  });

  it('a request must end within a short pause of this user, not only the typical one: the next keystroke would stop it', async () => {
    const { lane, advance } = laneFor();
    // Pauses of 6, 14, 8, 12 and 10 s (answer to the next keystroke): typically 10 s, but a quarter of them under 8 s.
    for (const pause of [6_000, 14_000, 8_000, 12_000, 10_000]) {
      lane.beginChat()();
      advance(pause);
      lane.typing();
      advance(4_001);
    }
    lane.beginChat()();
    advance(1_501); // past the grace: nothing holds now
    let ran = false;
    const long = lane.runBackground(new AbortController().signal, async () => (ran = true), 7_000);
    await tick(50);
    expect(ran).toBe(false); // 1.5 + 7 s ends within the typical 10 s, but not within 8 s
    await expect(lane.runBackground(new AbortController().signal, async () => 'short', 6_000)).resolves.toBe('short');
    advance(18_500); // twice the typical pause: the user is likely away, it runs
    await long;
    expect(ran).toBe(true);
  });

  it('a user who stops typing to think is still writing: a request must fit from the last keystroke, which is no reading pause', async () => {
    const { lane, advance } = laneFor();
    answerAfterTwoPauses(lane, advance); // reading pauses of 10 s
    advance(10_000);
    lane.typing(); // a third reading pause of 10 s, then the user writes, and stops to think
    advance(4_001); // past the typing grace: nothing holds
    expect(lane.hold()).toBeNull();
    expect(lane.conversationLeftMs()).toBe(2 * 10_000 - 4_001); // the conversation goes on
    let ran = false;
    const long = lane.runBackground(new AbortController().signal, async () => (ran = true), 7_000);
    await tick(50);
    expect(ran).toBe(false); // 4 s since the last keystroke + 7 s would outlast a 10 s pause
    lane.typing(); // more words after 1 s: not a pause of 1 s to learn from
    advance(1_000);
    lane.typing();
    expect(lane.stretchLeftMs(60_000)).toBe(2 * 10_000);
    advance(20_000); // gone for twice a typical pause since the last keystroke: likely away
    await long;
    expect(ran).toBe(true);
  });

  it('with no pause known yet and no typing seen (the CLI, a script), a request of any length may start', async () => {
    const { lane, advance } = laneFor();
    lane.beginChat()();
    advance(1_501);
    await expect(lane.runBackground(new AbortController().signal, async () => 'ok', 600_000)).resolves.toBe('ok');
  });

  it("a user who types is assumed to pause like a reader until two of their pauses are seen: a request must fit half of it", async () => {
    const { lane, advance } = laneFor({ assumedPauseMs: 20_000 });
    lane.typing();
    advance(4_001);
    lane.beginChat()();
    advance(1_501); // past the grace: nothing holds, a pause of an assumed 20 s is under way
    expect(lane.hold()).toBeNull();
    let ran = false;
    const long = lane.runBackground(new AbortController().signal, async () => (ran = true), 9_000);
    await tick(50);
    expect(ran).toBe(false); // 1.5 + 9 s would outlast a short pause of 10 s: the user's next keystroke would stop it
    await expect(lane.runBackground(new AbortController().signal, async () => 'short', 8_000)).resolves.toBe('short');
    expect(lane.conversationLeftMs()).toBe(0); // a stretch waits for a user whose own pauses are known,
    expect(lane.conversationLeftMs(true)).toBe(2 * 20_000 - 1_501); // or, for work asked to, for the assumed pause
    expect(lane.chattingThreadId(true)).toBeNull(); // no thread named: none to wait in
    advance(40_000); // twice the assumed pause: likely away
    await long;
    expect(ran).toBe(true);
  });

  it('learns pauses from typing only: messages with no keystroke before them (CLI, scripts) teach it nothing', () => {
    const { lane, advance } = laneFor();
    for (let i = 0; i < 4; i++) {
      lane.beginChat()();
      advance(60_000);
    }
    expect(lane.stretchLeftMs(60_000)).toBe(0);
    lane.beginChat()();
    expect(lane.stretchLeftMs(60_000)).toBe(0);
  });

  it('no stretch while learning keeps up: one exchange learned in at most half a typical pause is learned at once', () => {
    const { lane, advance } = laneFor();
    answerAfterTwoPauses(lane, advance);
    advance(2_000); // past the grace after the answer
    expect(lane.stretchLeftMs(null)).toBe(0); // not measured yet: learn at once
    expect(lane.stretchLeftMs(5_000)).toBe(0); // keeps up in a 10 s pause
    expect(lane.stretchLeftMs(5_001)).toBe(18_000); // does not: wait for a stretch, up to twice the typical pause
  });

  it('the conversation goes on whether or not learning keeps up: until the pause lasts twice the typical one', () => {
    const { lane, advance } = laneFor();
    expect(lane.conversationLeftMs()).toBe(0); // no pause known yet
    answerAfterTwoPauses(lane, advance);
    advance(2_000);
    expect(lane.stretchLeftMs(5_000)).toBe(0);
    expect(lane.conversationLeftMs()).toBe(18_000);
    lane.typing(); // mid-exchange: at least twice a typical pause to go
    expect(lane.conversationLeftMs()).toBe(20_000);
    lane.beginChat()();
    advance(20_000); // the user is away
    expect(lane.conversationLeftMs()).toBe(0);
    const old = laneFor({ chatFirst: false });
    answerAfterTwoPauses(old.lane, old.advance);
    expect(old.lane.conversationLeftMs()).toBe(0);
  });

  it('knows the thread the user chats in while the conversation goes on; another process on the folder knows it too', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-lane-'));
    try {
      const signalFile = path.join(dir, 'lane.json');
      let t = 1_000_000;
      const now = () => t;
      const { lane } = laneFor({ signalFile, now });
      const terminal = laneFor({ signalFile, now }).lane;
      for (let i = 0; i < 2; i++) {
        lane.beginChat(4)();
        t += 10_000;
        lane.typing();
        t += 4_001;
      }
      lane.typing();
      expect(lane.chattingThreadId()).toBe(4); // typing: the conversation goes on, in thread 4 so far
      lane.beginChat(7)();
      t += 2_000;
      expect(lane.chattingThreadId()).toBe(7);
      expect(terminal.chattingThreadId()).toBe(7);
      t += 20_000; // away
      expect(lane.chattingThreadId()).toBeNull();
      expect(terminal.chattingThreadId()).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("the user's pauses across starts (the shared file)", () => {
    /** Pauses of 30 s, longer than the assumed 20 s: a lane that goes by them lets longer requests start. */
    const PAUSE = 30_000;

    /** Lanes of processes on one data folder, one after another or side by side, on one clock the test moves. */
    function oneFolder() {
      const signalFile = path.join(tempDir(), 'lane.json');
      let t = 1_000_000;
      const advance = (ms: number) => (t += ms);
      const open = (overrides: Partial<ModelLaneOptions> = {}) => laneFor({ signalFile, now: () => t, ...overrides }).lane;
      return { signalFile, open, advance };
    }

    /** A returning user types and gets an answer; 1.5 s later (past the grace) a pause is under way. */
    async function expectKnownAtOnce(lane: ReturnType<typeof createModelLane>, advance: (ms: number) => number): Promise<void> {
      lane.typing();
      advance(4_001);
      lane.beginChat()();
      advance(1_501);
      expect(lane.hold()).toBeNull();
      // Their short pause is 30 s: 1.5 + 15 s fits (the assumed pause's short 10 s would not let it start).
      await expect(lane.runBackground(new AbortController().signal, async () => 'fits', 15_000)).resolves.toBe('fits');
      expect(lane.conversationLeftMs()).toBe(2 * PAUSE - 1_501);
      expect(lane.stretchLeftMs(PAUSE)).toBe(2 * PAUSE - 1_501);
    }

    it('a new lane on a file with remembered pauses knows the typical pause at once, and adds the ones it learns', async () => {
      const { signalFile, open, advance } = oneFolder();
      const before = open();
      chatWithPauses(before, advance, PAUSE, 2);
      before.dispose(); // the app quits
      advance(90 * 24 * 3_600_000); // and starts again months later: still this user's habit
      const after = open();
      await expectKnownAtOnce(after, advance);
      advance(20_000 - 1_501);
      after.typing(); // a pause of 20 s learned here, after the two remembered
      expect(rememberedIn(signalFile)).toEqual([PAUSE, PAUSE, 20_000]);
    });

    it('a lane that never saw a pause (a script, the CLI, a terminal queue) does not erase them', async () => {
      const { signalFile, open, advance } = oneFolder();
      const app = open();
      chatWithPauses(app, advance, PAUSE, 2);
      app.dispose();
      const cli = open();
      const queue = open();
      for (let i = 0; i < 3; i++) {
        cli.beginChat()(); // messages with no typing: it writes when it chats, and learns no pause
        advance(60_000);
        await queue.runBackground(new AbortController().signal, async () => 'learned', 1_000);
      }
      expect(rememberedIn(signalFile)).toEqual([PAUSE, PAUSE]);
      await expectKnownAtOnce(open(), advance);
    });

    it('ignores what is not a pause in the file: bad entries, more than it keeps, an old file without the list, no JSON', async () => {
      const { signalFile, open, advance } = oneFolder();
      const bad = `[-1, "20000", null, 1e999, {}, [5], true, ${PAUSE}, ${PAUSE}]`; // 1e999 parses as Infinity
      fs.writeFileSync(signalFile, `{"holdUntil": 0, "activeAt": 0, "pauseSince": 0, "pauses": ${bad}, "threadId": 0}`);
      await expectKnownAtOnce(open(), advance);
      expect(rememberedIn(signalFile)).toEqual([PAUSE, PAUSE]);

      // A huge list: only the last seven count (their median is the typical pause), and the file keeps seven.
      fs.writeFileSync(signalFile, JSON.stringify({ pauses: [...Array<number>(100_000).fill(1_000), ...Array<number>(7).fill(PAUSE)] }));
      const huge = open();
      await expectKnownAtOnce(huge, advance);
      advance(5_000);
      huge.typing();
      expect(rememberedIn(signalFile)).toEqual([...Array<number>(6).fill(PAUSE), 1_501 + 5_000]);

      // Nothing to go by: a reader's pause is assumed, as for a new user, and nothing breaks.
      for (const body of ['{"typicalPauseMs": 30000, "shortPauseMs": 30000}', '{"pauses": "30000"}', 'null', '[30000, 30000]', '{"pauses": [30000', '']) {
        fs.writeFileSync(signalFile, body);
        const lane = open({ assumedPauseMs: 20_000 });
        expect(lane.hold()).toBeNull();
        lane.typing();
        advance(4_001);
        lane.beginChat()();
        advance(1_501);
        expect(lane.conversationLeftMs()).toBe(0);
        expect(lane.conversationLeftMs(true)).toBe(2 * 20_000 - 1_501);
        expect(rememberedIn(signalFile)).toEqual([]);
      }
    });
  });
});
