/**
 * The chat as a new user meets it, in Chromium against `npm run web` and a fake Ollama speaking the real protocol:
 * no model yet (onboarding, a download that fails half-way, then succeeds), a streamed markdown answer, stopping
 * a reply, Ollama going away and coming back, thread management with the keyboard, the summary, and settings.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceRequest, FakeOllama, FakeReply } from '../fakes/fake-ollama';
import { unnamedControls } from './support/a11y';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { SettingsPage } from './pages/settings.page';
import { ROOT, type RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const IMAGE_URL = 'http://images.example.invalid/cat.png';
const MARKDOWN_ANSWER = [
  'Here is a **TypeScript** example:',
  '',
  '```ts',
  'function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
  '',
  `And a cat: ![a sleepy cat](${IMAGE_URL})`,
  '',
  'See [the docs](https://example.com/docs) — but not [this](javascript:alert(1)).',
  '',
  '<b>raw html stays text</b>',
].join('\n');
const STORY_WORDS = Array.from({ length: 80 }, (_, i) => (i === 0 ? 'Once' : i === 79 ? 'THE-END' : `word${i}`));

/** Replies by what was asked, so background jobs (titles, summaries) never take a reply meant for the chat. */
function reply(request: FakeInferenceRequest): FakeReply {
  const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (request.purpose === 'title') return { content: last.includes('markdown') ? 'Markdown tour' : last.includes('garden plan') ? 'Garden plan' : 'Small talk' };
  if (last.includes('markdown')) return { content: MARKDOWN_ANSWER, thinking: 'The user wants code and an image.' };
  if (last === 'Tell me a long story') return { chunks: STORY_WORDS.map((w) => `${w} `), delayMsPerChunk: 300 };
  return { content: `You said: ${last}` };
}

describe('chat in the browser (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let dataDir: string;
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;
  const foreignRequests: string[] = [];

  beforeAll(async () => {
    session = await startWebSession({ name: 'chat', ollama: { models: [] }, reply });
    ({ fake, app, page, api, dataDir } = session);
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(app.baseUrl) && !url.startsWith(app.baseUrl.replace('http', 'ws'))) foreignRequests.push(url);
    });
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => session?.close());

  it('first start without a model: onboarding, a download that fails half-way, one the user cancels, then one that completes', async () => {
    await chat.open(app.url);
    const onboarding = chat.setup(/Welcome to Mnemo/);
    await expect.poll(() => onboarding.isVisible()).toBe(true);
    await expect.poll(() => onboarding.textContent()).toContain('llama3.2');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'onboarding.png') });
    expect(await unnamedControls(page)).toEqual([]);

    fake.setFault({ kind: 'error-mid-stream', afterChunks: 5, paths: ['/api/pull'], message: 'connection reset by peer' });
    await onboarding.getByRole('button', { name: 'Download llama3.2' }).click();
    const progress = onboarding.getByRole('progressbar', { name: 'Download of llama3.2' });
    await expect.poll(() => onboarding.getByRole('alert').textContent()).toMatch(/connection reset by peer/);
    // The bar shows how far it got before the failure: progress events reached the page.
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThan(0);

    // A download the user stops: Ollama is slow to start it; Cancel brings the Download button back, without an error.
    fake.setFault({ kind: 'slow-first-token', delayMs: 60_000, paths: ['/api/pull'] });
    await onboarding.getByRole('button', { name: 'Try again' }).click();
    await onboarding.getByRole('button', { name: 'Cancel the download of llama3.2' }).click();
    await expect.poll(() => onboarding.getByRole('button', { name: 'Download llama3.2' }).isVisible()).toBe(true);
    expect(await onboarding.getByRole('alert').count()).toBe(0);

    fake.setFault(null);
    await onboarding.getByRole('button', { name: 'Download llama3.2' }).click();
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    expect(await onboarding.count()).toBe(0);
    await expect.poll(() => chat.statusBar.textContent()).toContain('Ollama 0.12.6 · llama3.2');
  });

  it('Ctrl+N starts a thread; Shift+Enter adds a line, Enter sends; the answer streams as safe markdown', async () => {
    // A pinned memory is always used, so the answer carries a receipt.
    const memory = await api.call('memory.create', { content: 'Prefers TypeScript examples', pinned: true });
    expect(memory.ok).toBe(true);

    await chat.shortcut('Control+n');
    await expect.poll(() => chat.threads.count()).toBe(1);
    await expect.poll(() => chat.composer.evaluate((el) => el === document.activeElement)).toBe(true);
    await chat.composer.pressSequentially('Show me some');
    await chat.composer.press('Shift+Enter');
    await chat.composer.pressSequentially('markdown please');
    expect(await chat.composer.inputValue()).toBe('Show me some\nmarkdown please');
    await chat.composer.press('Enter');

    await expect.poll(() => chat.questions.last().locator('.bubble').textContent()).toBe('Show me some\nmarkdown please');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.getByRole('button', { name: 'Copy answer as Markdown' }).count()).toBe(1);

    // Code: highlighted, with its language and a copy button.
    const code = answer.locator('pre code');
    expect(await code.textContent()).toContain('function greet(name: string): string {');
    expect(await code.locator('.hljs-keyword').count()).toBeGreaterThan(0);
    expect(await answer.getByText('ts', { exact: true }).count()).toBe(1);
    expect(await answer.getByRole('button', { name: 'Copy code' }).count()).toBe(1);

    // The remote image is an inert placeholder: no <img>, and nothing ever asked its host.
    const image = answer.getByRole('img', { name: /Image not loaded/ });
    expect(await image.textContent()).toContain(IMAGE_URL);
    expect(await page.locator('img').count()).toBe(0);
    expect(foreignRequests).toEqual([]);

    // Links open only on click, in a new window without opener or referrer; javascript: is not a link at all.
    const docs = answer.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await answer.getByRole('link', { name: 'this' }).count()).toBe(0);
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await answer.locator('b').count()).toBe(0);
    expect(await answer.textContent()).toContain('<b>raw html stays text</b>');

    // Thinking is folded; the receipt and the subtle meta line are under the answer.
    const thinking = answer.locator('details.thinking');
    expect(await thinking.getAttribute('open')).toBeNull();
    expect(await thinking.textContent()).toContain('The user wants code and an image.');
    expect(await answer.getByText('1 memory used').count()).toBe(1);
    expect(await answer.getByText('pinned × 1').count()).toBe(1);
    expect(await answer.textContent()).toMatch(/llama3\.2 · \d+ → \d+ tokens/);

    // The background model names the thread.
    await expect.poll(() => chat.thread('Markdown tour').count()).toBe(1);
    await answer.locator('details.receipt summary').click();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'chat.png') });
    expect(await unnamedControls(page)).toEqual([]);
  });

  it('shows the model loading before the first token, and the Stop button stops it', async () => {
    fake.setFault({ kind: 'slow-first-token', delayMs: 60_000 });
    await chat.send('Are you awake?');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent()).toMatch(/Waiting for llama3\.2/);
    await chat.stopButton.click();
    await expect.poll(() => answer.textContent()).toMatch(/Stopped/);
    await expect.poll(() => chat.sendButton.count()).toBe(1);
  });

  it('streams a slow reply that Esc stops, keeping the partial text with a Stopped badge', async () => {
    await chat.send('Tell me a long story');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toMatch(/Once word1 word2/);
    expect(await chat.stopButton.isVisible()).toBe(true);
    await chat.composer.press('Escape');
    await expect.poll(() => answer.locator('.badge').textContent()).toBe('Stopped');
    const text = await answer.locator('.markdown').textContent();
    expect(text).toMatch(/^Once word1 word2/);
    expect(text).not.toContain('THE-END');
    expect(await answer.getByText('You stopped this reply; what was written is kept.').count()).toBe(1);
    // The same action as after a failed reply (chat.retry), under the same name.
    await expect.poll(() => answer.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(1);
  });

  it('Ollama dying mid-reply: the reply says to start it again and Retry; the status bar and the banner say so at once', async () => {
    const before = await chat.answers.count();
    await chat.send('Tell me a long story');
    await expect.poll(() => chat.answers.count()).toBe(before + 1);
    const answer = chat.answers.nth(before);
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toMatch(/Once word1 word2/);
    await fake.stop();
    const error = answer.getByRole('alert');
    await expect.poll(() => error.textContent()).toContain('The model server stopped answering partway. If it was closed, start it again, then choose Retry.');
    await expect.poll(() => answer.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    // Nothing else happens on the page: the failed reply itself makes the bar look again.
    await expect.poll(() => chat.statusBar.textContent()).toContain('Ollama unreachable');
    await expect.poll(() => chat.setup('Ollama is not reachable').count()).toBe(1);
    await expect.poll(() => chat.statusBar.getByRole('status').textContent()).toContain('Ollama can’t be reached');
    expect(await chat.statusBar.textContent()).not.toContain('Connected');

    await fake.restart();
    await expect.poll(() => chat.statusBar.textContent()).toContain('Ollama 0.12.6 · llama3.2');
  });

  it('explains that Ollama is unreachable when it goes away, and Retry answers once it is back', async () => {
    await fake.stop();
    await chat.send('Hello again');
    const answer = chat.lastAnswer();
    const error = answer.getByRole('alert');
    await expect.poll(() => error.textContent()).toMatch(/Error.*Ollama is not reachable/);
    // The core's own words (naming the host it tried) arrive with the failed request's answer.
    await expect.poll(() => error.textContent()).toContain(`Cannot reach Ollama at ${fake.url}`);
    const banner = chat.setup('Ollama is not reachable');
    await expect.poll(() => banner.textContent()).toContain(`Mnemo could not reach Ollama at ${fake.url}`);
    expect(await banner.textContent()).toContain('ollama serve');
    await expect.poll(() => chat.statusBar.textContent()).toContain('Ollama unreachable');

    await fake.restart();
    await answer.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: Hello again');
    expect(await chat.lastAnswer().getByRole('alert').count()).toBe(0);
    await expect.poll(() => chat.statusBar.textContent()).toContain('Ollama 0.12.6 · llama3.2');
    expect(await banner.count()).toBe(0);
  });

  it('renames inline, finds a message with Ctrl+K, and deletes with undo', async () => {
    // Rename: the sidebar's rename action, Enter saves; it survives a reload.
    await chat.thread('Markdown tour').getByRole('button', { name: 'Rename “Markdown tour”' }).click();
    const title = chat.sidebar.getByRole('textbox', { name: 'Thread title' });
    await title.fill('Cats and code');
    await title.press('Enter');
    await expect.poll(() => chat.thread('Cats and code').count()).toBe(1);
    // From the keyboard: F2 on the focused thread edits its title, Esc gives up.
    await chat.thread('Cats and code').getByRole('button', { name: /^Cats and code/ }).focus();
    await page.keyboard.press('F2');
    await title.fill('Not this');
    await page.keyboard.press('Escape');
    await expect.poll(() => title.count()).toBe(0);
    await expect.poll(() => chat.thread('Cats and code').count()).toBe(1);
    await page.reload();
    await expect.poll(() => chat.thread('Cats and code').count()).toBe(1);

    // A second, incognito thread.
    await chat.newIncognitoButton.click();
    await expect.poll(() => chat.threads.count()).toBe(2);
    await expect.poll(() => page.getByRole('region', { name: 'Chat' }).getByText('Incognito', { exact: true }).count()).toBe(1);
    await chat.send('secret plans');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: secret plans');

    // Ctrl+K: a message of the other thread, opened with the keyboard.
    await chat.shortcut('Control+k');
    await expect.poll(() => chat.searchDialog.isVisible()).toBe(true);
    await chat.searchBox.pressSequentially('story');
    // No title has the word, so the message hit is the first (selected) option.
    const selected = chat.searchOptions.and(page.locator('[aria-selected="true"]'));
    await expect.poll(() => selected.textContent()).toMatch(/Cats and code.*You: Tell me a long story/);
    expect(await unnamedControls(page)).toEqual([]);
    await chat.searchBox.press('Enter');
    await expect.poll(() => chat.searchDialog.count()).toBe(0);
    await expect.poll(() => chat.threadHeading.textContent()).toBe('Cats and code');

    // Delete with undo: gone at once, back on Undo, and nothing was deleted.
    const incognito = chat.threads.filter({ hasText: 'Incognito' });
    await incognito.getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => chat.threads.count()).toBe(1);
    await chat.toasts.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => chat.threads.count()).toBe(2);
    const afterUndo = await api.call('thread.list', {});
    expect(afterUndo.ok && afterUndo.value.threads.length).toBe(2);

    // Deleted for real once the undo window has passed.
    await chat.threads.filter({ hasText: 'Incognito' }).getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => chat.toasts.getByRole('button', { name: 'Undo' }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => {
      const r = await api.call('thread.list', {});
      return r.ok ? r.value.threads.length : -1;
    }).toBe(1);
  });

  it('reads and edits the thread summary from the thread header', async () => {
    await chat.summaryButton.click();
    await expect.poll(() => chat.summaryPanel.textContent()).toMatch(/No summary yet\. Mnemo writes one when 10 new messages/);
    const text = chat.summaryPanel.getByRole('textbox', { name: 'Summary' });
    await text.fill('The user likes TypeScript and cats.');
    await chat.summaryPanel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => chat.summaryPanel.getByText('Saved').count()).toBe(1);
    expect(await unnamedControls(page)).toEqual([]);
    const stored = await api.call('thread.list', {});
    const threadId = stored.ok ? stored.value.threads[0]!.id : 0;
    const summary = await api.call('summary.get', { threadId });
    expect(summary.ok && summary.value?.content).toBe('The user likes TypeScript and cats.');
    expect(summary.ok && summary.value?.editedByUser).toBe(true);
    await text.press('Escape');
    await expect.poll(() => chat.summaryPanel.count()).toBe(0);
  });

  it('shares a conversation: copies it or one message, saves it as JSON, and the file imports back as a conversation', async () => {
    await session.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    // One answer, as its Markdown source and as the text it reads as; one question as typed.
    const answer = chat.answers.first();
    await answer.hover();
    await answer.getByRole('button', { name: 'Copy answer as Markdown' }).click();
    await expect.poll(clipboard).toContain('```ts');
    await answer.getByRole('button', { name: 'Copy answer as plain text' }).click();
    await expect.poll(clipboard).toContain('function greet(name: string): string {');
    expect(await clipboard()).not.toContain('```');
    await chat.questions.first().hover();
    await chat.questions.first().getByRole('button', { name: 'Copy your message' }).click();
    await expect.poll(clipboard).toBe('Show me some\nmarkdown please');

    // The whole conversation as Markdown; the menu closes and gives focus back to its button.
    const share = chat.threadHeader.getByRole('button', { name: 'Share' });
    await share.click();
    expect(await share.getAttribute('aria-expanded')).toBe('true');
    expect(await unnamedControls(page)).toEqual([]);
    await page.getByRole('button', { name: 'Copy conversation' }).click();
    await expect.poll(clipboard).toMatch(/^# Cats and code\n/);
    expect(await clipboard()).toMatch(/## You · \d{4}-\d{2}-\d{2} \d{2}:\d{2}\n\nShow me some\nmarkdown please/);
    expect(await share.getAttribute('aria-expanded')).toBe('false');
    expect(await share.evaluate((el) => el === document.activeElement)).toBe(true);
    await share.press('Enter');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Save as JSON' }).count()).toBe(0);
    expect(await share.evaluate((el) => el === document.activeElement)).toBe(true);

    // As a JSON file, which imports back (after the thread is gone) as the same conversation.
    await share.click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as JSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^mnemo-thread-cats-and-code-\d{4}-\d{2}-\d{2}\.json$/);
    const file = (await download.path())!;
    const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as { format: string; threads: Array<{ title: string; messages: Array<{ content: string }> }> };
    expect(exported.format).toBe('mnemo.threads');
    const before = unwrap(await api.call('thread.list', {})).threads[0]!;
    expect(exported.threads[0]!.messages).toHaveLength(before.messageCount);
    unwrap(await api.call('thread.delete', { threadId: before.id }));
    await expect.poll(() => chat.thread('Cats and code').count()).toBe(0);

    const memories = new MemoriesPage(page);
    await memories.open();
    await page.getByRole('button', { name: 'Import / export' }).click();
    const dialog = memories.dialog('Import and export');
    await dialog.getByLabel('File', { exact: true }).setInputFiles(file);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByRole('region', { name: 'Import preview' });
    await expect.poll(() => preview.getByRole('listitem').allTextContents()).toEqual(['1 new', '0 already known', '0 unreadable']);
    expect(await preview.getByRole('row').filter({ hasText: 'Cats and code' }).textContent()).toContain(`${before.messageCount} messages`);
    await dialog.getByRole('button', { name: 'Import 1 conversation' }).click();
    await expect.poll(() => dialog.getByRole('region', { name: 'Import result' }).textContent()).toContain('Imported 1 conversation.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => chat.thread('Cats and code').count()).toBe(1);
    await chat.thread('Cats and code').getByRole('button', { name: /^Cats and code/ }).click();
    await expect.poll(() => chat.questions.first().locator('.bubble').textContent()).toBe('Show me some\nmarkdown please');
    expect((await chat.questions.count()) + (await chat.answers.count())).toBe(before.messageCount);
  });

  it('words typed while a new thread is being made go to the new thread; the old one keeps its draft', async () => {
    await (await chat.askInNewThread('Where did we leave the garden plan?')).waitFor();
    await expect.poll(() => chat.thread('Garden plan').count()).toBe(1);
    await chat.composer.fill('A note for later');
    // The core answers thread.create only when the test lets it: meanwhile the composer still shows the old thread.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/rpc/thread.create', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    try {
      const before = await chat.threads.count();
      await chat.newThreadButton.click();
      await arrived;
      await chat.composer.press('End');
      await chat.composer.pressSequentially(' What should I plant in March?');
      release();
      await expect.poll(() => chat.threads.count()).toBe(before + 1);
      await expect.poll(() => chat.composer.inputValue()).toBe(' What should I plant in March?');
      await chat.thread('Garden plan').getByRole('button', { name: /^Garden plan/ }).click();
      await expect.poll(() => chat.composer.inputValue()).toBe('A note for later');
      await chat.composer.fill('');
    } finally {
      release();
      await page.unroute('**/rpc/thread.create');
    }
  });

  it('settings: validates the context shares, saves a group without resetting it, applies the theme at once', async () => {
    await chat.shortcut('Control+,');
    await expect.poll(() => settings.heading.isVisible()).toBe(true);
    expect(await settings.dataFolder.inputValue()).toBe(dataDir);
    expect(await settings.field('Chat model').inputValue()).toBe('llama3.2:latest');
    // The database's version as a number, not the migration's name ("0017_reply_writer"), which stays as a tooltip.
    const schema = page.getByText(/^Database version \d+$/);
    expect(await schema.count()).toBe(1);
    const migration = await schema.getAttribute('title');
    expect(migration).toMatch(/^\d{4}_\w+$/);
    const about = (await schema.locator('xpath=..').textContent())!;
    expect(about).toMatch(/^Database version \d+ · Mnemo /);
    expect(about).not.toContain(migration);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings.png') });
    expect(await unnamedControls(page)).toEqual([]);

    await settings.setNumber('Long-term memories', '0.4');
    await expect.poll(() => page.getByText('The shares add up to 1.25. Lower some so the total is at most 1.').count()).toBe(1);
    expect(await settings.save.isDisabled()).toBe(true);
    await settings.setNumber('Long-term memories', '0.1');
    await expect.poll(() => page.getByText('Total: 0.95 of at most 1').count()).toBe(1);
    await settings.setNumber('Memories per answer', '2.5');
    await expect.poll(() => page.getByText('Enter a whole number.').count()).toBe(1);
    await settings.setNumber('Memories per answer', '8');
    await settings.setNumber('Time for meaning search (ms)', '20');
    await expect.poll(() => page.getByText('Enter a number from 50 to 30000.').count()).toBe(1);
    await settings.setNumber('Time for meaning search (ms)', '800');
    expect(await settings.field('Context window (tokens)').inputValue()).toBe('8192');
    await settings.setNumber('Context window (tokens)', '1000');
    await expect.poll(() => page.getByText('Enter a number from 2048 to 1048576.').count()).toBe(1);
    expect(await settings.save.isDisabled()).toBe(true);
    await settings.setNumber('Context window (tokens)', '16384');
    await settings.save.click();
    await expect.poll(() => page.getByText('Saved', { exact: true }).count()).toBe(1);
    const saved = await api.call('settings.get', {});
    expect(saved.ok && saved.value.contextWindowTokens).toBe(16384);
    expect(saved.ok && saved.value.budget).toEqual({ system: 0.15, memories: 0.1, conversation: 0.5, reply: 0.2 });
    expect(saved.ok && saved.value.retrieval).toMatchObject({ limit: 8, similarityWeight: 0.6, importanceWeight: 0.25, recencyWeight: 0.15, timeBudgetMs: 800 });

    await settings.theme('Dark').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(22, 22, 26)');
    await settings.theme('Light').check();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  });

  it('switches the whole interface to 简体中文 and back', async () => {
    await settings.language.selectOption('zh-CN');
    await expect.poll(() => page.getByRole('heading', { level: 2, name: '设置' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: '对话' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '新对话', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '保存更改' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByRole('button', { name: '返回聊天' }).click();
    expect(await page.getByRole('textbox', { name: '消息' }).count()).toBe(1);
    // In Chinese, and without the old green "Connected" (the page's link is named only while it is down).
    expect(await chat.statusBar.textContent()).toMatch(/\p{Script=Han}/u);
    expect(await chat.statusBar.textContent()).not.toContain('已连接');

    await page.getByRole('navigation', { name: '对话' }).getByRole('button', { name: /^设置/ }).click();
    await page.getByLabel('语言', { exact: true }).selectOption('en');
    await expect.poll(() => settings.heading.count()).toBe(1);
    expect(foreignRequests).toEqual([]);
  });

  it('settings: backs up now, lists the backup, and stages a restore for the next start after asking', async () => {
    await expect.poll(() => settings.heading.count()).toBe(1);
    const manual = settings.backups.getByRole('listitem').filter({ hasText: 'Manual' });
    expect(await manual.count()).toBe(0);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect.poll(() => manual.count()).toBe(1);
    expect(await manual.textContent()).toMatch(/Manual · .* · [\d.]+ (KB|MB)/);
    expect(unwrap(await api.call('db.backups', {})).backups.filter((b) => b.kind === 'manual')).toHaveLength(1);

    await manual.getByRole('button', { name: /^Restore the backup / }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore this backup?' });
    expect(await dialog.textContent()).toContain('The current database is backed up first');
    expect(await unnamedControls(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore at next start' }).click();
    await expect.poll(() => page.getByText(/^Ready to restore .*: quit and start Mnemo again to finish\.$/).count()).toBe(1);
    expect(fs.existsSync(path.join(dataDir, 'mnemo.db.restore-pending'))).toBe(true);
  });
});
