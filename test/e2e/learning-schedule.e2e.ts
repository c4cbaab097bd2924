/**
 * One model, one lane, as the user meets it (issue 25), in Chromium against `npm run web` and a fake Ollama: the user
 * pauses learning in Settings and the status bar says so, with the way back and how far behind learning is (in both
 * languages); typing a message holds background work that waits for the model; a reply streaming slowly holds it too,
 * and once the reply is done learning runs and the line goes. What reaches the fake model server is the proof: no
 * background request starts while the user types or an answer streams. axe checks Settings and the chat.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const SLOW = { timeout: 20_000 };
const STORY_CHUNKS = 30;
const STORY_CHUNK_MS = 300;
const STORY = Array.from({ length: STORY_CHUNKS }, (_, i) => (i === STORY_CHUNKS - 1 ? 'THE-END' : `word${i}`));
const STORY_REQUEST = 'Tell me a long story about Porto';

const isTitle = (r: FakeInferenceRequest) => r.purpose === 'title';

describe('when Mnemo learns: the status bar, typing and a streaming reply hold background work (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;
  /**
   * When each exchange's learning reached the fake model server (ms since the epoch): a request learning a stretch of
   * the thread's exchanges at once counts once for each of them.
   */
  const learningAt: number[] = [];
  /** When the slow story's request arrived: it streams for about STORY_CHUNKS × STORY_CHUNK_MS from then. */
  let storyAt = 0;

  function reply(request: FakeInferenceRequest): FakeReply {
    if (isLearning(request.purpose)) {
      const exchanges = (request.messages.at(-1)?.content.match(/"user": /g) ?? []).length;
      for (let i = 0; i < Math.max(1, exchanges); i++) learningAt.push(Date.now());
      return { content: '{"memories": []}' };
    }
    if (isTitle(request)) return { content: 'Family in Porto' };
    const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (last === STORY_REQUEST) {
      storyAt = Date.now();
      return { chunks: STORY.map((w) => `${w} `), delayMsPerChunk: STORY_CHUNK_MS };
    }
    return { content: `Noted: ${last}` };
  }

  const statusText = () => chat.statusBar.innerText();
  const behind = async () => unwrap(await api.call('queue.status', {})).learning.behind;

  beforeAll(async () => {
    session = await startWebSession({ name: 'learning', reply });
    ({ app, page, api } = session);
    // Working memory asks the background model too; this file follows learning alone.
    unwrap(await api.call('settings.update', { patch: { workingMemoryEnabled: false } }));
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => session?.close());

  it('the user pauses learning in Settings: the status bar says so, how far behind it is, and leads back to the choice', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible(), SLOW).toBe(true);
    await settings.openButton.click();
    expect(await settings.learningSchedule('While I chat').isChecked()).toBe(true);
    await settings.learningSchedule('Paused').check();
    await expect.poll(statusText, SLOW).toContain('Learning paused');
    expect(unwrap(await api.call('settings.get', {})).learningSchedule).toBe('paused');
    // Saved the moment it is chosen, and marked so, as every such control is; the form's choices beside it are not.
    const mark = 'Applies at once';
    expect(await page.getByRole('group', { name: 'Background model work' }).innerText()).toContain(mark);
    expect(await page.getByRole('region', { name: 'Appearance' }).innerText()).toContain(mark);
    const switchHint = await page.getByRole('switch', { name: 'Keep a working memory for each thread' }).evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    expect(switchHint.startsWith(mark)).toBe(true);
    expect(await page.getByRole('group', { name: 'Learning from conversations' }).innerText()).not.toContain(mark);
    // Wait for mains power is the desktop app's alone: the browser has no battery to wait for.
    expect(await page.getByRole('switch', { name: 'Wait for mains power' }).count()).toBe(0);
    await expect.poll(() => page.getByText(/^(No background model work yet this session|Background model time this session)/).count(), SLOW).toBe(1);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await settings.back.click();
    await chat.shortcut('Control+n');
    await chat.send('My sister Ana lives in Porto and works as an architect.');
    await expect.poll(() => chat.lastAnswer().textContent(), SLOW).toContain('Noted');
    await chat.send('She is moving to Lisbon next spring with her two cats.');
    await expect.poll(() => chat.answers.count(), SLOW).toBe(2);
    await expect.poll(() => chat.lastAnswer().textContent(), SLOW).toContain('Noted');
    await expect.poll(behind, SLOW).toBe(2);
    await expect.poll(statusText, SLOW).toContain('Learning paused · about 2 exchanges behind');
    expect(learningAt).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // The way back: the bar's button opens Settings with the keyboard on the chosen schedule.
    await chat.statusBar.getByRole('button', { name: /^Change/ }).click();
    await expect.poll(() => settings.heading.isVisible(), SLOW).toBe(true);
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? null), SLOW).toBe('paused');
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'learning-settings.png') });
    await settings.back.click();
  });

  it('says the same in 简体中文', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), SLOW).toBe('zh-CN');
    await expect.poll(statusText, SLOW).toContain('学习已暂停 · 约有 2 轮对话尚未学习');
    expect(await chat.statusBar.getByRole('button', { name: /^更改/ }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), SLOW).toBe('en');
  });

  it('typing holds learning: switched back on while the user types, it waits until they stop', async () => {
    const typed = chat.composer.pressSequentially('Remind me what Ana does for a living, and where she is moving', { delay: 100 });
    // Learning is switched back on mid-sentence: the jobs queued while paused could run now, but the user is typing.
    await expect.poll(() => chat.composer.inputValue(), SLOW).toMatch(/^Remind me/);
    unwrap(await api.call('settings.update', { patch: { learningSchedule: 'gaps' } }));
    await expect.poll(statusText, SLOW).toContain('Learning paused while you chat');
    await typed;
    const stoppedTyping = Date.now();
    expect(learningAt).toEqual([]);
    // A few seconds after the last keystroke the model is free again: both exchanges are learned from.
    await expect.poll(() => learningAt.length, SLOW).toBe(2);
    expect(Math.min(...learningAt)).toBeGreaterThanOrEqual(stoppedTyping);
    await expect.poll(behind, SLOW).toBe(0);
    await expect.poll(statusText, SLOW).toContain('Background: idle');
    await chat.composer.fill('');
  });

  it('a slow reply holds the learning queued before it; once the reply is done, learning runs and the line goes', async () => {
    // An exchange left to learn from, queued while learning is paused, then a long answer.
    unwrap(await api.call('settings.update', { patch: { learningSchedule: 'paused' } }));
    await expect.poll(statusText, SLOW).toContain('Learning paused');
    await chat.send('Ana’s cats are called Pastel and Nata.');
    await expect.poll(() => chat.answers.count(), SLOW).toBe(3);
    await expect.poll(behind, SLOW).toBe(1);
    await chat.send(STORY_REQUEST);
    await expect.poll(() => chat.lastAnswer().textContent(), SLOW).toContain('word2');
    unwrap(await api.call('settings.update', { patch: { learningSchedule: 'gaps' } }));
    await expect.poll(statusText, SLOW).toContain('Learning paused while you chat');
    expect(await statusText()).not.toContain('learning from a reply');
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'learning-waits.png') });
    expect(await seriousViolations(page)).toEqual([]);

    await expect.poll(() => chat.lastAnswer().textContent(), { timeout: 30_000 }).toContain('THE-END');
    // The exchange queued before the story, then the story's own: not one learning request while the story streamed.
    await expect.poll(() => learningAt.length, SLOW).toBe(4);
    const storyEnd = storyAt + (STORY_CHUNKS - 1) * STORY_CHUNK_MS;
    expect(learningAt.slice(2).filter((at) => at < storyEnd)).toEqual([]);
    await expect.poll(behind, SLOW).toBe(0);
    await expect.poll(statusText, SLOW).not.toContain('Learning paused');
  });
});
