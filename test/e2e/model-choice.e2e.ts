/**
 * A new user whose Ollama has qwen3:4b and an embedding model but not the default llama3.2, in Chromium against
 * `npm run web` and a fake Ollama: Mnemo says which model it chose, the model pickers and the "not installed" card
 * offer only chat models, and choosing one on the card also fixes a background model that is missing.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { unnamedControls } from './support/a11y';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

describe('a chat model that just works (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'model-choice', ollama: {
      models: [
        { name: 'nomic-embed-text', family: 'nomic-bert', parameterSize: '137M', capabilities: ['embedding'] },
        { name: 'qwen3:4b', family: 'qwen3', parameterSize: '4.0B', capabilities: ['completion', 'tools', 'thinking'] },
      ],
    } });
    ({ app, page, api } = session);
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
  });

  afterAll(() => session?.close());

  it('first start: no setup card; a notice names the model Mnemo chose and opens Settings, whose pickers offer only chat models', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.toasts.textContent()).toContain('llama3.2 is not installed, so Mnemo uses qwen3:4b to chat and for background work. Change it in Settings.');
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    expect(await chat.setup(/not installed|Welcome to Mnemo/).count()).toBe(0);
    await expect.poll(() => chat.statusBar.textContent()).toContain('qwen3:4b');
    expect(await unnamedControls(page)).toEqual([]);

    await chat.toasts.getByRole('button', { name: 'Open Settings' }).click();
    await expect.poll(() => settings.heading.isVisible()).toBe(true);
    for (const label of ['Chat model', 'Background model']) {
      const picker = settings.field(label);
      expect(await picker.inputValue()).toBe('qwen3:4b');
      // nomic-embed-text is installed too, and never offered: it cannot chat.
      expect(await picker.locator('option').allTextContents()).toEqual(['qwen3:4b']);
    }
  });

  it('the first answer comes from the chosen model, which is stored for chat and background work', async () => {
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await chat.shortcut('Control+n');
    await chat.send('hi');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('You said: hi');
    const stored = await api.call('settings.get', {});
    expect(stored.ok && [stored.value.chatModel, stored.value.backgroundModel]).toEqual(['qwen3:4b', 'qwen3:4b']);
  });

  it('a chosen model that is gone: the card lists only chat models, and choosing one sets the missing background model too', async () => {
    const chosen = await api.call('settings.update', { patch: { chatModel: 'mistral', backgroundModel: 'mistral' } });
    expect(chosen.ok).toBe(true);
    const card = chat.setup('The chat model mistral is not installed');
    await expect.poll(() => card.isVisible()).toBe(true);
    const choices = card.getByRole('list', { name: 'Installed chat models' }).getByRole('button');
    expect(await choices.allTextContents()).toEqual(['qwen3:4b']);

    await card.getByRole('button', { name: 'Use qwen3:4b' }).click();
    await expect.poll(() => card.count()).toBe(0);
    const stored = await api.call('settings.get', {});
    expect(stored.ok && [stored.value.chatModel, stored.value.backgroundModel]).toEqual(['qwen3:4b', 'qwen3:4b']);
  });
});
