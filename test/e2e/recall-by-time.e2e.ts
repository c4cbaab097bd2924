/**
 * Asking by time, as a user does, in Chromium against `npm run web` and a fake Ollama: "What did I tell you about
 * the dentist last week?" brings the dentist memory into the prompt (the time is a filter, not words to match: the
 * memory, told today, is still what the store knows about the dentist), and the receipt under the answer names it; a
 * question of two parts gets a memory for each; 上周 works the same. A memory search whose match the prompt already
 * holds reads as found, "already in the prompt", in the receipt. "What did we talk about today?" carries the day's
 * episode, and the receipt and "What the model saw" name it (why the model knew about that conversation).
 * The chat model answers from what the prompt holds. One web host and one page for the whole file.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { earlierConversation } from './support/api';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const DENTIST = 'The dentist said my wisdom tooth has to come out';
const WORK = 'Works as a nurse at St. Mary’s hospital';
const DENTIST_ZH = '牙医说我的智齿要拔掉';

/**
 * The chat model says what its prompt holds about the dentist and work; offered tools for a question that says
 * "again", it first searches its memories for the dentist. The background model learns nothing.
 */
function reply(request: FakeInferenceRequest): FakeReply {
  if (request.purpose === 'episode') return { content: 'Lisbon trip in May\nWanted: a plan for a week in Lisbon in May.' };
  if (isLearning(request.purpose)) return { content: '{"memories": []}' };
  const searched = request.messages.some((m) => m.role === 'tool');
  if (request.body.tools && !searched && request.messages.at(-1)!.content.includes('again')) return { toolCalls: [{ name: 'search_memory', arguments: { query: 'dentist' } }] };
  if (request.purpose === 'title') return { content: 'Dentist' };
  const system = request.messages[0]?.content ?? '';
  const said = [system.includes('wisdom tooth') && 'Your dentist said the wisdom tooth has to come out.', system.includes('nurse') && 'You work as a nurse.', system.includes('智齿') && '牙医说你的智齿要拔掉。', system.includes('Lisbon trip in May') && 'We talked about your Lisbon trip.'];
  return { content: said.filter(Boolean).join(' ') || 'I do not know.' };
}

describe('asking by time (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'recall-time', reply });
    ({ app, page, api } = session);
    // Memories in the prompt (no tools): what the question's words and time bring is what the answer shows.
    unwrap(await api.call('settings.update', { patch: { memoryAccess: 'inject' } }));
    for (const content of [DENTIST, WORK, DENTIST_ZH]) unwrap(await api.call('memory.create', { content }));
    chat = new ChatPage(page);
  }, 120_000);

  afterAll(() => session?.close());

  it('“last week” is not words to match: the dentist memory answers, and the receipt names it', async () => {
    await chat.open(app.url);
    const answer = await chat.askInNewThread('What did I tell you about the dentist last week?');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your dentist said the wisdom tooth has to come out.');
    expect(await answer.textContent()).not.toContain('nurse');
    await answer.locator('details.receipt summary').click();
    await expect.poll(() => answer.locator('details.receipt').textContent()).toContain(DENTIST);
  });

  it('a question of two parts with a time gets a memory for each', async () => {
    await chat.send('Where do I work, and what did the dentist say last week?');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your dentist said the wisdom tooth has to come out. You work as a nurse.');
  });

  it('上周 in Chinese, written without spaces', async () => {
    await chat.send('上周我跟你说过牙医的什么？');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('牙医说你的智齿要拔掉。');
  });

  it('a memory search whose match is already in the prompt reads as found, marked “already in the prompt”', async () => {
    unwrap(await api.call('settings.update', { patch: { memoryAccess: 'both' } }));
    await chat.send('What did the dentist say last week, again?');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Your dentist said the wisdom tooth has to come out.');
    await answer.locator('details.receipt summary').click();
    const line = answer.locator('.tool-search-line');
    await expect.poll(() => line.textContent()).toBe('Searched memories for “dentist”: 1 foundalready in the prompt');
    await expect.poll(() => answer.locator('.tool-search-results').textContent()).toBe(DENTIST);
  });

  it('“What did we talk about today?”: the receipt and “What the model saw” name the earlier conversation the prompt carried', async () => {
    await earlierConversation(api, 'Help me plan a week in Lisbon in May.');
    const answer = await chat.askInNewThread('What did we talk about today?');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('We talked about your Lisbon trip.');
    await answer.locator('details.receipt summary').click();
    await expect.poll(() => answer.locator('details.receipt summary').textContent()).toContain('1 earlier conversation');
    await expect.poll(() => answer.locator('.recalled-episodes .tool-search-episode').textContent()).toMatch(/^Episode “Lisbon trip in May”, .+Open the thread/);
    await answer.getByRole('button', { name: 'Context: what the model saw for this answer' }).click();
    const dialog = page.getByRole('dialog', { name: 'What the model saw' });
    await expect.poll(() => dialog.getByText('Earlier conversations in the prompt').count()).toBe(1);
    await expect.poll(() => dialog.locator('.recalled-episodes .tool-search-episode').count()).toBe(1);
    await page.keyboard.press('Escape');
  });
});
