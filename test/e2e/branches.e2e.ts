/**
 * Edit and resend, versions and regenerate in Chromium against `npm run web` and a fake Ollama that records every
 * request: editing a question answers on a new branch (‹ 2/2 ›) whose prompt holds only the new text, switching to
 * 1/2 shows the old continuation, regenerating an answer adds a version beside it, an empty edit cannot be sent; all
 * with the keyboard, and axe finds nothing serious. One web host and one page: each test continues the previous one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { VersionsPage } from './pages/versions.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

/** The chat answers (not titles, summaries or extraction), in the order they were asked. */
function answerRequests(fake: FakeOllama): FakeInferenceRequest[] {
  return fake.requests
    .filter((r) => r.path === '/api/chat')
    .map((r) => r.body as unknown as FakeInferenceRequest & { format?: unknown })
    .filter((b) => b.format === undefined && b.messages[0]?.content.startsWith('You are Mnemo'));
}

describe('edit, versions and regenerate (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let versions: VersionsPage;
  let answers = 0;

  beforeAll(async () => {
    session = await startWebSession({ name: 'branches', reply: (request) => {
      const last = request.messages.at(-1)?.content ?? '';
      if (last.startsWith('Write a short title')) return { content: 'Drinks' };
      if (request.body.format !== undefined) return { content: JSON.stringify({ memories: [] }) };
      answers += 1;
      return { content: `Answer ${answers} to: ${last}` };
    } });
    ({ fake, app, page } = session);
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
    await versions.activate(versions.editButton(first));
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
    const prompt = answerRequests(fake).at(-1)!.messages.slice(1).map((m) => m.content);
    expect(prompt).toEqual(['I like coffee']);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'branches.png') });
  });

  it('switches to version 1 of 2 with the keyboard: the old question and everything after it are back', async () => {
    const first = chat.questions.first();
    expect(await versions.next(first).isDisabled()).toBe(true);
    await versions.activate(versions.previous(first));
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label')).toBe('Version 1 of 2');
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
    const after = (await chat.lastAnswer().textContent()) ?? '';
    expect(after).toContain('to: Thanks');
    expect(after).not.toBe(before);
    await versions.activate(versions.previous(chat.lastAnswer()));
    await expect.poll(() => versions.switcher(chat.lastAnswer()).getAttribute('aria-label')).toBe('Version 1 of 2');
    expect(await chat.lastAnswer().textContent()).toContain(before.match(/Answer \d+/)![0]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
