/**
 * Memory tools as a user meets them, in Chromium against `npm run web` and a fake Ollama whose chat model calls
 * search_memory as Ollama streams tool calls: the user asks something only a memory knows, the model searches, the
 * answer uses it, and the receipt under the answer names the search and the memory it returned; "What the model saw"
 * lists the search too. Settings chooses how answers reach memories. Asked what it recommended, the model searches the
 * conversations, and the receipt says which result was Mnemo's answer and which the user's message.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeOllama, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { unnamedControls } from './support/a11y';
import { earlierConversation } from './support/api';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

const EPISODE = 'Vet visit for the cat\nWanted: a vet appointment for Miso next week.';

/**
 * The chat model: searches once when offered tools, then answers from what the search returned; a question that
 * says "again" is answered slowly after its search (its text waits a few seconds), so the search's status line can
 * be seen. The background model writes titles, an episode, and finds nothing to learn.
 */
function reply(request: FakeInferenceRequest): FakeReply {
  if (request.purpose === 'episode') return { content: EPISODE };
  if (isLearning(request.purpose)) return { content: '{"memories": []}' };
  if (request.purpose === 'title') return { content: JSON.stringify(request.messages).includes('Book the vet') ? 'Vet for Miso' : 'My cat' };
  const asked = request.messages.at(-1)!.content;
  if (asked.startsWith('My knee hurts')) return { content: 'For your knee I recommend quad sets.' };
  const result = request.messages.find((m) => m.role === 'tool');
  if (asked.includes('recommend')) {
    if (!result) return { toolCalls: [{ name: 'search_conversations', arguments: { query: 'knee' } }] };
    return { content: result.content.includes('you answered: For your knee I recommend quad sets.') ? 'I recommended quad sets.' : 'I do not know.' };
  }
  if (request.body.tools && !result) return { toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] };
  const text = result?.content.includes('Miso') ? 'Your cat is called Miso.' : 'I do not know.';
  const slow = request.messages.some((m) => m.role === 'user' && m.content.includes('again'));
  return slow ? { chunks: ['', text], delayMsPerChunk: 4000 } : { content: text };
}

describe('memory tools: the model searches, the receipt shows it (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'tools', reply });
    ({ fake, app, page, api } = session);
    unwrap(await api.call('memory.create', { content: 'The user’s cat is called Miso' }));
    chat = new ChatPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(() => session?.close());

  it('Settings: “The model searches” keeps memories out of the prompt until the model asks', async () => {
    await chat.open(app.url);
    const settings = new SettingsPage(page);
    await settings.openButton.click();
    await expect.poll(() => settings.heading.count()).toBe(1);
    const group = page.getByRole('group', { name: 'How answers reach your memories' });
    await expect.poll(() => group.getByRole('radio', { name: /^Automatic/ }).isChecked()).toBe(true);
    await group.getByRole('radio', { name: /^The model searches/ }).check();
    // What the choice does with this chat model (it has tools), by the rule the core answers by.
    await expect.poll(() => page.locator('.memory-access-now').textContent()).toMatch(/^With llama3\.2(:latest)?: the prompt holds pinned memories and your profile/);
    await settings.save.click();
    await expect.poll(async () => unwrap(await api.call('settings.get', {})).memoryAccess).toBe('tools');
    await settings.back.click();
  });

  it('the answer uses what the model found, and its receipt names the search and the memory', async () => {
    const answer = await chat.askInNewThread('What is my cat called?');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your cat is called Miso.');
    await expect.poll(() => answer.getByText('1 memory used').count()).toBe(1);
    await answer.locator('details.receipt summary').click();
    const search = answer.locator('.tool-search');
    await expect.poll(() => search.locator('.tool-search-line').textContent()).toBe('Searched memories for “cat”: 1 found');
    await expect.poll(() => search.locator('.tool-search-results').textContent()).toBe('The user’s cat is called Miso');
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'memory-tools.png') });
    expect(await unnamedControls(page)).toEqual([]);
    // The first request carried no memory but offered the tools.
    const first = fake.requests.find((r) => r.path === '/api/chat' && JSON.stringify(r.body).includes('What is my cat called?'))!.body as { tools?: Array<{ function: { name: string } }>; messages: Array<{ content: string }> };
    expect(first.tools?.map((t) => t.function.name)).toEqual(['search_memory', 'search_conversations', 'forget_memory']);
    expect(first.messages[0]!.content).not.toContain('Miso');
  });

  it('“What the model saw” lists the search', async () => {
    const answer = chat.lastAnswer();
    await answer.getByRole('button', { name: 'Context: what the model saw for this answer' }).click();
    const dialog = page.getByRole('dialog', { name: 'What the model saw' });
    await expect.poll(() => dialog.getByText('Searches the model ran').count()).toBe(1);
    await expect.poll(() => dialog.locator('.tool-search-line').textContent()).toBe('Searched memories for “cat”: 1 found');
    await page.keyboard.press('Escape');
  });

  it('after a reload the receipt still shows the search (read back with the thread)', async () => {
    await page.reload();
    await chat.thread('My cat').getByRole('button', { name: /^My cat/ }).click();
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your cat is called Miso.');
    await answer.locator('details.receipt summary').click();
    await expect.poll(() => answer.locator('.tool-search-line').textContent()).toBe('Searched memories for “cat”: 1 found');
  });

  it('while the model searches, the chat says so (“Searching memories: cat…”) until the answer goes on', async () => {
    const answer = await chat.askInNewThread('What is my cat called, again?');
    await expect.poll(async () => (await answer.getByRole('status').allTextContents()).map((text) => text.trim()), { timeout: 30_000 }).toEqual(['Searching memories: cat…']);
    expect(await answer.getByText(/^Loading/).count()).toBe(0);
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your cat is called Miso.');
    await expect.poll(() => answer.getByRole('status').count()).toBe(0);
  });

  it('an episode the search found is in the receipt, with its day and a link to its thread', async () => {
    await earlierConversation(api, 'Book the vet for my cat next week.');

    const answer = await chat.askInNewThread('What is my cat called?');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your cat is called Miso.');
    await answer.locator('details.receipt summary').click();
    const search = answer.locator('.tool-search');
    await expect.poll(() => search.locator('.tool-search-line').textContent()).toBe('Searched memories for “cat”: 2 found');
    const episode = search.locator('.tool-search-episode');
    expect(await episode.textContent()).toMatch(/^Episode “Vet visit for the cat”, (now|\d+ minutes? ago) Open the thread “Vet for Miso”$/);
    expect(await unnamedControls(page)).toEqual([]);
    await episode.getByRole('button', { name: 'Open the thread “Vet for Miso”' }).click();
    await expect.poll(() => page.getByText('Book the vet for my cat next week.').first().isVisible()).toBe(true);
  });

  it('“What did you recommend for my knee?” finds the earlier answer; the receipt says it was Mnemo’s', async () => {
    const earlier = unwrap(await api.call('chat.send', { text: 'My knee hurts after running.' }));
    const title = unwrap(await api.call('thread.get', { threadId: earlier.threadId })).title || 'untitled';
    const answer = await chat.askInNewThread('What did you recommend for my knee?');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('I recommended quad sets.');
    await answer.locator('details.receipt summary').click();
    const search = answer.locator('.tool-search');
    await expect.poll(() => search.locator('.tool-search-line').textContent()).toBe('Searched past conversations for “knee”: 2 found');
    const results = await search.locator('.tool-search-results li').allTextContents();
    expect(results.map((r) => r.replace(/, (now|\d+ minutes? ago)$/, ''))).toEqual(expect.arrayContaining([`Mnemo’s answer in “${title}”`, `Your message in “${title}”`]));
  });
});
