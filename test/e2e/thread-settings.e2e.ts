/**
 * A thread's own model and instructions, the global instructions, and what the model saw for an answer, in Chromium
 * against `npm run web` and a fake Ollama that records every request: the picker offers only chat models (with size
 * and context length), the chosen model really answers, the instructions really are in the system prompt, the
 * context view shows the breakdown (in English and Chinese), and a model removed since the thread used it is said
 * plainly with a way on. One web host and one page for the whole file: each test continues from the previous one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeOllama, FakeModel } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { ThreadToolsPage } from './pages/thread-tools.page';
import { unnamedControls } from './support/a11y';
import { ROOT, type RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

const LLAMA: FakeModel = { name: 'llama3.2', family: 'llama', parameterSize: '3.2B', sizeBytes: 2_019_393_189, capabilities: ['completion', 'tools'] };
const QWEN: FakeModel = { name: 'qwen3:4b', family: 'qwen3', parameterSize: '4.0B', sizeBytes: 2_500_000_000, contextLength: 32_768, capabilities: ['completion', 'tools', 'thinking'] };
/** A name as Ollama lists a model pulled from Hugging Face: what tells it apart is at the end. */
const LONG: FakeModel = { name: 'hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M', family: 'llama', parameterSize: '8B', sizeBytes: 4_920_000_000, contextLength: 131_072, capabilities: ['completion', 'tools'] };
const EMBED: FakeModel = { name: 'nomic-embed-text', family: 'nomic-bert', parameterSize: '137M', sizeBytes: 274_302_450, capabilities: ['embedding'] };
const THREAD_INSTRUCTIONS = '请用中文回答，并且每次都先给结论。';
const GLOBAL_INSTRUCTIONS = 'Answer in a cheerful tone.';

/** The chat answers (not titles, summaries or extraction), in the order they were asked. */
function answerRequests(fake: FakeOllama): FakeInferenceRequest[] {
  return fake.requests.filter((r) => r.purpose === 'chat').map((r) => r.body as unknown as FakeInferenceRequest);
}

describe('a thread’s model, instructions and context (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let tools: ThreadToolsPage;
  let settings: SettingsPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'thread-settings', ollama: { models: [LLAMA, QWEN, EMBED] }, reply: (request) => {
      const last = request.messages.at(-1)?.content ?? '';
      if (request.purpose === 'title') return { content: 'Cooking' };
      if (isLearning(request.purpose)) return { content: JSON.stringify({ memories: [] }) };
      return { content: `You said: ${last}` };
    } });
    ({ fake, app, page, api } = session);
    chat = new ChatPage(page);
    tools = new ThreadToolsPage(page);
    settings = new SettingsPage(page);
  });

  afterAll(() => session?.close());

  it('the header picker lists the chat models with size and context length, never the embedding model; the chosen one answers', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    await chat.shortcut('Control+n');
    await chat.send('hello');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: hello');

    await expect.poll(() => tools.modelPicker.locator('option').allTextContents()).toEqual([
      'Default (llama3.2)',
      'llama3.2:latest · 2 GB · 4,096-token context',
      'qwen3:4b · 2.5 GB · 32,768-token context',
    ]);
    expect(await tools.modelPicker.inputValue()).toBe('');
    expect(await unnamedControls(page)).toEqual([]);

    // With the keyboard: focus the picker, choose the second model.
    await tools.modelPicker.focus();
    await tools.modelPicker.selectOption('qwen3:4b');
    const threadId = unwrap(await api.call('thread.list', {})).threads[0]!.id;
    await expect.poll(async () => unwrap(await api.call('thread.get', { threadId })).model).toBe('qwen3:4b');

    await chat.send('which model?');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: which model?');
    expect(answerRequests(fake).map((r) => r.model)).toEqual(['llama3.2', 'qwen3:4b']);
    // The answer names its model once it is complete (the text can show before the completion event that brings the
    // line), and the choice outlives a reload.
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('qwen3:4b');
    await page.reload();
    await chat.threads.first().getByRole('button').first().click();
    await expect.poll(() => tools.modelPicker.inputValue()).toBe('qwen3:4b');
  });

  it('thread instructions and the global ones from Settings go into the system prompt of the next answer', async () => {
    await tools.instructionsButton.click();
    await expect.poll(() => tools.instructionsDialog.isVisible()).toBe(true);
    await tools.instructionsField.fill(THREAD_INSTRUCTIONS);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'thread-instructions.png') });
    await tools.instructionsDialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => tools.instructionsDialog.count()).toBe(0);
    await expect.poll(() => tools.instructionsButton.textContent()).toBe('Instructions (on)');

    await settings.openButton.click();
    const global = settings.field('How should Mnemo answer? (tone, language, format)');
    await global.fill(GLOBAL_INSTRUCTIONS);
    await global.press('Control+Enter');
    await expect.poll(() => page.getByText('Instructions saved.').isVisible()).toBe(true);
    expect(unwrap(await api.call('settings.get', {})).instructions).toBe(GLOBAL_INSTRUCTIONS);
    // The field takes the section's width and its Save sits under it (issue 30's last walk: the Save floated in a
    // column of its own beside the box, and the label broke after "language,").
    const box = (await global.boundingBox())!;
    const save = (await global.locator('xpath=ancestor::section[1]').getByRole('button', { name: 'Save' }).boundingBox())!;
    expect(save.y).toBeGreaterThanOrEqual(box.y + box.height);
    const label = await page.locator('label', { hasText: 'How should Mnemo answer?' }).evaluate((el) => el.getClientRects().length === 1 && el.getBoundingClientRect().height < 24);
    expect(label).toBe(true);
    await page.getByRole('button', { name: 'Back to chat' }).click();

    await chat.send('what shall I cook?');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: what shall I cook?');
    const system = answerRequests(fake).at(-1)!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(GLOBAL_INSTRUCTIONS);
    expect(system.content).toContain(THREAD_INSTRUCTIONS);
    expect(system.content.indexOf(GLOBAL_INSTRUCTIONS)).toBeLessThan(system.content.indexOf(THREAD_INSTRUCTIONS));
  });

  it('the context view of an answer shows the system text and the tokens of each part against the budget, in English and Chinese', async () => {
    await tools.openContext(chat.lastAnswer());
    await expect.poll(() => tools.contextDialog.isVisible()).toBe(true);
    const dialog = tools.contextDialog;
    await expect.poll(() => dialog.textContent()).toContain('qwen3:4b was sent about');
    expect(await dialog.locator('pre').textContent()).toContain(THREAD_INSTRUCTIONS);
    const systemRow = await tools.contextRow(/^System text/);
    expect(systemRow[2]).toBe('1,228');
    expect(Number(systemRow[1]!.replace(/,/g, ''))).toBeGreaterThan(0);
    expect((await tools.contextRow(/earlier messages/))[0]).toContain('4 earlier messages');
    // The reply reserve as enforced: the output cap the answer's request really carried (num_predict).
    const answerRequest = fake.requests.filter((q) => q.purpose === 'chat' && JSON.stringify(q.body).includes(THREAD_INSTRUCTIONS)).at(-1)!;
    const cap = (answerRequest.body as { options: { num_predict: number } }).options.num_predict;
    expect(cap).toBeGreaterThanOrEqual(1638);
    expect(await tools.contextRow(/^Room for the answer/)).toEqual(['Room for the answer', cap.toLocaleString('en'), '1,638']);
    // The headline and the footnote name both figures as the table does: the reserve, and what the request allowed.
    expect(await dialog.locator('p').first().textContent()).toMatch(new RegExp(`1,638 tokens were reserved for the answer, and the model could write up to ${cap.toLocaleString('en')}\\.$`));
    expect(await dialog.textContent()).toContain(`1,638 tokens are reserved for the answer, so the prompt never takes them; the request let the model write up to ${cap.toLocaleString('en')}:`);
    expect(await unnamedControls(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'context-view.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // The same answer in Chinese (found by its id: the English names of the page no longer apply).
    const answerId = await chat.lastAnswer().getAttribute('data-message-id');
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    try {
      await tools.openContext(page.locator(`article[data-message-id="${answerId}"]`));
      await expect.poll(() => tools.contextDialog.getByRole('heading', { name: '模型看到的内容' }).isVisible()).toBe(true);
      await expect.poll(() => tools.contextDialog.textContent()).toContain('4 条更早的消息');
      expect(await tools.contextDialog.textContent()).toContain('其中 1,638 个词元预留给回答，模型最多可以写');
      expect(await tools.contextDialog.textContent()).toContain('为回答预留了 1,638 个词元，提示词不会占用它们；这次请求允许模型最多写');
      await page.keyboard.press('Escape');
    } finally {
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
    }
    await expect.poll(() => chat.composer.isVisible()).toBe(true);
  });

  it('a model removed since the thread used it: a clear message, and "use the default" answers with the default', async () => {
    fake.setModels([LLAMA, EMBED]);
    await chat.send('still there?');
    await expect.poll(() => tools.modelMissing.isVisible()).toBe(true);
    expect(await tools.modelMissing.textContent()).toContain('qwen3:4b, the model this thread used, is no longer installed.');
    expect(await tools.modelPicker.locator('option:checked').textContent()).toBe('qwen3:4b (not installed)');

    await tools.modelMissing.getByRole('button', { name: 'Pick another' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    await tools.modelMissing.getByRole('button', { name: 'Use the default (llama3.2)' }).click();
    await expect.poll(() => tools.modelMissing.count()).toBe(0);
    expect(await tools.modelPicker.inputValue()).toBe('');

    await chat.send('and now?');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: and now?');
    expect(answerRequests(fake).at(-1)!.model).toBe('llama3.2');
  });
  it('the header fits a narrow window: every control inside the viewport, none on another, in English and Chinese', async () => {
    // Issue 30's walk: at 860 px the Summary button was cut off at the right edge. 720 × 480 is the smallest window.
    unwrap(await api.call('thread.rename', { threadId: await openThreadId(page), title: 'Planning the autumn trip to the mountains with the whole family' }));
    try {
      for (const language of ['en', 'zh-CN'] as const) {
        unwrap(await api.call('settings.update', { patch: { language } }));
        for (const [width, height] of [[860, 700], [720, 480]] as const) {
          await page.setViewportSize({ width, height });
          await expect.poll(() => headerProblems(page), { message: `${language} at ${width} px` }).toEqual([]);
        }
      }
    } finally {
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('a long model name in the capped picker: its own name and its tag shown, cut in the middle, whole in the tooltip', async () => {
    fake.setModels([LLAMA, LONG, EMBED]);
    await page.reload();
    await chat.threads.first().getByRole('button').first().click();
    await expect.poll(() => tools.modelPicker.locator('option').allTextContents()).toContain('hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M · 4.9 GB · 131,072-token context');
    await tools.modelPicker.selectOption(LONG.name);
    try {
      for (const width of [1100, 860]) {
        await page.setViewportSize({ width, height: 700 });
        // Issue 30's walk: the closed picker read "hf.co/bartowski/Meta-Llama-3.1-" and stopped.
        await expect.poll(() => pickerFace(page), { message: `at ${width} px` }).toMatchObject({ tail: ':Q4_K_M', tailInside: true, headStart: 'Meta-Llama-3.1-8B', headCut: true });
      }
      expect(await tools.modelPicker.getAttribute('title')).toContain('hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M · 4.9 GB · 131,072-token context');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

/** What the closed model picker shows: the end kept whole (inside the box, clear of the arrow) and the start. */
function pickerFace(page: Page) {
  return page.evaluate(() => {
    const select = document.querySelector('.thread-header select')!.getBoundingClientRect();
    const visible = [...document.querySelectorAll('.thread-header .thread-model *:not(select):not(option):not(label)')].filter((el) => el.children.length === 0 && el.textContent);
    const [head, tail] = visible;
    if (!head || !tail) return { tail: null };
    const tailBox = tail.getBoundingClientRect();
    return {
      tail: tail.textContent,
      tailInside: tailBox.left >= select.left && tailBox.right <= select.right - 16,
      headStart: head.textContent!.slice(0, 17),
      headCut: head.scrollWidth > head.clientWidth && getComputedStyle(head).textOverflow === 'ellipsis',
    };
  });
}

/** The open thread's id, from the header's thread (the sidebar marks it current). */
async function openThreadId(page: Page): Promise<number> {
  return Number(await page.locator('[aria-current="page"][data-thread-id], [aria-current="page"] [data-thread-id]').first().getAttribute('data-thread-id'));
}

/** Each header control that is not wholly inside the window, or that overlaps another control or the title. */
async function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('.thread-header');
    if (!header) return ['no thread header'];
    const name = (el: Element) => (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 30);
    const controls = [...header.querySelectorAll('button, select')].filter((el) => !el.closest('.share-panel'));
    const boxes = controls.map((el) => ({ el, box: el.getBoundingClientRect() }));
    const problems: string[] = [];
    for (const { el, box } of boxes) {
      if (box.left < 0 || box.right > window.innerWidth || box.top < 0 || box.bottom > window.innerHeight) problems.push(`${name(el)} outside the window (${Math.round(box.left)}–${Math.round(box.right)} of ${window.innerWidth})`);
    }
    const title = header.querySelector('h2')!.getBoundingClientRect();
    for (const [i, a] of boxes.entries()) {
      const others = [...boxes.slice(i + 1).map((b) => ({ what: name(b.el), box: b.box })), { what: 'the title', box: title }];
      for (const b of others) {
        if (a.box.left < b.box.right - 1 && b.box.left < a.box.right - 1 && a.box.top < b.box.bottom - 1 && b.box.top < a.box.bottom - 1) problems.push(`${name(a.el)} overlaps ${b.what}`);
      }
    }
    return problems;
  });
}
