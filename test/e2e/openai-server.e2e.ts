/**
 * Mnemo on an OpenAI-compatible server (LM Studio, llama-server, ...), in Chromium against `npm run web` and a fake
 * server speaking that protocol: the user points Mnemo at it (settings, through the API until the settings form has
 * the fields), chats with a streamed answer, and Mnemo learns from the chat with a structured-output request.
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
import { apiClient } from './support/api';
import { launchBrowser } from './support/browser';
import { startMnemo, type RunningApp } from './support/processes';

const MODEL = 'qwen2.5-7b-instruct';
const isExtraction = (r: FakeOpenAiRequest) => r.messages[0]?.content.startsWith('You pick out durable facts') ?? false;
const isTitle = (r: FakeOpenAiRequest) => r.messages.at(-1)?.content.startsWith('Write a short title') ?? false;

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
  const foreignRequests: string[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-e2e-openai-'));

  beforeAll(async () => {
    fake = await startFakeOpenAi({ dialect: 'lmstudio', models: [{ id: MODEL, contextLength: 32768, loadedContextLength: 8192 }, { id: 'text-embedding-nomic-embed-text-v1.5', type: 'embeddings' }] });
    fake.setDefaultReply(reply);
    const modelsDir = path.join(dataDir, 'no-embedding-models');
    fs.mkdirSync(modelsDir);
    // No Ollama anywhere: OLLAMA_HOST points at a closed port, so nothing may fall back to it.
    app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir], { OLLAMA_HOST: 'http://127.0.0.1:9', MNEMO_MODELS_DIR: modelsDir });
    api = apiClient(app);
    unwrap(await api.call('settings.update', { patch: { llmProvider: 'openai', openaiBaseUrl: fake.baseUrl } }));
    browser = await launchBrowser();
    page = await browser.browser.newPage();
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(app.baseUrl) && !url.startsWith(app.baseUrl.replace('http', 'ws'))) foreignRequests.push(url);
    });
    chat = new ChatPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fake?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a chat with the streamed reply of a model the server lists, its reasoning kept apart', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible()).toBe(true);
    await chat.newThreadButton.click();
    await chat.send('I live in Lisbon and I walk to work every day.');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('Lisbon is a lovely city to walk to work in!');
    // The server's reasoning_content is the answer's folded "Thoughts", not its text.
    const thinking = chat.lastAnswer().locator('details.thinking');
    expect(await thinking.getAttribute('open')).toBeNull();
    expect(await thinking.textContent()).toContain('The user shares where they live.');

    const sent = fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { model: string; stream: boolean });
    expect(sent[0]).toMatchObject({ model: MODEL, stream: true });
    expect(unwrap(await api.call('models.list', {}))).toMatchObject({ api: 'openai', host: fake.baseUrl, reachable: true, chatModel: { name: MODEL, installed: true } });
    expect(foreignRequests).toEqual([]);
  });

  it('learns from that chat through a structured-output request, and shows it under the message', async () => {
    const chips = chat.questions.last().getByRole('list', { name: 'Learned from this message' });
    await expect.poll(async () => (await chips.getByRole('button').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['Learned: Lives in Lisbon']);
    const memories = unwrap(await api.call('memory.list', {})).items;
    expect(memories.map((m) => [m.content, m.status])).toEqual([['Lives in Lisbon', 'active']]);
    const extraction = fake.requests.find((r) => r.path === '/v1/chat/completions' && (r.body as { response_format?: unknown }).response_format !== undefined);
    expect(extraction?.body).toMatchObject({ model: MODEL, response_format: { type: 'json_schema' } });
  });
});
