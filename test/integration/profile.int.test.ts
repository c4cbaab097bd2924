/**
 * The profile through the core on real SQLite and a fake Ollama: written by the background model from the active
 * memories, kept when the user edits it (and given back to the model as the base), skipped when the memories it reads
 * are unchanged, scheduled a little after memory changes, in every prompt within the memory share, and off when the
 * setting says so.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { PROFILE_DEBOUNCE_MS } from '../../electron/core/profile/profile.service';
import { useChatHarnesses } from '../support/chat-harness';
import { usageFor } from '../support/model-usage';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

type Body = { messages: Array<{ role: string; content: string }> };

describe('the profile', () => {
  const tempDir = useTempDirs();

  async function harness() {
    const h = await harnesses.ollama(tempDir());
    const profileRequests = () =>
      h.fake.requests.filter((r) => r.purpose === 'profile').map((r) => (r.body as Body).messages.at(-1)!.content);
    h.fake.setDefaultReply((req) => {
      if (req.purpose === 'profile') return { content: '<think>Let me see.</think>```markdown\n## Name\n- Ana\n## Location\n- Porto\n```' };
      if (req.purpose === 'title') return { content: 'About me' };
      return { content: 'Hello Ana.' };
    });
    return { ...h, profileRequests };
  }

  it('is written from the active memories (most important first), without the fence and the thinking, and refreshed only when they change', async () => {
    const { core, client, profileRequests } = await harness();
    expect(unwrap(await client.call('profile.get', {}))).toBeNull();
    unwrap(await client.call('memory.create', { content: 'Lives in Porto', importance: 0.6 }));
    unwrap(await client.call('memory.create', { content: 'Name is Ana', pinned: true }));
    const trashed = unwrap(await client.call('memory.create', { content: 'Works at Initech' }));
    unwrap(await client.call('memory.delete', { memoryId: trashed.id }));

    unwrap(await client.call('profile.refresh', {}));
    await core.queue.waitForIdle();
    const profile = unwrap(await client.call('profile.get', {}));
    expect(profile).toMatchObject({ content: '## Name\n- Ana\n## Location\n- Porto', editedByUser: false, memoryCount: 2, refreshedAt: expect.any(Number) });
    const [request] = profileRequests();
    expect(request).toContain('Write the profile in English.');
    expect(request!.indexOf('- [knowledge] Name is Ana')).toBeLessThan(request!.indexOf('- [knowledge] Lives in Porto'));
    expect(request).not.toContain('Initech');

    // The daily refresh of an unchanged set asks nothing of the model; a changed set is read again.
    unwrap(await client.call('settings.update', { patch: { language: 'zh-CN' } }));
    core.queue.enqueue({ kind: 'profile', payload: { reason: 'daily' }, idempotencyKey: 'profile:daily:test-1' });
    await core.queue.waitForIdle();
    expect(profileRequests()).toHaveLength(1);
    unwrap(await client.call('memory.create', { content: '喜欢绿茶' }));
    core.queue.enqueue({ kind: 'profile', payload: { reason: 'daily' }, idempotencyKey: 'profile:daily:test-2' });
    await core.queue.waitForIdle();
    expect(profileRequests()).toHaveLength(2);
    expect(profileRequests()[1]).toContain('Write the profile in Simplified Chinese');
    expect(profileRequests()[1]).toContain('喜欢绿茶');
    // Both went through the background-model gateway: it counted each of them.
    expect((await usageFor(client, 'profile')).requests).toBe(2);
  });

  it('a memory change schedules one rewrite at the end of a five-minute window, not one per memory', async () => {
    const { client } = await harness();
    for (const content of ['Likes chess', 'Likes tea', 'Likes rain']) unwrap(await client.call('memory.create', { content }));
    const jobs = unwrap(await client.call('queue.list', {})).jobs.filter((j) => j.kind === 'profile');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.runAfter % PROFILE_DEBOUNCE_MS).toBe(0);
    expect(jobs[0]!.runAfter).toBeGreaterThan(Date.now());
  });

  it("keeps the user's edit and builds on it; every prompt carries the profile, incognito threads do not", async () => {
    const { core, client, fake, profileRequests } = await harness();
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    const edited = unwrap(await client.call('profile.update', { content: '## Name\n- Ana (call me Annie)\n## Instructions for the assistant\n- Answer briefly' }));
    expect(edited).toMatchObject({ editedByUser: true, refreshedAt: null });

    const reply = unwrap(await client.call('chat.send', { text: 'What do you know about me?' }));
    const chatBodies = () =>
      fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as Body);
    const system = chatBodies().at(-1)!.messages[0]!.content;
    expect(system).toContain('Profile of the user');
    expect(system).toContain('- Ana (call me Annie)');
    expect(reply.assistantMessage.content).toBe('Hello Ana.');

    const incognito = unwrap(await client.call('thread.create', { incognito: true }));
    unwrap(await client.call('chat.send', { threadId: incognito.id, text: 'Who am I?' }));
    expect(chatBodies().at(-1)!.messages[0]!.content).not.toContain('Annie');

    unwrap(await client.call('profile.refresh', {}));
    await core.queue.waitForIdle();
    const request = profileRequests().at(-1)!;
    expect(request).toContain('The user edited the current profile themselves');
    // The profile the user wrote is data to the model, in the fence like the notes.
    expect(request).toContain('Current profile:\n```text\n## Name\n- Ana (call me Annie)');
    expect(unwrap(await client.call('profile.get', {}))).toMatchObject({ editedByUser: true, refreshedAt: expect.any(Number) });
  });

  it('too long for its share: profile.get says how much fits by the prompt’s own rule, the prompt holds exactly those lines, the record says it was cut; Shorten asks for a rewrite that fits', async () => {
    const { core, client, fake, profileRequests } = await harness();
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    const lines = Array.from({ length: 60 }, (_, i) => `- Fact number ${i + 1}: likes the colour ${['red', 'green', 'blue'][i % 3]} on day ${i + 1}`);
    unwrap(await client.call('profile.update', { content: `## Preferences\n${lines.join('\n')}` }));

    const { fits } = unwrap(await client.call('profile.get', {}))!;
    expect(fits.ofLines).toBe(61);
    expect(fits.lines).toBeGreaterThan(5);
    expect(fits.lines).toBeLessThan(61);
    expect(fits.cutAt).toBe(fits.lines);
    expect(fits.tokens).toBeGreaterThan(fits.roomTokens);
    expect(fits).toMatchObject({ model: 'llama3.2', contextWindow: 4096 }); // the fake model's maximum caps the setting

    const reply = unwrap(await client.call('chat.send', { text: 'What do you know about me?' }));
    const system = (fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Body).find((b) => b.messages.at(-1)!.content === 'What do you know about me?'))!.messages[0]!.content;
    // The last line that fits is in the prompt, the first one that does not is not.
    expect(system).toContain(`${lines[fits.lines - 2]}\n`);
    expect(system).not.toContain(lines[fits.lines - 1]);
    const context = unwrap(await client.call('chat.context', { messageId: reply.assistantMessage.id }))!;
    expect(context.memories.profileCut).toEqual({ lines: fits.lines, ofLines: 61 });

    // A smaller window: less fits, by the same rule.
    unwrap(await client.call('settings.update', { patch: { contextWindowTokens: 2048 } }));
    const smaller = unwrap(await client.call('profile.get', {}))!.fits;
    expect(smaller.lines).toBeLessThan(fits.lines);
    expect(smaller.contextWindow).toBe(2048);

    unwrap(await client.call('profile.refresh', { shorten: true }));
    await core.queue.waitForIdle();
    expect(profileRequests().at(-1)).toContain('The current profile is too long for the assistant to read whole');
    const shortened = unwrap(await client.call('profile.get', {}))!;
    expect(shortened.fits).toMatchObject({ cutAt: null, lines: shortened.fits.ofLines });
    // Nothing left to shorten: said, not a wasted model call.
    expect(await client.call('profile.refresh', { shorten: true })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(profileRequests()).toHaveLength(1);
  });

  it('exports as Markdown under "About you" before the memories; that file imports into another Mnemo without the profile becoming memories', async () => {
    const { client } = await harness();
    unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    unwrap(await client.call('memory.create', { content: 'Likes green tea', category: 'preference' }));
    unwrap(await client.call('profile.update', { content: '## Name\n- Ana\n## Instructions for the assistant\n- Answer briefly' }));
    const md = unwrap(await client.call('memory.export', { format: 'md' })).content;
    expect(md).toMatch(/^# What Mnemo remembers about you \(.*\)\n\n## About you\n\n#### Name\n- Ana\n#### Instructions for the assistant\n- Answer briefly\n\n## Knowledge\n/);

    const other = await harness();
    const report = unwrap(await other.client.call('memory.import', { content: md }));
    expect(report.items.map((i) => [i.content, i.category])).toEqual([
      ['Lives in Porto', 'knowledge'],
      ['Likes green tea', 'preference'],
    ]);
    expect(report.written).toBe(2);
  });

  it('turned off: not in the prompt, no refresh on memory changes, and refresh now is refused with what to do', async () => {
    const { client, fake } = await harness();
    unwrap(await client.call('profile.update', { content: '- Ana' }));
    unwrap(await client.call('settings.update', { patch: { profileEnabled: false } }));
    unwrap(await client.call('memory.create', { content: 'Likes chess' }));
    expect(unwrap(await client.call('queue.list', {})).jobs.filter((j) => j.kind === 'profile')).toEqual([]);
    expect(await client.call('profile.refresh', {})).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('Turn it on') } });
    unwrap(await client.call('chat.send', { text: 'hi' }));
    const body = fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Body)[0]!;
    expect(body.messages[0]!.content).not.toContain('Profile of the user');
    // Clearing the text removes the profile.
    expect(unwrap(await client.call('profile.update', { content: '  ' }))).toBeNull();
  });
});
