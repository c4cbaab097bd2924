/**
 * Attaching files to a message, in Chromium against `npm run web` and a fake Ollama that records every request: a
 * Markdown file picked through the attach button shows as a removable chip, its text reaches the chat request (and
 * not the extraction request), the sent message shows it folded; a binary file, an empty one, a scanned PDF and a
 * damaged one are refused with a reason. A PDF's text (Chinese included, through the bundled CMaps) is read in the page
 * under the app's CSP, and reaches the extractor only when the user ticks "Learn from this file". One web host and one
 * page for the whole file: each test continues from the previous one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceRequest, FakeOllama } from '../fakes/fake-ollama';
import { AttachmentsPage } from './pages/attachments.page';
import { ChatPage } from './pages/chat.page';
import { unnamedControls } from './support/a11y';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';
import { pdfBytes } from '../support/pdf-bytes';
import { isLearning, type RequestPurpose } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

const bodies = (fake: FakeOllama, purpose: RequestPurpose) => fake.requests.filter((r) => r.purpose === purpose).map((r) => r.body as unknown as FakeInferenceRequest);
const answers = (fake: FakeOllama) => bodies(fake, 'chat');

const NOTES = '# Trip notes\n\nThe ferry to Ischia leaves at 7:40 from Molo Beverello.\n去伊斯基亚的渡轮早上七点四十分出发。\n';

describe('attaching files to a message (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let files: AttachmentsPage;
  /** What the page's console said about the Content-Security-Policy: PDF.js must run without eval or remote fetches. */
  const cspViolations: string[] = [];

  beforeAll(async () => {
    session = await startWebSession({ name: 'attachments', reply: (request) => {
      const last = request.messages.at(-1)?.content ?? '';
      if (request.purpose === 'title') return { content: 'Trip' };
      if (isLearning(request.purpose)) return { content: JSON.stringify({ memories: [] }) };
      if (last.includes('on my list')) return { content: 'Your list has one thing on it: buy ferry tickets.' };
      return { content: 'The ferry leaves at 7:40.' };
    } });
    ({ fake, app, page } = session);
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    chat = new ChatPage(page);
    files = new AttachmentsPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(() => session?.close());

  it('a picked Markdown file goes to the model with the message, and the message shows it', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    await chat.shortcut('Control+n');
    await files.pick([
      { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES) },
      { name: 'extra.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') },
    ]);
    await expect.poll(() => files.chips.allTextContents()).toEqual([expect.stringContaining('notes.md'), expect.stringContaining('extra.txt')]);
    expect(await unnamedControls(page)).toEqual([]);
    // Removable with the keyboard.
    await files.removeButton('extra.txt').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => files.chips.count()).toBe(1);

    await chat.send('When does the ferry leave?');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('The ferry leaves at 7:40.');
    const question = answers(fake).at(-1)!.messages.at(-1)!.content;
    expect(question).toContain('When does the ferry leave?');
    expect(question).toContain('Molo Beverello');
    expect(question).toContain('去伊斯基亚的渡轮');
    expect(question).not.toContain('not this one');
    await expect.poll(() => files.chips.count()).toBe(0);

    const sent = files.sentFile(chat.questions.last(), 'notes.md');
    await expect.poll(() => sent.isVisible()).toBe(true);
    await sent.locator('summary').click();
    await expect.poll(() => sent.locator('pre').textContent()).toContain('Molo Beverello');
    // Extraction, when it ran, was shown the typed words only.
    for (const b of bodies(fake, 'extract')) expect(JSON.stringify(b.messages)).not.toContain('Molo Beverello');
  });

  it('binary, empty, scanned and damaged PDF files are refused with a reason, and nothing is attached', async () => {
    await files.pick([
      { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
      { name: 'empty.md', mimeType: 'text/markdown', buffer: Buffer.alloc(0) },
      { name: 'paper.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n') },
      { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdfBytes([{ image: true }])) },
    ]);
    await expect.poll(() => files.refusals.textContent()).toContain('photo.png is not a text file (it holds binary data)');
    expect(await files.refusals.textContent()).toContain('empty.md is empty');
    expect(await files.refusals.textContent()).toContain('paper.pdf could not be read as a PDF');
    expect(await files.refusals.textContent()).toContain('scan.pdf has no text layer');
    expect(await files.chips.count()).toBe(0);
    await files.refusals.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => files.refusals.count()).toBe(0);
  });

  it('a file dropped onto the composer is attached like a picked one', async () => {
    await files.drop('todo.txt', 'buy ferry tickets');
    await expect.poll(() => files.chips.allTextContents()).toEqual([expect.stringContaining('todo.txt')]);
    await chat.send('What is on my list?');
    await expect.poll(() => answers(fake).at(-1)?.messages.at(-1)?.content ?? '').toContain('buy ferry tickets');
  });

  it('a PDF is read in the page, Chinese included, and learned from only once the user ticks it', async () => {
    const pdf = pdfBytes([{ lines: ['Packing list for Ischia', 'I always pack my snorkel and fins.'], chineseLines: ['我每年夏天都去伊斯基亚岛潜水。'] }]);
    await files.pick([{ name: 'packing.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) }]);
    await expect.poll(() => files.chips.allTextContents()).toEqual([expect.stringContaining('packing.pdf')]);
    // Off until the user says so.
    expect(await files.learnBox('packing.pdf').isChecked()).toBe(false);
    await files.learnBox('packing.pdf').check();
    // The first message's file folded again, so the picture shows the composer with the PDF and the thread around it.
    await files.sentFile(chat.questions.first(), 'notes.md').locator('summary').click();
    await page.mouse.move(130, 450); // off the message, whose Edit and Copy show on hover
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'attachments.png') });
    await chat.send('Anything missing from my packing list?');
    await expect.poll(() => answers(fake).at(-1)?.messages.at(-1)?.content ?? '').toContain('I always pack my snorkel and fins.');
    const question = answers(fake).at(-1)!.messages.at(-1)!.content;
    expect(question).toContain('我每年夏天都去伊斯基亚岛潜水。');
    expect(question).toContain('name="packing.pdf"');
    await expect.poll(() => files.sentFile(chat.questions.last(), 'packing.pdf').textContent()).toContain('Mnemo may learn from it');
    // The extractor was shown the file, as the user's own words.
    await expect.poll(() => bodies(fake, 'extract').some((b) => JSON.stringify(b.messages).includes('snorkel and fins'))).toBe(true);
  });

  it('a PDF dropped onto the composer is read like a picked one; nothing broke the CSP', async () => {
    await files.drop('dropped.pdf', pdfBytes([{ lines: ['Ferry ticket 4711'] }]), 'application/pdf');
    await expect.poll(() => files.chips.allTextContents()).toEqual([expect.stringContaining('dropped.pdf')]);
    expect(await files.learnBox('dropped.pdf').isChecked()).toBe(false);
    await chat.send('What is my ticket number?');
    await expect.poll(() => answers(fake).at(-1)?.messages.at(-1)?.content ?? '').toContain('Ferry ticket 4711');
    expect(cspViolations).toEqual([]);
  });
});
