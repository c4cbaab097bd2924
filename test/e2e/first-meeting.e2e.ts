/**
 * Mnemo as a user first meets it, in Chromium against `npm run web` and a fake Ollama (llama3.2 and an embedding
 * model installed, OLLAMA_HOST set, no built-in embedding model, no internet for the model hub): the welcome names
 * the shortcut this host really handles, notices never cover the composer, an incognito thread says it is one,
 * the status bar and Settings speak in user words (where the Ollama address comes from, why semantic search is off,
 * a download that fails says why, the Ollama embedding model is offered), and leaving Settings with unsaved edits asks.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import type { Page } from 'playwright-core';
import type { FakeOllama } from '../fakes/fake-ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { SettingsPage } from './pages/settings.page';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

describe('first meeting (web host + fake Ollama, offline model hub)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;
  let memories: MemoriesPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'first-meeting', ollama: {
      models: [
        { name: 'llama3.2:latest', family: 'llama', parameterSize: '3.2B', capabilities: ['completion', 'tools'] },
        { name: 'nomic-embed-text:latest', family: 'nomic-bert', parameterSize: '137M', capabilities: ['embedding'] },
      ],
    }, reply: (request) => ({ content: `You said: ${request.messages.at(-1)?.content ?? ''}` }), env: { HF_ENDPOINT: 'http://127.0.0.1:9' } });
    ({ fake, app, page } = session);
    // Port 9 (discard) on loopback refuses connections: the model hub is out of reach, as when offline.
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
    memories = new MemoriesPage(page);
    await chat.open(app.url);
  });

  afterAll(() => session?.close());

  it('the welcome names the new-thread shortcut the browser hands to the page (Alt+N), not Ctrl+N', async () => {
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    const welcome = page.getByRole('region', { name: 'Chat' });
    await expect.poll(() => welcome.textContent()).toContain('Alt+N new thread');
    expect(await welcome.textContent()).not.toContain('Ctrl+N');
    // One name for one thing: the sidebar's "New thread" is the welcome's "Start a new thread" (was "Start a conversation").
    expect(await welcome.getByRole('button', { name: 'Start a new thread', exact: true }).count()).toBe(1);
    expect(await welcome.textContent()).not.toContain('conversation');
    await chat.shortcut('Alt+n');
    await expect.poll(() => chat.composer.isVisible()).toBe(true);
  });

  it('the status bar says the database version in words, on the line and on hover: no migration name', async () => {
    await expect.poll(() => chat.statusBar.textContent()).toContain('Mnemo ');
    const text = (await chat.statusBar.textContent()) ?? '';
    expect(text).not.toMatch(/\d{4}_[a-z_]+/);
    const hover = (await chat.statusBar.getByText(/^Mnemo /).getAttribute('title')) ?? '';
    // Issue 30's walk: the hover said "Database schema 0017_reply_writer".
    expect(hover).toMatch(/^Database version \d+ · data folder /);
    expect(hover).not.toMatch(/\d{4}_[a-z_]+/);
  });

  it('an empty incognito thread says nothing is read from or written to memory', async () => {
    await chat.newIncognitoButton.click();
    await expect.poll(() => chat.messages.textContent()).toContain('Incognito: nothing in this thread is read from or written to your memories.');
    expect(await chat.messages.textContent()).not.toContain('learns what matters');
  });

  it('a notice never covers the composer', async () => {
    await chat.send('hello');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: hello');
    await chat.threads.first().hover();
    await chat.threads.first().getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => chat.toasts.getByText(/^Deleted/).count()).toBe(1);
    await chat.newThread();
    const toast = (await chat.toasts.locator('.toast').first().boundingBox())!;
    const composer = (await chat.composer.boundingBox())!;
    const overlaps = toast.x < composer.x + composer.width && composer.x < toast.x + toast.width && toast.y < composer.y + composer.height && composer.y < toast.y + toast.height;
    expect(overlaps).toBe(false);
  });

  it('Settings shows the Ollama address in use and where it comes from (OLLAMA_HOST)', async () => {
    await settings.openButton.click();
    await expect.poll(() => settings.heading.isVisible()).toBe(true);
    const host = settings.field('Ollama host');
    expect(await host.getAttribute('placeholder')).toBe(fake.url);
    await expect.poll(() => page.locator('.settings').textContent()).toContain(`In use: ${fake.url}, from the OLLAMA_HOST environment variable.`);
  });

  it('leaving Settings with unsaved edits asks first; staying keeps the edit, leaving discards it', async () => {
    await settings.setNumber('Memories per answer', '7');
    await page.getByRole('button', { name: 'Back to chat' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await expect.poll(() => ask.isVisible()).toBe(true);
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await settings.field('Memories per answer').inputValue()).toBe('7');
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => settings.heading.isVisible()).toBe(false);
    await settings.openButton.click();
    expect(await settings.field('Memories per answer').inputValue()).not.toBe('7');
  });

  it('context shares over 1 mark the shares; an empty or negative share has no made-up total', async () => {
    await settings.setNumber('Long-term memories', '0.9');
    await expect.poll(() => page.locator('.settings [aria-invalid="true"]').count()).toBe(4);
    await settings.setNumber('Long-term memories', '');
    await settings.setNumber('Instructions', '-0.5');
    await expect.poll(() => settings.budgetTotal.textContent()).not.toMatch(/Total: [\d.]+ of at most 1/);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  it('semantic search off: one sentence a user can act on, the file list folded', async () => {
    await memories.open();
    await expect.poll(() => memories.semanticNotice.isVisible()).toBe(true);
    const visible = await memories.semanticNotice.innerText();
    expect(visible).toContain('The built-in embedding model is not downloaded yet: download it');
    expect(visible).not.toContain('tokenizer.json');
    expect(await memories.semanticNotice.locator('details').textContent()).toContain('tokenizer.json');
  });

  it('offline, downloading the model says it failed and why', async () => {
    await memories.semanticNotice.getByRole('button', { name: 'Download the model' }).click();
    const failure = memories.semanticNotice.getByRole('alert');
    await expect.poll(() => failure.textContent(), { timeout: 60_000 }).toContain('The download failed');
    expect(await failure.textContent()).toContain('127.0.0.1:9');
  });

  it('offers the embedding model Ollama has, and semantic search turns on with it', async () => {
    await memories.semanticNotice.getByRole('button', { name: 'Use nomic-embed-text:latest from Ollama' }).click();
    await expect.poll(() => memories.semanticNotice.isVisible(), { timeout: 60_000 }).toBe(false);
    await expect.poll(() => chat.statusBar.textContent()).toContain('Semantic search on');
  });
});
