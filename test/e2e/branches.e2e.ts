/**
 * Edit and resend, versions and regenerate in Chromium against `npm run web` and a fake Ollama that records every
 * request: editing a question answers on a new branch (‹ 2/2 ›) whose prompt holds only the new text, switching to
 * 1/2 shows the old continuation, regenerating an answer adds a version beside it, an empty edit cannot be sent; all
 * with the keyboard (focus follows each new version, never dropped to the page), and axe finds nothing serious. A
 * summary written from another version says so; a memory learned from a question edited away opens on its version.
 * One web host and one page: each test continues the previous one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { unwrap, type Client } from '../../shared/client';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { VersionsPage } from './pages/versions.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

/** The chat answers (not titles, summaries or extraction), in the order they were asked. */
function answerRequests(fake: FakeOllama): FakeInferenceRequest[] {
  return fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as unknown as FakeInferenceRequest);
}

describe('edit, versions and regenerate (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let versions: VersionsPage;
  let api: Client;
  let answers = 0;

  beforeAll(async () => {
    session = await startWebSession({ name: 'branches', reply: (request) => {
      const last = request.messages.at(-1)?.content ?? '';
      if (request.purpose === 'title') return { content: 'Drinks' };
      if (request.purpose === 'extract') {
        // Learned from the first question only (the later ones repeat it as context): "Likes tea".
        const learned = last.includes('I like tea') && !last.includes('What should I drink');
        const memories = learned ? [{ content: 'Likes tea', category: 'preference', importance: 0.8, confidence: 0.95, validity: 'permanent', evidence: 'I like tea' }] : [];
        return { content: JSON.stringify({ memories }) };
      }
      answers += 1;
      return { content: `Answer ${answers} to: ${last}` };
    } });
    ({ fake, app, page, api } = session);
    chat = new ChatPage(page);
    versions = new VersionsPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => session?.close());

  it('edits an earlier question with the keyboard: the answer comes on a new branch, ‹ 2/2 ›, and the model saw only the new text', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    await chat.shortcut('Control+n');
    await chat.send('I like tea');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('to: I like tea');
    await chat.send('What should I drink tonight?');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('to: What should I drink tonight?');

    const first = chat.questions.first();
    // Escape leaves the edit and gives focus back to the Edit button (usable once the answer is done).
    await expect.poll(() => versions.editButton(first).isEnabled()).toBe(true);
    await versions.activate(versions.editButton(first));
    await expect.poll(() => versions.hasFocus(versions.editField(first))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => versions.hasFocus(versions.editButton(first))).toBe(true);
    await page.keyboard.press('Enter');
    const field = versions.editField(first);
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    // An empty edit cannot be sent, and says why.
    await field.fill('   ');
    expect(await versions.sendEditButton(first).isDisabled()).toBe(true);
    await expect.poll(() => first.textContent()).toContain('An edited message cannot be empty.');
    await field.fill('I like coffee');
    await field.press('Enter');

    await expect.poll(() => chat.lastAnswer().textContent()).toContain('to: I like coffee');
    await expect.poll(() => chat.questions.allTextContents()).toEqual([expect.stringContaining('I like coffee')]);
    expect(await chat.answers.count()).toBe(1);
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 2 of 2');
    // The edited question is a new message: focus went to its ‹ (back to version 1), not to the page.
    await expect.poll(() => versions.hasFocus(versions.previous(chat.questions.first()))).toBe(true);
    const prompt = answerRequests(fake).at(-1)!.messages.slice(1).map((m) => m.content);
    expect(prompt).toEqual(['I like coffee']);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'branches.png') });
    // Dismissing the notices for the picture moved focus; the next test goes on from ‹, where the edit left it.
    await versions.previous(chat.questions.first()).focus();
  });

  it('switches to version 1 of 2 with the keyboard: the old question and everything after it are back', async () => {
    const first = chat.questions.first();
    expect(await versions.next(first).getAttribute('aria-disabled')).toBe('true');
    // Enter on ‹ (focus is there since the edit): version 1, and focus stays on ‹ of the version now shown.
    await page.keyboard.press('Enter');
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 1 of 2');
    await expect.poll(() => versions.hasFocus(versions.previous(chat.questions.first()))).toBe(true);
    // ‹ on the first version does nothing and keeps focus; Tab reaches ›.
    expect(await versions.previous(chat.questions.first()).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 1 of 2');
    await page.keyboard.press('Tab');
    expect(await versions.hasFocus(versions.next(chat.questions.first()))).toBe(true);
    await expect.poll(() => chat.questions.allTextContents()).toEqual([expect.stringContaining('I like tea'), expect.stringContaining('What should I drink tonight?')]);
    expect(await chat.answers.count()).toBe(2);
    expect(await chat.lastAnswer().textContent()).toContain('to: What should I drink tonight?');
    // The next question continues this branch: its prompt is the old path.
    await chat.send('Thanks');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('to: Thanks');
    expect(answerRequests(fake).at(-1)!.messages.slice(1).map((m) => m.content)).toEqual([
      'I like tea',
      expect.stringContaining('to: I like tea'),
      'What should I drink tonight?',
      expect.stringContaining('to: What should I drink tonight?'),
      'Thanks',
    ]);
  });

  it('regenerates an answer: a new version beside the old one, ‹ 2/2 ›, and ‹ back shows the first', async () => {
    const last = chat.lastAnswer();
    const before = (await last.textContent()) ?? '';
    await versions.activate(versions.regenerateButton(last));
    await expect.poll(() => versions.switcher(chat.lastAnswer()).getAttribute('aria-label')).toBe('Version 2 of 2');
    // The new answer took the place of the button pressed: focus is on its ‹, while it was written and after.
    await expect.poll(() => chat.lastAnswer().getByRole('button', { name: 'Copy answer as Markdown' }).count()).toBe(1);
    expect(await versions.hasFocus(versions.previous(chat.lastAnswer()))).toBe(true);
    const after = (await chat.lastAnswer().textContent()) ?? '';
    expect(after).toContain('to: Thanks');
    expect(after).not.toBe(before);
    // Usable once the answer is done (it said so with aria-disabled while it was written).
    await expect.poll(() => versions.previous(chat.lastAnswer()).getAttribute('aria-disabled')).toBe('false');
    await versions.activate(versions.previous(chat.lastAnswer()));
    await expect.poll(() => versions.switcher(chat.lastAnswer()).getAttribute('aria-label')).toBe('Version 1 of 2');
    expect(await versions.hasFocus(versions.previous(chat.lastAnswer()))).toBe(true);
    expect(await chat.lastAnswer().textContent()).toContain(before.match(/Answer \d+/)![0]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('an answer’s buttons keep their words on one line in narrow windows, in English and Chinese', async () => {
    // Issue 30's last walk: beside a long model name and the ‹ 2/2 › switcher, "Copy text" broke into two lines, and in
    // Chinese every button did (复/制, 重新生/成, 上下/文). The row wraps between buttons, never inside one.
    try {
      for (const language of ['en', 'zh-CN'] as const) {
        unwrap(await api.call('settings.update', { patch: { language } }));
        for (const width of [1100, 860, 720]) {
          await page.setViewportSize({ width, height: 700 });
          await expect.poll(() => buttonsBrokenAcrossLines(page), { message: `${language} at ${width} px` }).toEqual([]);
        }
      }
    } finally {
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('a summary written from another version says so in the summary panel, and saving it makes it this version’s', async () => {
    unwrap(await api.call('settings.update', { patch: { summary: { minNewMessages: 2, minNewTokens: 100_000 } } }));
    await chat.send('Remember: tea at five');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('to: Remember: tea at five');
    const threadId = unwrap(await api.call('thread.list', {})).threads[0]!.id;
    await expect.poll(async () => unwrap(await api.call('summary.get', { threadId }))?.content ?? '', { timeout: 20_000 }).not.toBe('');

    await page.getByRole('button', { name: 'Summary', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Thread summary' });
    await expect.poll(() => panel.getByRole('textbox', { name: 'Summary' }).inputValue()).not.toBe('');
    expect(await panel.getByRole('note').count()).toBe(0);

    // Version 2 of the first question: the summary is of version 1's conversation.
    await versions.activate(versions.next(chat.questions.first()));
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 2 of 2');
    const notice = panel.getByRole('note');
    await expect.poll(() => notice.textContent()).toBe(
      'This summary was written from another version of this conversation, so Mnemo leaves it out here. Mnemo will write a new one for the version shown as the conversation goes on.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    // Back on version 1 it is that conversation's again.
    await versions.activate(versions.previous(chat.questions.first()));
    await expect.poll(() => notice.count()).toBe(0);
    await versions.activate(versions.next(chat.questions.first()));
    await expect.poll(() => notice.count()).toBe(1);
    // Saved as it is, it becomes this version's summary: the notice goes.
    const save = panel.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByRole('button', { name: 'Close the summary' }).click();
  });

  it('“Show the message” of a memory learned from a question edited away opens the thread on that version, at that message', async () => {
    expect(await chat.questions.first().textContent()).toContain('I like coffee');
    const memories = new MemoriesPage(page);
    await memories.open();
    await expect.poll(() => memories.row('Likes tea').count(), { timeout: 20_000 }).toBe(1);
    await memories.rowButton('Likes tea').click();
    await memories.detail.getByRole('button', { name: 'Show the message' }).click();

    await expect.poll(() => chat.questions.first().textContent()).toContain('I like tea');
    expect(await versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 1 of 2');
    // The message itself is brought into view and marked.
    await expect.poll(() => chat.questions.first().getAttribute('class')).toContain('flash');
  });
});

/** The message buttons whose label runs onto a second line (their text's line boxes start at more than one height). */
function buttonsBrokenAcrossLines(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.message-meta button')].flatMap((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      return tops.size > 1 ? [(button.textContent ?? '').trim()] : [];
    }),
  );
}
