/**
 * The one model's lane: the chat goes first, background model work fits in the gaps.
 *
 * A local model server answers one request at a time (Ollama with one slot, llama-server, LM Studio), and on a laptop
 * a background request of 700 prompt tokens holds it for 10-30 s. So a chat request must never find one running:
 * - while a chat answer is asked for or streamed (beginChat .. release), no background request starts, and one that
 *   runs when a chat begins is stopped at once (its job goes back to the queue with its attempt returned: PREEMPTED);
 * - while the user types (`typing`, sent by the composer at most every second or so) the same holds, for a short
 *   grace after the last keystroke: typing is the sign that a chat request is coming, and a request stopped then has
 *   freed the model by the time the message is sent (a server stops a cancelled request at its next batch, up to
 *   512 prompt tokens: seconds on a CPU, so stopping only when the chat goes out would make the chat wait that long);
 * - after an answer, a short grace (a tool call's second request, a quick "thanks") before learning starts again.
 * - in a pause between messages, a request starts only if it fits: the lane learns how long this user's pauses last
 *   (from the end of an answer to their next keystroke in the composer) and a request the gateway expects to take
 *   longer than what is left of a short pause (one a quarter of theirs fall short of) waits, unless the pause has
 *   already run longer than usual (the user is likely away). A user who stops typing to think is in a pause too, from
 *   their last keystroke: what starts then must fit before they go on. On a slow machine learning then happens in the
 *   longer pauses, in batches, instead of being started and stopped again at every message, each time wasting the
 *   model time it had used. Until it knows two of a typing user's pauses (seen, or remembered from an earlier
 *   start: see below), a request must fit a reader's assumed pause (assumedPauseMs): knowing nothing, it used to
 *   start anything, and a new user's first keystrokes stopped it, its model time lost. Waiting for a stretch
 *   (conversationLeftMs) needs their own pauses: a new user's first exchanges are learned at once, which is their
 *   first look at what Mnemo learns.
 * The user's schedule (settings.learningSchedule) can keep background work to times when they are away, or pause it;
 * the desktop app can also hold it while on battery (settings.learningNeedsPower, fed by Electron's powerMonitor).
 *
 * Several processes may share a data folder (the app and `mnemo queue run` in a terminal). The chatting process
 * writes when it is busy into a small file in the data folder (`signalFile`); every process's lane reads it before a
 * background request starts and every `pollMs` while one runs, so a terminal's queue obeys the app's chat too.
 * Times in the file are wall-clock milliseconds (Date.now), like the grace windows: they are scheduling, not domain
 * time, so they do not follow a test's fake clock.
 * The file also remembers the user's last pauses (PAUSES_KEPT), so a returning user is known at once: a process whose
 * user types and whose own list is empty takes them up (recallPauses), and one that has not learned a pause itself
 * (a terminal's queue, a script, an app just started) writes back the file's list, never its own empty one. Bad
 * entries (not a finite pause, beyond the last PAUSES_KEPT, a file from before the list) are ignored. Months-old
 * pauses are kept: they are still this user's habit, and each new one pushes the oldest out.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';

export type LaneHold = 'chat' | 'away' | 'paused' | 'battery';

export interface ModelLaneOptions {
  settings: () => Pick<Settings, 'learningSchedule' | 'learningNeedsPower'>;
  /** The file processes on one data folder share; null: this process only. */
  signalFile: string | null;
  /** False: background work never waits for the chat (the benchmark's "before", today's policy). Default true. */
  chatFirst?: boolean;
  now?: () => number;
  /** How long typing holds background work after the last keystroke. */
  typingGraceMs?: number;
  /** How long after an answer background work waits. */
  afterChatGraceMs?: number;
  /** For the 'away' schedule: how long without the user counts as away. */
  awayAfterMs?: number;
  /** How often a waiting or running background request looks at the shared file. */
  pollMs?: number;
  /** The typical pause assumed for a user who types, until PAUSES_NEEDED of theirs are seen (a short one: half). */
  assumedPauseMs?: number;
}

export interface ModelLane {
  /**
   * A chat request is about to go out: running background requests stop now, none starts until the release.
   * `threadId`: the thread it is in, the one the user is chatting in from now on (chattingThreadId).
   */
  beginChat(threadId?: number): () => void;
  /** The user is typing a message. */
  typing(): void;
  /** From the desktop host's power monitor. */
  setOnBattery(onBattery: boolean): void;
  /** Why no background request may start now; null when one may. */
  hold(): LaneHold | null;
  /** The hold is one of the long ones (paused, away, battery): not worth waiting for with a job claimed. */
  waitsLong(): boolean;
  /**
   * How long the user's conversation may still go on (ms): until their pause has lasted AWAY_FACTOR times their
   * typical one. Patient work (learning) waits for a stretch of exchanges meanwhile (job-queue.ts handler.patience).
   * 0 when no conversation is under way, no pause is known yet, or learning keeps up: `learningCostMs` (the model time
   * one exchange's learning takes, background-model.ts) fits in KEEP_UP_SHARE of the typical pause, so each exchange is
   * learned at once (the "Learned:" line comes right away) at no cost to the chat.
   */
  stretchLeftMs(learningCostMs: number | null): number;
  /**
   * How long the user's conversation may still go on (ms), whether or not learning keeps up: the stretch that work
   * the prompt does not need meanwhile waits for at any speed (job-queue.ts handler.patienceAtAnySpeed). 0 when no
   * conversation is under way or no pause is known yet; `assumed`: a typing user's pause is assumed until theirs are
   * known (assumedPauseMs).
   */
  conversationLeftMs(assumed?: boolean): number;
  /** The thread of the conversation under way (the last chat's), while conversationLeftMs(assumed) > 0; else null. */
  chattingThreadId(assumed?: boolean): number | null;
  /**
   * Waits until background work may use the model, then runs `request` with a signal that aborts when a chat needs
   * the model. Rejects with PREEMPTED when it was stopped for the chat or a long hold began (waiting or running), ABORTED
   * when `signal` was.
   */
  runBackground<T>(signal: AbortSignal, request: (signal: AbortSignal) => Promise<T>, expectedMs?: number): Promise<T>;
  /** Called when hold() may have changed (for the status bar). */
  onChange(listener: () => void): () => void;
  dispose(): void;
}

/**
 * What the shared file says: until when a chat holds the model, when the user was last active, the pause now under
 * way (since when; 0: none) and this user's last pauses.
 */
interface SharedSignal {
  holdUntil: number;
  activeAt: number;
  pauseSince: number;
  /** The user's last pauses (ms, oldest first, at most PAUSES_KEPT): their typical and short pause come from these. */
  pauses: readonly number[];
  /** The thread the user chats in (0: none known). */
  threadId: number;
}

const NO_SIGNAL: SharedSignal = { holdUntil: 0, activeAt: 0, pauseSince: 0, pauses: [], threadId: 0 };
/** Pauses remembered (the typical one is their median), and how many are needed before a request must fit one. */
const PAUSES_KEPT = 7;
const PAUSES_NEEDED = 2;
/**
 * A pause this many times the typical one means the user is likely away. Half of all pauses outlast the typical one
 * (it is their median), so starting long work at 1x would have it stopped by the next keystroke half of the time.
 */
const AWAY_FACTOR = 2;
/** A request must fit in the pause this share of the user's pauses fall short of (fits). */
const SHORT_PAUSE_SHARE = 0.25;
/** Learning keeps up when one exchange's learning takes at most this share of the user's typical pause. */
const KEEP_UP_SHARE = 0.5;
/**
 * The lane's timing by default, wall-clock ms (a benchmark that runs time faster than real scales these with it).
 * assumedPauseMs: a reader's pause, on the short side (an answer of 100 words read at 250 a minute takes 24 s): one
 * too long would start requests that a new user's first keystroke stops, one too short only delays learning until
 * their own pauses are known.
 */
export const LANE_TIMING = { typingGraceMs: 4_000, afterChatGraceMs: 1_500, awayAfterMs: 5 * 60_000, pollMs: 250, assumedPauseMs: 20_000 } as const;

/** Held "for now" by a chat that is still running: renewed while it runs, so a killed app frees the lane soon. */
const CHAT_HEARTBEAT_MS = 5_000;
const CHAT_HOLD_MS = 3 * CHAT_HEARTBEAT_MS;

export function createModelLane(options: ModelLaneOptions): ModelLane {
  const now = options.now ?? Date.now;
  const chatFirst = options.chatFirst ?? true;
  const typingGraceMs = options.typingGraceMs ?? LANE_TIMING.typingGraceMs;
  const afterChatGraceMs = options.afterChatGraceMs ?? LANE_TIMING.afterChatGraceMs;
  const awayAfterMs = options.awayAfterMs ?? LANE_TIMING.awayAfterMs;
  const pollMs = options.pollMs ?? LANE_TIMING.pollMs;
  const assumedPauseMs = options.assumedPauseMs ?? LANE_TIMING.assumedPauseMs;
  const listeners = new Set<() => void>();
  const running = new Set<(reason: LaneHold) => void>();
  let chats = 0;
  let holdUntil = 0;
  let activeAt = 0;
  let onBattery = false;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let changeTimer: ReturnType<typeof setTimeout> | null = null;
  let lastHold: LaneHold | null = null;
  /**
   * The pause under way (0: none): from the end of the last answer, or from the user's last keystroke while they write
   * a message (they stop to think: a request started then is stopped by the next keystroke, so it must fit too), until
   * their next keystroke or message. Only a pause from an answer to the next keystroke is a reading pause, remembered.
   */
  let pauseSince = 0;
  let pauseIsReading = false;
  const pauses: number[] = [];
  /** Whether a pause was learned here: until then the pauses in the shared file are not this process's to replace. */
  let learnedPause = false;
  /** Whether the user typed here: only then is this someone whose pause can be assumed (assumedPause). */
  let typed = false;
  /** The thread of the last chat request (0: none). */
  let chatThread = 0;

  function readShared(): SharedSignal {
    if (!options.signalFile) return NO_SIGNAL;
    try {
      const parsed = (JSON.parse(fs.readFileSync(options.signalFile, 'utf8')) ?? {}) as Record<keyof SharedSignal, unknown>;
      return { holdUntil: finite(parsed.holdUntil), activeAt: finite(parsed.activeAt), pauseSince: finite(parsed.pauseSince), pauses: rememberedPauses(parsed.pauses), threadId: finite(parsed.threadId) };
    } catch {
      return NO_SIGNAL; // no file (nobody chatted yet), or caught mid-rename: nothing holds
    }
  }

  function writeShared(): void {
    if (!options.signalFile) return;
    const remembered = learnedPause ? pauses : readShared().pauses;
    const signal: SharedSignal = { holdUntil: chats > 0 ? Math.max(holdUntil, now() + CHAT_HOLD_MS) : holdUntil, activeAt, pauseSince, pauses: remembered, threadId: chatThread };
    const body = JSON.stringify(signal);
    const temp = `${options.signalFile}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(options.signalFile), { recursive: true });
      fs.writeFileSync(temp, body);
      fs.renameSync(temp, options.signalFile);
    } catch {
      // A read-only or full disk: other processes then only miss this hint; this process's own lane still holds.
    }
  }

  function hold(): LaneHold | null {
    if (!chatFirst) return null;
    const settings = options.settings();
    if (settings.learningSchedule === 'paused') return 'paused';
    if (settings.learningNeedsPower && onBattery) return 'battery';
    const t = now();
    const shared = readShared();
    if (chats > 0 || Math.max(holdUntil, shared.holdUntil) > t) return 'chat';
    if (settings.learningSchedule === 'away' && t - Math.max(activeAt, shared.activeAt) < awayAfterMs) return 'away';
    return null;
  }

  /** The user's pauses remembered in the shared file become this process's own, when it has none (see the header). */
  function recallPauses(): void {
    if (pauses.length === 0) pauses.push(...readShared().pauses);
  }

  /**
   * Whether a request expected to take `expectedMs` fits in the pause under way: always when no pause is known (no
   * chat yet, or no typing seen), and when the pause has outlasted twice the typical one (the user is likely away).
   * A user who types but whose pauses are too few to go by is assumed to pause like a reader (assumedPause).
   * Otherwise it must end within a short pause (shortPause): measured against the typical one, half of the requests
   * that would end near it were stopped by the user's next keystroke, their model time lost, and requests that start one
   * after another in a pause all end near its end.
   */
  function fits(expectedMs: number | undefined): boolean {
    if (expectedMs === undefined) return true;
    const pause = pauseUnderWay() ?? assumedPause();
    if (!pause || pause.since === 0) return true;
    const elapsed = now() - pause.since;
    return elapsed >= AWAY_FACTOR * pause.typical || elapsed + expectedMs <= pause.short;
  }

  /**
   * What is known of this user's pauses: the one under way (since 0: none) and the typical one (0: not known), from
   * this process when it knows enough of them (seen or recalled), else from the process that chats (the shared
   * file).
   */
  function pauseKnown(): { local: boolean; since: number; typical: number; short: number } {
    if (pauses.length >= PAUSES_NEEDED) return { local: true, since: pauseSince, typical: typicalPause(pauses), short: shortPause(pauses) };
    const shared = readShared();
    return { local: false, since: shared.pauseSince, typical: typicalPause(shared.pauses), short: shortPause(shared.pauses) };
  }

  /** The pause under way and this user's typical and short pauses; null when unknown. */
  function pauseUnderWay(): { since: number; typical: number; short: number } | null {
    const { since, typical, short } = pauseKnown();
    return since === 0 || typical === 0 ? null : { since, typical, short };
  }

  /** For a user of this process who types: their pauses as a reader's (assumedPauseMs; a short one, half). */
  function assumedPause(): { since: number; typical: number; short: number } | null {
    return typed && assumedPauseMs > 0 ? { since: pauseSince, typical: assumedPauseMs, short: assumedPauseMs / 2 } : null;
  }

  function conversationLeftMs(assumed = false): number {
    if (!chatFirst) return 0;
    const known = pauseKnown();
    const guess = assumed && known.typical === 0 ? assumedPause() : null;
    const { local, since, typical } = guess ? { local: true, ...guess } : known;
    if (typical === 0) return 0;
    // Mid-exchange (an answer being written, the user typing): the conversation goes on at least a typical pause.
    if (local && (chats > 0 || holdUntil > now())) return AWAY_FACTOR * typical;
    return since === 0 ? 0 : Math.max(0, since + AWAY_FACTOR * typical - now());
  }

  function stretchLeftMs(learningCostMs: number | null): number {
    if (learningCostMs === null) return 0;
    const { typical } = pauseKnown();
    return learningCostMs <= KEEP_UP_SHARE * typical ? 0 : conversationLeftMs();
  }

  /**
   * The pause under way (if any) ends; remembered only when the user's first keystroke ended it. A message that
   * arrives with no typing before it (the CLI, a script on the web API, a test) says nothing about how long a person
   * pauses, and a caller that waits for the queue before its next message would otherwise teach the lane pauses as
   * long as its own patience, which then grows with them.
   */
  function endPause(byTyping: boolean): void {
    if (pauseSince === 0) return;
    if (byTyping && pauseIsReading) {
      pauses.push(now() - pauseSince);
      if (pauses.length > PAUSES_KEPT) pauses.shift();
      learnedPause = true;
    }
    pauseSince = 0;
  }

  /** Tells listeners, now and once more when the current hold would lapse on its own. */
  function changed(): void {
    const current = hold();
    if (current !== lastHold) {
      lastHold = current;
      for (const listener of listeners) listener();
    }
    if (changeTimer) clearTimeout(changeTimer);
    changeTimer = null;
    const t = now();
    const lapse = current === 'chat' && chats === 0 ? holdUntil - t : current === 'away' ? activeAt + awayAfterMs - t : null;
    if (lapse !== null && lapse > 0) {
      changeTimer = setTimeout(changed, lapse + 10);
      changeTimer.unref?.();
    }
  }

  function preemptRunning(reason: LaneHold): void {
    for (const stop of running) stop(reason);
  }

  function active(holdFor: number): void {
    activeAt = now();
    holdUntil = Math.max(holdUntil, activeAt + holdFor);
  }

  function waitUntilFree(signal: AbortSignal, expectedMs: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      const finish = (error?: MnemoError) => {
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const onAbort = () => finish(new MnemoError('ABORTED', 'The background request was cancelled while it waited for the model.'));
      const check = () => {
        if (signal.aborted) return onAbort();
        const reason = hold();
        if (reason === null && fits(expectedMs)) return finish();
        // Hours, perhaps: the job goes back to the queue, which leaves it unclaimed meanwhile (usesModel).
        if (reason !== null && LONG_HOLDS.has(reason)) return finish(preempted(reason));
        if (timer) clearTimeout(timer);
        timer = setTimeout(check, pollMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      listeners.add(check);
      check();
    });
  }

  return {
    beginChat(threadId) {
      if (!chatFirst) return () => {};
      if (threadId !== undefined) chatThread = threadId;
      chats++;
      endPause(false);
      activeAt = now();
      preemptRunning('chat');
      if (!heartbeat) {
        heartbeat = setInterval(writeShared, CHAT_HEARTBEAT_MS);
        heartbeat.unref?.();
      }
      writeShared();
      changed();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        chats--;
        active(afterChatGraceMs);
        if (chats === 0) {
          pauseSince = now();
          pauseIsReading = true;
          if (heartbeat) clearInterval(heartbeat);
          heartbeat = null;
        }
        writeShared();
        changed();
      };
    },
    typing() {
      if (!chatFirst) return;
      typed = true;
      recallPauses();
      endPause(true);
      pauseSince = now();
      pauseIsReading = false;
      active(typingGraceMs);
      preemptRunning('chat');
      writeShared();
      changed();
    },
    setOnBattery(value) {
      onBattery = value;
      if (hold() === 'battery') preemptRunning('battery');
      changed();
    },
    hold,
    stretchLeftMs,
    conversationLeftMs,
    chattingThreadId(assumed = false) {
      if (conversationLeftMs(assumed) <= 0) return null;
      const thread = chatThread || readShared().threadId;
      return thread > 0 ? thread : null;
    },
    waitsLong() {
      const reason = hold();
      return reason !== null && LONG_HOLDS.has(reason);
    },
    async runBackground(signal, request, expectedMs) {
      if (!chatFirst) return request(signal);
      for (;;) {
        await waitUntilFree(signal, expectedMs);
        const controller = new AbortController();
        let stoppedFor: LaneHold | null = null;
        const stop = (reason: LaneHold) => {
          stoppedFor = reason;
          controller.abort();
        };
        running.add(stop);
        // Another process's chat shows only in the shared file, a schedule switched to paused only in the settings:
        // look at them while the request runs.
        const watch = setInterval(() => {
          const reason = hold();
          if (reason !== null) stop(reason);
        }, pollMs);
        watch.unref?.();
        try {
          // Checked again after the claim: a chat may have begun between the wait and here.
          if (hold() !== null) continue;
          return await request(AbortSignal.any([signal, controller.signal]));
        } catch (e) {
          if (stoppedFor !== null && !signal.aborted) throw preempted(stoppedFor, e);
          throw e;
        } finally {
          running.delete(stop);
          clearInterval(watch);
        }
      }
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      if (heartbeat) clearInterval(heartbeat);
      if (changeTimer) clearTimeout(changeTimer);
      heartbeat = null;
      changeTimer = null;
      listeners.clear();
    },
  };
}

/** Holds that last until the user changes something (a setting, the power cable, coming back), not seconds. */
const LONG_HOLDS: ReadonlySet<LaneHold> = new Set(['paused', 'away', 'battery']);

function preempted(reason: LaneHold, cause?: unknown): MnemoError {
  const why =
    reason === 'chat'
      ? 'the chat needs the model; it will run again when the chat is done'
      : reason === 'paused'
        ? 'learning is paused; it will run when it is switched back on'
        : reason === 'away'
          ? 'learning runs only while you are away'
          : 'learning waits for mains power';
  return new MnemoError('PREEMPTED', `The background request was stopped because ${why}.`, { details: { reason }, ...(cause === undefined ? {} : { cause }) });
}

/** The pause that this share of the user's pauses is shorter than (0: too few to go by). */
function pauseAt(pauses: readonly number[], share: number): number {
  if (pauses.length < PAUSES_NEEDED) return 0;
  const sorted = [...pauses].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * share)]!;
}
/** The typical pause: the median. */
const typicalPause = (pauses: readonly number[]) => pauseAt(pauses, 0.5);
/** A short pause, which a quarter of the user's pauses fall short of: the one a request must fit in (see fits). */
const shortPause = (pauses: readonly number[]) => pauseAt(pauses, SHORT_PAUSE_SHARE);

/**
 * The pauses a shared file remembers: its last PAUSES_KEPT entries that are a pause (a finite number, not negative).
 * Anything else (no list: a file from before it; a list of something else) remembers none.
 */
function rememberedPauses(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.filter((pause): pause is number => typeof pause === 'number' && Number.isFinite(pause) && pause >= 0).slice(-PAUSES_KEPT);
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
