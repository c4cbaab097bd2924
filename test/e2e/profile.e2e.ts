/**
 * "About you" as a user meets it, in Chromium against `npm run web` and a fake Ollama whose background model answers
 * the profile request: the empty state before Mnemo knows anything, "Refresh now" while the model works and the
 * profile it writes, the user's edit (Esc cancels, Save keeps it and says so), a failed rewrite said in words (then
 * retried by the queue), and the "Keep a profile" switch, which stays off after a reload.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeOllama, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { TimelinePage } from './pages/timeline.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

const isProfileRequest = (request: FakeInferenceRequest) => request.purpose === 'profile';
/** The background model's profile, a word at a time and slowly enough that the "working" line can be read. */
const PROFILE_REPLY: FakeReply = { content: '## Name\n- Ana\n## Location\n- Lives in Porto', delayMsPerChunk: 250 };

/** The About you panel as the user sees it. */
class AboutYouPanel {
  readonly panel: Locator;
  readonly keepSwitch: Locator;
  readonly refresh: Locator;
  readonly edit: Locator;
  readonly editor: Locator;
  readonly status: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('tabpanel');
    this.keepSwitch = page.getByRole('switch', { name: 'Keep a profile' });
    this.refresh = this.panel.getByRole('button', { name: 'Refresh now' });
    this.edit = this.panel.getByRole('button', { name: 'Edit' });
    this.editor = this.panel.getByRole('textbox', { name: 'Your profile (Markdown)' });
    this.status = this.panel.getByRole('status');
    this.alert = this.panel.getByRole('alert');
  }

  text(): Promise<string> {
    return this.panel.innerText();
  }
}

describe('About you: the profile (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let memories: MemoriesPage;
  let about: AboutYouPanel;

  beforeAll(async () => {
    session = await startWebSession({ name: 'profile', reply: (request) => (isProfileRequest(request) ? PROFILE_REPLY : { content: 'Hello.' }) });
    ({ fake, app, page, api } = session);
    memories = new MemoriesPage(page);
    about = new AboutYouPanel(page);
  });

  afterAll(() => session?.close());

  it('before Mnemo knows anything: the tab (reached with the arrow keys) says what the profile is and that it comes later', async () => {
    await new ChatPage(page).open(app.url);
    await memories.open();
    await memories.tab('Trash').click();
    await page.keyboard.press('ArrowRight');
    const tab = memories.tab('About you');
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => about.text()).toContain('No profile yet');
    expect(await about.text()).toContain('written by the background model from your memories');
    await expect.poll(() => about.text()).toContain('Mnemo writes it once it knows a few things about you.');
    expect(await about.keepSwitch.isChecked()).toBe(true);
    expect(await about.refresh.isEnabled()).toBe(true);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Refresh now: the background model works, then the profile appears, with when and from how many memories', async () => {
    unwrap(await api.call('memory.create', { content: 'Name is Ana', pinned: true }));
    unwrap(await api.call('memory.create', { content: 'Lives in Porto' }));
    await expect.poll(() => about.text()).not.toContain('once it knows a few things');

    await about.refresh.click();
    await expect.poll(() => about.status.textContent()).toContain('The background model is rewriting your profile');
    await expect.poll(() => about.panel.getByRole('heading', { name: 'Location' }).isVisible()).toBe(true);
    expect(await about.text()).toContain('Lives in Porto');
    expect(await about.text()).toMatch(/Rewritten .* from 2 memories/);
    expect(await about.text()).not.toContain('edited by you');
    await expect.poll(() => about.status.textContent()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Edit: Esc cancels; Save keeps the user’s text, says "edited by you", and the core has it', async () => {
    await about.edit.click();
    expect(await about.editor.inputValue()).toBe(PROFILE_REPLY.content);
    await about.editor.fill('## Name\n- Ana\n## Preferences\n- Short answers');
    await about.editor.press('Escape');
    await expect.poll(() => about.editor.count()).toBe(0);
    expect(await about.text()).not.toContain('Short answers');
    await expect.poll(() => memories.focused()).toBe('Edit');

    // Too long for a profile: the core says so, and the text stays in the editor (no silent cut of a paste).
    await about.edit.click();
    const tooLong = `- ${'x'.repeat(20_000)}`;
    await about.editor.fill(tooLong);
    await about.panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => about.alert.textContent()).toContain('Mnemo could not accept this');
    expect(await about.alert.textContent()).toContain('A profile is at most 20,000 characters');
    expect(await about.editor.inputValue()).toBe(tooLong);

    await about.editor.fill('## Name\n- Ana\n## Location\n- Lives in Porto\n## Preferences\n- Short answers');
    expect(await unnamedControls(page)).toEqual([]);
    await about.panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => about.text()).toContain('edited by you');
    expect(await about.text()).toContain('Short answers');
    await expect.poll(() => memories.focused()).toBe('Edit');
    expect(unwrap(await api.call('profile.get', {}))).toMatchObject({ editedByUser: true, content: expect.stringContaining('- Short answers') });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('too long for the prompt: About you says how much the model sees, marks where it stops, offers Shorten; “What the model saw” says it was cut', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `- Note ${i + 1}: enjoys walking by the river on day ${i + 1}`);
    unwrap(await api.call('profile.update', { content: `## Preferences\n${long.join('\n')}` }));
    const { fits } = unwrap(await api.call('profile.get', {}))!;
    expect(fits.cutAt).not.toBeNull();
    await expect.poll(() => about.text()).toContain(`the model sees the first ${fits.lines} of 41 lines`);
    expect(await about.text()).toMatch(new RegExp(`about ${fits.roomTokens.toLocaleString('en')} of its ${fits.tokens.toLocaleString('en')} tokens`));
    // The marker sits between the last line the model reads and the first it never sees.
    const marker = about.panel.getByRole('separator', { name: 'The model stops reading here' });
    expect(await marker.count()).toBe(1);
    const order = await about.panel.evaluate((panel, [last, first]) => {
      const text = panel.textContent ?? '';
      return [text.indexOf(last!), text.indexOf('The model stops reading here'), text.indexOf(first!)];
    }, [long[fits.lines - 2]!.slice(2), long[fits.lines - 1]!.slice(2)]);
    expect(order[0]).toBeLessThan(order[1]!);
    expect(order[1]).toBeLessThan(order[2]!);
    expect(await seriousViolations(page)).toEqual([]);
    await marker.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ROOT, 'docs', 'screenshots', 'profile.png') });

    // The answer's record says the model saw only part of the profile.
    const chat = new ChatPage(page);
    unwrap(await api.call('chat.send', { text: 'What do you know about me?' }));
    await chat.open(app.url);
    await chat.threads.first().getByRole('button').first().click();
    await chat.lastAnswer().getByRole('button', { name: 'Context: what the model saw for this answer' }).click();
    const dialog = page.getByRole('dialog', { name: 'What the model saw' });
    await expect.poll(() => dialog.innerText()).toContain(`Your profile was too long for its share: the model saw its first ${fits.lines} of 41 lines.`);
    await page.keyboard.press('Escape');

    // Shorten: the background model rewrites it once to fit; then all of it goes in, and the page says so.
    await memories.open();
    await memories.tab('About you').click();
    await about.panel.getByRole('button', { name: 'Shorten' }).click();
    await expect.poll(() => about.text(), { timeout: 30_000 }).toContain('All of it goes into every prompt');
    expect(await marker.count()).toBe(0);
    expect(fake.requests.some((r) => (JSON.stringify(r.body) ?? '').includes('The current profile is too long for the assistant to read whole'))).toBe(true);
  });

  it('a rewrite that fails is said in words, and the queue’s retry brings the profile back', async () => {
    fake.script({ content: '' });
    await about.refresh.click();
    await expect.poll(() => about.alert.textContent()).toContain('The background model could not write your profile; it will try again.');
    expect(await about.alert.textContent()).toContain('The model’s answer could not be read.');
    // The retry (a few seconds later) gets the model's usual answer; the user's edit stays the base.
    await expect.poll(() => about.alert.count(), { timeout: 60_000 }).toBe(0);
    expect(await about.text()).toContain('edited by you');
    expect(await about.text()).toMatch(/Rewritten .* from 2 memories/);
  });

  it('a rewrite that fails for good: the timeline says what failed and why, and Try again puts it back in the queue', async () => {
    fake.setDefaultReply((request) => (isProfileRequest(request) ? { content: '' } : { content: 'Hello.' }));
    await about.refresh.click();
    // Every attempt fails (the queue backs off between them); after the last the job is dead, and the timeline says so.
    await expect.poll(async () => unwrap(await api.call('queue.status', {})).dead, { timeout: 180_000 }).toBe(1);
    const timeline = new TimelinePage(page);
    await timeline.open();
    const failure = timeline.events.filter({ has: page.getByText('Profile update failed', { exact: true }) });
    await expect.poll(() => failure.count()).toBe(1);
    // Its own sentence and the reason, not "a memory since deleted forever" (the 2026-11-28 walk).
    expect(await failure.textContent()).toContain('Your profile could not be updated. The model’s answer could not be read.');
    expect(await failure.textContent()).not.toContain('deleted forever');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    fake.setDefaultReply((request) => (isProfileRequest(request) ? PROFILE_REPLY : { content: 'Hello.' }));
    await failure.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => failure.getByRole('status').textContent()).toBe('Queued again.');
    expect(await failure.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    // Back in the queue, it runs again and this time writes the profile: nothing is left waiting, running or dead.
    await expect
      .poll(async () => {
        const { dead, queued, running } = unwrap(await api.call('queue.status', {}));
        return { dead, queued, running };
      }, { timeout: 60_000 })
      .toEqual({ dead: 0, queued: 0, running: null });

    await memories.open();
    await memories.tab('About you').click();
    await expect.poll(() => about.keepSwitch.isVisible()).toBe(true);
  });

  it('Keep a profile off: refreshing is off too, and the switch is still off after a reload', async () => {
    await about.keepSwitch.click();
    await expect.poll(async () => unwrap(await api.call('settings.get', {})).profileEnabled).toBe(false);
    expect(await about.text()).toContain('The profile is off');
    expect(await about.refresh.isEnabled()).toBe(false);

    await page.reload();
    await memories.open();
    await memories.tab('About you').click();
    await expect.poll(() => about.keepSwitch.isVisible()).toBe(true);
    await expect.poll(() => about.keepSwitch.isChecked()).toBe(false);
    // Turning it off keeps the text (the model's last rewrite, built on the user's edit).
    expect(await about.text()).toContain('Lives in Porto');
    expect(await about.text()).toContain('edited by you');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('in Chinese: the tab, the switch and the page speak Chinese', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN', profileEnabled: true } }));
    const tab = page.getByRole('tab', { name: '关于你' });
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByRole('switch', { name: '保留个人档案' }).isChecked()).toBe(true);
    expect(await about.text()).toMatch(/根据 2 条记忆重写/);
    expect(await about.text()).toContain('经你编辑');
    expect(await page.getByRole('button', { name: '立即刷新' }).isEnabled()).toBe(true);
    await page.screenshot({ path: path.join(os.tmpdir(), 'mnemo-profile-zh.png') });
    expect(await unnamedControls(page)).toEqual([]);
  });
});
