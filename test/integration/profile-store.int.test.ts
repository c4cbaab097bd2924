/**
 * The renderer's profile store ("About you") against a real core on real SQLite and a fake Ollama: it follows the
 * profile live, and it follows the refresh the user asked for until its job ends, whether the job wrote a profile,
 * found nothing to write (no event then: the queue says it is over), or failed (a retried attempt has no event
 * either: the job's row says it; the last one comes as job.failed).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../shared/client';
import { useProfileStore } from '../../renderer/src/memories/profile.store';
import { useChatHarnesses } from '../support/chat-harness';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const PROFILE = '## Name\n- Ana';
const state = () => useProfileStore.getState();

describe('the profile store (About you)', () => {
  const tempDir = useTempDirs();

  beforeEach(() => useProfileStore.setState({ client: null, profile: null, loaded: false, pendingJobId: null, failure: null }));

  async function harness(clock?: TestClock) {
    const h = await harnesses.ollama(tempDir(), clock ? { core: { clock } } : {});
    h.fake.setDefaultReply((req) => ({ content: req.purpose === 'profile' ? PROFILE : 'Hello.' }));
    state().init(h.client);
    await vi.waitFor(() => expect(state().loaded).toBe(true));
    return h;
  }

  it('Refresh now: pending until the job ends, then the profile the model wrote, with how many memories it read', async () => {
    const { core, client } = await harness();
    expect(state().profile).toBeNull();
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));

    expect((await state().refresh()).ok).toBe(true);
    expect(state().pendingJobId).not.toBeNull();
    await core.queue.waitForIdle();
    await vi.waitFor(() => expect(state().pendingJobId).toBeNull());
    expect(state().profile).toMatchObject({ content: PROFILE, editedByUser: false, memoryCount: 1 });
    expect(state().failure).toBeNull();
  });

  it('a refresh with nothing to write yet (no memories) ends without an event, and is not shown as working forever', async () => {
    const { core } = await harness();
    expect((await state().refresh()).ok).toBe(true);
    await core.queue.waitForIdle();
    await vi.waitFor(() => expect(state().pendingJobId).toBeNull());
    expect(state().profile).toBeNull();
  });

  it('follows an edit made elsewhere (another window, the CLI), and saves the user’s text', async () => {
    const { client } = await harness();
    unwrap(await client.call('profile.update', { content: '- Ana, from elsewhere' }));
    await vi.waitFor(() => expect(state().profile?.content).toBe('- Ana, from elsewhere'));

    const saved = await state().save('- Ana\n- Short answers');
    expect(saved.ok).toBe(true);
    expect(state().profile).toMatchObject({ content: '- Ana\n- Short answers', editedByUser: true });
    expect(unwrap(await client.call('profile.get', {}))?.content).toBe('- Ana\n- Short answers');
  });

  it('a failed attempt the queue will retry is a failure that is not final, with its code; the rewrite after it clears it', async () => {
    const { core, client, fake } = await harness();
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    fake.script({ content: '' });
    expect((await state().refresh()).ok).toBe(true);
    await core.queue.waitForIdle();
    await vi.waitFor(() => expect(state().failure).toEqual({ code: 'LLM_BAD_OUTPUT', final: false }));
    expect(state().pendingJobId).not.toBeNull();

    // The user asks again: the new job writes the profile, which clears the failure.
    expect((await state().refresh()).ok).toBe(true);
    expect(state().failure).toBeNull();
    await core.queue.waitForIdle();
    await vi.waitFor(() => expect(state().profile?.content).toBe(PROFILE));
  });

  it('the last failed attempt (job.failed) is final and ends the wait', async () => {
    const clock = createTestClock(Date.now());
    const { core, client, fake } = await harness(clock);
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    fake.setDefaultReply({ content: '' });
    expect((await state().refresh()).ok).toBe(true);
    // Every attempt fails; the clock moves past each backoff instead of the test waiting it out.
    for (let attempt = 0; attempt < 10 && state().pendingJobId !== null; attempt++) {
      await core.queue.waitForIdle();
      clock.advance(60 * 60_000);
      core.queue.poke();
    }
    await vi.waitFor(() => expect(state().failure).toEqual({ code: 'LLM_BAD_OUTPUT', final: true }));
    expect(state().pendingJobId).toBeNull();
  });

  it('a refresh the core refuses (the profile is off) says why and leaves nothing pending', async () => {
    const { client } = await harness();
    unwrap(await client.call('settings.update', { patch: { profileEnabled: false } }));
    const result = await state().refresh();
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(state().pendingJobId).toBeNull();
  });
});
