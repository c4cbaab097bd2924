// The system's zone is the process's: this machine "is" in Shanghai unless the user names a zone in settings.
// Vitest runs each test file in its own process, and Node applies a TZ set at runtime.
process.env.TZ = 'Asia/Shanghai';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Memory } from '../../shared/contract';
import { activityEdges } from '../../renderer/src/timeline/activity-chart';
import { localDateTime } from '../../shared/calendar-day';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

/** Monday 2026-06-15, 07:00 in Shanghai (UTC+8); Sunday 2026-06-14, 23:00 in UTC. */
const SHANGHAI_MONDAY_MORNING = Date.UTC(2026, 5, 14, 23);
/** Sunday 2026-07-19, 20:00 in Los Angeles (UTC−7, summer time); Monday 2026-07-20, 03:00 in UTC. */
const LA_SUNDAY_EVENING = Date.UTC(2026, 6, 20, 3);
const HOUR = 3_600_000;
/** The last millisecond of a day at a UTC offset (hours). */
const endOfDayAt = (y: number, m: number, d: number, offsetHours: number) => Date.UTC(y, m - 1, d + 1) - offsetHours * HOUR - 1;

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const isTitle = (r: FakeInferenceRequest) => r.purpose === 'title';

interface Fact {
  content: string;
  validity: string;
  evidence: string;
}

const harnesses = useChatHarnesses();

describe('local time through the real core', () => {
  const tempDir = useTempDirs();

  /** A core whose background model answers with `facts` when the user's message contains their evidence. */
  async function setup(clock: TestClock, facts: Fact[]) {
    const h = await harnesses.ollama(tempDir(), { core: { embedder: null, startQueue: false, clock } });
    h.fake.setDefaultReply((req) => {
      if (isTitle(req)) return { content: 'A title' };
      if (!isExtraction(req)) return { content: 'Thanks for telling me, I will keep that in mind.' };
      const exchange = req.messages.at(-1)!.content;
      const said = facts.filter((f) => exchange.includes(f.evidence));
      return { content: JSON.stringify({ memories: said.map((f) => ({ ...f, category: 'knowledge', importance: 0.6, confidence: 0.9 })) }) };
    });
    return h;
  }

  async function say(h: { client: Client; core: { queue: { runUntilIdle(): Promise<unknown> } } }, text: string) {
    const sent = unwrap(await h.client.call('chat.send', { text }));
    await h.core.queue.runUntilIdle();
    return sent;
  }

  const memories = async (client: Client) => unwrap(await client.call('memory.list', { limit: 100 })).items;
  const byContent = (items: Memory[], content: string) => items.find((m) => m.content === content)!;
  const prompts = (fake: FakeOllama, extraction: boolean) =>
    fake.requests.filter((r) => r.purpose === (extraction ? 'extract' : 'chat')).map((r) => (r.body as { messages: Array<{ content: string }> }).messages[0]!.content);
  const usedIn = async (client: Client, question: string) => {
    const sent = unwrap(await client.call('chat.send', { text: question }));
    return sent.memoriesUsed.map((m) => m.memoryId);
  };

  it('Shanghai at 07:00, zone from the system: the model is told Monday; "today" holds until the Shanghai midnight, then leaves retrieval and shows expired', async () => {
    const clock = createTestClock(SHANGHAI_MONDAY_MORNING);
    const h = await setup(clock, [
      { content: 'Has a dentist appointment at noon', validity: 'today', evidence: 'dentist appointment today at noon' },
      { content: 'Is flying to Shanghai for a trade fair', validity: 'next Friday', evidence: 'flying to Shanghai next Friday' },
    ]);
    expect(unwrap(await h.client.call('settings.get', {})).timeZone).toBe('');
    await say(h, 'I have a dentist appointment today at noon, and I am flying to Shanghai next Friday for a trade fair.');

    expect(prompts(h.fake, false)[0]).toContain('Today is 2026-06-15.');
    expect(prompts(h.fake, true)[0]).toContain('The message was written on 2026-06-15 (Monday).');
    const learned = await memories(h.client);
    const dentist = byContent(learned, 'Has a dentist appointment at noon');
    expect(dentist.expiresAt).toBe(endOfDayAt(2026, 6, 15, 8));
    expect(byContent(learned, 'Is flying to Shanghai for a trade fair').expiresAt).toBe(endOfDayAt(2026, 6, 26, 8));

    // 09:00 in Shanghai, past the UTC midnight at which "today" used to end.
    clock.set(SHANGHAI_MONDAY_MORNING + 2 * HOUR);
    expect(await usedIn(h.client, 'When is my dentist appointment?')).toContain(dentist.id);
    expect(byContent(await memories(h.client), dentist.content).expired).toBe(false);

    // Midnight in Shanghai: the appointment is over.
    clock.set(endOfDayAt(2026, 6, 15, 8) + 1);
    expect(await usedIn(h.client, 'When is my dentist appointment?')).not.toContain(dentist.id);
    const after = await memories(h.client);
    expect(byContent(after, dentist.content)).toMatchObject({ status: 'active', expired: true });
    expect(byContent(after, 'Is flying to Shanghai for a trade fair').expired).toBe(false);

    // The timeline's chart, in the user's days: both memories were learned on Monday, Shanghai time.
    const { buckets } = unwrap(await h.client.call('timeline.activity', { edges: activityEdges(clock.now(), 'day', 'Asia/Shanghai') }));
    expect(buckets.at(-2)).toMatchObject({ start: Date.UTC(2026, 5, 14, 16), learned: 2 });
  });

  it('Los Angeles at 20:00 in summer, zone from the settings (an unknown zone is refused): Sunday stays Sunday', async () => {
    const clock = createTestClock(LA_SUNDAY_EVENING);
    const h = await setup(clock, [
      { content: 'Car is at the mechanic', validity: 'tomorrow', evidence: 'car is at the mechanic until tomorrow' },
      { content: 'Is reading a mystery novel', validity: 'this week', evidence: 'reading a mystery novel this week' },
    ]);
    const refused = await h.client.call('settings.update', { patch: { timeZone: 'America/Los_Angles' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: 'patch.timeZone', message: expect.stringContaining('Unknown time zone') } });
    expect(unwrap(await h.client.call('settings.update', { patch: { timeZone: 'america/los_angeles' } })).timeZone).toBe('America/Los_Angeles');

    await say(h, 'My car is at the mechanic until tomorrow, and I am reading a mystery novel this week.');
    expect(prompts(h.fake, false)[0]).toContain('Today is 2026-07-19.');
    expect(prompts(h.fake, true)[0]).toContain('The message was written on 2026-07-19 (Sunday).');
    const learned = await memories(h.client);
    expect(byContent(learned, 'Car is at the mechanic').expiresAt).toBe(endOfDayAt(2026, 7, 20, -7));
    // "This week" on a Sunday evening is tonight, not the week that starts in UTC.
    expect(byContent(learned, 'Is reading a mystery novel').expiresAt).toBe(endOfDayAt(2026, 7, 19, -7));

    const md = unwrap(await h.client.call('memory.export', { format: 'md' }));
    expect(md.filename).toBe('mnemo-memories-2026-07-19.md');
    expect(md.content).toContain('expires 2026-07-20');
  });

  it('durations the model gives become expiries; once past, a memory leaves retrieval and shows expired', async () => {
    const clock = createTestClock(LA_SUNDAY_EVENING);
    const h = await setup(clock, [
      { content: 'Is house-sitting for a neighbour', validity: '7d', evidence: 'I am house-sitting for my neighbour' },
      { content: 'Sister is staying over', validity: '24h', evidence: 'My sister stays with me for 24 hours' },
      { content: 'Is debugging the payment service', validity: 'this session', evidence: 'I am debugging the payment service' },
      { content: 'Office is closed', validity: 'until September', evidence: 'My office is closed until September' },
      { content: 'Is on a diet', validity: 'for two weeks', evidence: 'I am on a diet for two weeks' },
      { content: '下个月在杭州工作', validity: '下个月', evidence: '下个月我在杭州工作' },
      { content: '两周内不喝咖啡', validity: '两周', evidence: '两周内不喝咖啡' },
    ]);
    unwrap(await h.client.call('settings.update', { patch: { timeZone: 'America/Los_Angeles' } }));
    await say(h, 'For the next seven days I am house-sitting for my neighbour. My sister stays with me for 24 hours. Right now I am debugging the payment service.');
    await say(h, 'My office is closed until September, so I work from home. Also I am on a diet for two weeks.');
    await say(h, '下个月我在杭州工作，医生说我两周内不喝咖啡。');

    const expiries = Object.fromEntries((await memories(h.client)).map((m) => [m.content, m.expiresAt]));
    expect(expiries).toEqual({
      'Is house-sitting for a neighbour': endOfDayAt(2026, 7, 26, -7),
      'Sister is staying over': endOfDayAt(2026, 7, 20, -7),
      'Is debugging the payment service': endOfDayAt(2026, 7, 19, -7),
      'Office is closed': endOfDayAt(2026, 9, 30, -7),
      'Is on a diet': endOfDayAt(2026, 8, 2, -7),
      '下个月在杭州工作': endOfDayAt(2026, 8, 31, -7),
      '两周内不喝咖啡': endOfDayAt(2026, 8, 2, -7),
    });

    const debugging = byContent(await memories(h.client), 'Is debugging the payment service');
    expect(await usedIn(h.client, 'Which service am I debugging?')).toContain(debugging.id);
    clock.set(endOfDayAt(2026, 7, 19, -7) + 1); // the session's day is over
    expect(await usedIn(h.client, 'Which service am I debugging?')).not.toContain(debugging.id);
    expect(unwrap(await h.client.call('memory.list', { expired: true, limit: 100 })).items.map((m) => m.content)).toEqual(['Is debugging the payment service']);

    clock.set(endOfDayAt(2026, 9, 30, -7) + 1); // October: every one of them is over
    const all = await memories(h.client);
    expect(all).toHaveLength(7);
    expect(all.every((m) => m.expired && m.status === 'active')).toBe(true);
  });

  it('the terminal host reads --expires DATE as the end of that day in the user\'s zone, and refuses a day that does not exist', async () => {
    const dir = tempDir();
    const env = { TZ: 'Asia/Shanghai', MNEMO_MODELS_DIR: path.join(dir, 'no-models') };
    const added = await runCliInProcess(['memory', 'add', 'Passport renewal is due', '--expires', '2099-06-15', '--json', '--data-dir', dir], env);
    expect(added.code, added.stderr).toBe(0);
    expect((JSON.parse(added.stdout) as Memory).expiresAt).toBe(endOfDayAt(2099, 6, 15, 8));
    const refused = await runCliInProcess(['memory', 'add', 'Passport renewal is due', '--expires', '2099-02-30', '--data-dir', dir], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr + refused.stdout).toContain('--expires must be a date like 2026-03-01');
  }, 120_000);

  it('the terminal prints times on the user\'s clock: the zone in settings, else the system\'s', async () => {
    const dir = tempDir();
    const env = { TZ: 'Asia/Shanghai', MNEMO_MODELS_DIR: path.join(dir, 'no-models') };
    const added = await runCliInProcess(['memory', 'add', 'Passport renewal is due', '--expires', '2099-06-15', '--json', '--data-dir', dir], env);
    expect(added.code, added.stderr).toBe(0);
    const memory = JSON.parse(added.stdout) as Memory;
    const show = async () => (await runCliInProcess(['memory', 'show', String(memory.id), '--data-dir', dir], env)).stdout;

    const inShanghai = await show();
    expect(inShanghai).toContain('expires     2099-06-15 23:59\n'); // the end of that day where the user is
    expect(inShanghai).toContain(`created     ${localDateTime(memory.createdAt, 'Asia/Shanghai')}`);

    expect((await runCliInProcess(['settings', 'set', 'timeZone', 'America/Los_Angeles', '--data-dir', dir], env)).code).toBe(0);
    const inLosAngeles = await show();
    expect(inLosAngeles).toContain('expires     2099-06-15 08:59\n'); // the same instant: 15:59 UTC, summer time
    expect(inLosAngeles).toContain(`created     ${localDateTime(memory.createdAt, 'America/Los_Angeles')}`);
  }, 120_000);
});
