/**
 * Mnemo on an OpenAI-compatible server (LM Studio, llama-server, ...), in Chromium against `npm run web` and a fake
 * server speaking that protocol: the user points Mnemo at it in Settings (server type, base URL; an address on another
 * machine refused until confirmed; the API key the server asks for), chats with a streamed answer, and Mnemo learns
 * from the chat with a structured-output request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiReply, type FakeOpenAiRequest } from '../fakes/fake-openai';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { apiClient } from './support/api';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { startMnemo, type RunningApp } from './support/processes';

const MODEL = 'qwen2.5-7b-instruct';
const API_KEY = 'sk-lm-e2e-0123456789';
/** TEST-NET-1 (RFC 5737): an address on "another machine" that nothing in this test ever connects to. */
const REMOTE_URL = 'http://192.0.2.10:1234/v1';
const isExtraction = (r: FakeOpenAiRequest) => r.purpose === 'extract';
const isTitle = (r: FakeOpenAiRequest) => r.purpose === 'title';

function reply(request: FakeOpenAiRequest): FakeOpenAiReply {
  if (isExtraction(request)) {
    const learned = request.messages.at(-1)!.content.includes('I live in Lisbon')
      ? [{ content: 'Lives in Lisbon', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Lisbon' }]
      : [];
    return { content: JSON.stringify({ memories: learned }) };
  }
  if (isTitle(request)) return { content: 'About me' };
  return { reasoning: 'The user shares where they live.', content: 'Lisbon is a lovely city to walk to work in!' };
}

describe('chat and learning on an OpenAI-compatible server (web host + fake LM Studio)', () => {
  let fake: FakeOpenAi;
  let app: RunningApp;
  let api: Client;
  let browser: { browser: BrowserContext; close(): Promise<void> };
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;
  const foreignRequests: string[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-e2e-openai-'));

  beforeAll(async () => {
    fake = await startFakeOpenAi({ dialect: 'lmstudio', apiKey: API_KEY, models: [{ id: MODEL, contextLength: 32768, loadedContextLength: 8192 }, { id: 'text-embedding-nomic-embed-text-v1.5', type: 'embeddings' }] });
    fake.setDefaultReply(reply);
    const modelsDir = path.join(dataDir, 'no-embedding-models');
    fs.mkdirSync(modelsDir);
    // No Ollama anywhere: OLLAMA_HOST points at a closed port, so nothing may fall back to it.
    app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir], { OLLAMA_HOST: 'http://127.0.0.1:9', MNEMO_MODELS_DIR: modelsDir });
    api = apiClient(app);
    browser = await launchBrowser();
    page = await browser.browser.newPage();
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(app.baseUrl) && !url.startsWith(app.baseUrl.replace('http', 'ws'))) foreignRequests.push(url);
    });
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fake?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is pointed at the server in Settings: an address on another machine only once confirmed, the key the server asks for', async () => {
    await chat.open(app.url);
    await settings.openButton.click();
    await expect.poll(() => settings.heading.isVisible()).toBe(true);
    expect(await settings.ollamaServer.isChecked()).toBe(true);
    // By keyboard, as a radio group: the arrow key moves the choice.
    await settings.ollamaServer.focus();
    await page.keyboard.press('ArrowDown');
    expect(await settings.openAiServer.isChecked()).toBe(true);
    // LM Studio's address is the default.
    expect(await settings.baseUrl.inputValue()).toBe('http://127.0.0.1:1234/v1');

    // Another machine: refused at the field, with the confirmation beside it, and nothing can be saved.
    await settings.baseUrl.fill(REMOTE_URL);
    const confirmation = settings.remoteConfirmation('http://192.0.2.10:1234');
    expect(await confirmation.isChecked()).toBe(false);
    expect(await settings.baseUrl.getAttribute('aria-invalid')).toBe('true');
    const fieldError = settings.page.locator(`[id="${await settings.baseUrl.getAttribute('id')}-error"]`);
    expect(await fieldError.textContent()).toBe('http://192.0.2.10:1234 is not on this computer. Tick the box that allows sending your conversations there, or use a server on this computer.');
    expect(await settings.save.isDisabled()).toBe(true);
    // Every new control is labelled and described: no serious WCAG violation with the error and the confirmation shown.
    expect(await seriousViolations(page)).toEqual([]);
    await confirmation.focus();
    await page.keyboard.press('Space');
    expect(await confirmation.isChecked()).toBe(true);
    expect(await settings.baseUrl.getAttribute('aria-invalid')).toBeNull();
    expect(await settings.save.isEnabled()).toBe(true);

    // This computer: no confirmation asked (and the one ticked for the other address is not stored).
    await settings.baseUrl.fill(fake.baseUrl);
    expect(await confirmation.count()).toBe(0);
    await settings.save.click();
    await expect.poll(() => settings.page.getByText('Saved', { exact: true }).isVisible()).toBe(true);
    expect(unwrap(await api.call('settings.get', {}))).toMatchObject({ llmProvider: 'openai', openaiBaseUrl: fake.baseUrl, openaiRemoteConfirmed: '', openaiApiKeySet: false });

    // The server wants a key: the line under the fields says so, in the server's own words (the key it got is not echoed).
    await expect.poll(() => settings.serverLine.textContent()).toContain(`Mnemo cannot use the model server at ${fake.baseUrl}.`);
    expect(await settings.serverLine.textContent()).toContain('It wants an API key: set one in Settings.');

    // A key typed but not kept is not left behind silently.
    await settings.apiKey.fill(API_KEY);
    await settings.back.click();
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await expect.poll(() => ask.isVisible()).toBe(true);
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await settings.apiKey.inputValue()).toBe(API_KEY);
    await settings.apiKey.press('Enter');
    await expect.poll(() => settings.page.getByText('A key is set; it is never shown again.').isVisible()).toBe(true);
    // Never shown back (the field empties once the core's answer is in; the "key is set" line may come first, by event).
    await expect.poll(() => settings.apiKey.inputValue()).toBe('');
    expect(await settings.apiKey.getAttribute('type')).toBe('password');
    expect(unwrap(await api.call('settings.get', {})).openaiApiKeySet).toBe(true);
    // The model list is asked again with the key, and lists the server's models.
    await expect.poll(() => settings.serverLine.textContent()).toContain(`OpenAI-compatible server at ${fake.baseUrl}, 2 models available`);
    const listed = fake.requests.filter((r) => r.path === '/v1/models');
    expect(listed.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // Nothing was ever sent to the address on another machine, nor anywhere but the fake.
    expect(foreignRequests).toEqual([]);
    await settings.back.click();
  });

  it('answers a chat with the streamed reply of a model the server lists, its reasoning kept apart', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    await chat.newThread();
    await chat.send('I live in Lisbon and I walk to work every day.');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('Lisbon is a lovely city to walk to work in!');
    // The server's reasoning_content is the answer's folded "Thoughts", not its text.
    const thinking = chat.lastAnswer().locator('details.thinking');
    expect(await thinking.getAttribute('open')).toBeNull();
    expect(await thinking.textContent()).toContain('The user shares where they live.');

    const completions = fake.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(completions[0]?.body).toMatchObject({ model: MODEL, stream: true });
    expect(completions.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(unwrap(await api.call('models.list', {}))).toMatchObject({ api: 'openai', host: fake.baseUrl, reachable: true, chatModel: { name: MODEL, installed: true } });
    expect(foreignRequests).toEqual([]);
  });

  it('learns from that chat through a structured-output request, and shows it under the message', async () => {
    const chips = chat.questions.last().getByRole('list', { name: 'Learned from this message' });
    await expect.poll(async () => (await chips.getByRole('button').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['Learned: Lives in Lisbon']);
    const memories = unwrap(await api.call('memory.list', {})).items;
    expect(memories.map((m) => [m.content, m.status])).toEqual([['Lives in Lisbon', 'active']]);
    const extraction = fake.requests.find((r) => r.purpose === 'extract');
    expect(extraction?.body).toMatchObject({ model: MODEL, response_format: { type: 'json_schema' } });
  });

  it('offers no download when the chat model is gone from the server: the model is loaded in the server itself', async () => {
    const other = 'llama-3.2-3b-instruct';
    fake.setModels([{ id: other }]);
    try {
      await settings.openButton.click();
      await settings.serverLine.getByRole('button', { name: 'Check again' }).click();
      await expect.poll(() => settings.serverLine.textContent()).toContain(`OpenAI-compatible server at ${fake.baseUrl}, 1 model available`);
      await settings.back.click();
      const card = chat.setup(`The chat model ${MODEL} is not available from the model server`);
      await expect.poll(() => card.isVisible()).toBe(true);
      expect(await card.getByRole('list', { name: 'Chat models the server offers' }).getByRole('button').allTextContents()).toEqual([other]);
      expect(await card.textContent()).toContain(`Or load ${MODEL} in your model server, then check again.`);
      expect(await card.getByRole('button', { name: /Download/ }).count()).toBe(0);
    } finally {
      fake.setModels([{ id: MODEL, contextLength: 32768, loadedContextLength: 8192 }, { id: 'text-embedding-nomic-embed-text-v1.5', type: 'embeddings' }]);
    }
  });
});
