/**
 * Memories › Episodes as a user meets it, in Chromium against `npm run web` and a fake Ollama whose background model
 * answers the episode request: the empty state saying when episodes appear, an episode the background model wrote
 * (asked for now through the API, as "quiet" would take half an hour), the link to its thread, the user's edit with
 * its versions and a revert, and delete. One web host and one page for the whole file; each test continues the last.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import { startFakeOllama, type FakeInferenceRequest, type FakeOllama } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { unnamedControls } from './support/a11y';
import { apiClient } from './support/api';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { startMnemo, type RunningApp } from './support/processes';

const isEpisodeRequest = (request: FakeInferenceRequest) => request.messages[0]?.content.startsWith('You write an episode') ?? false;
const EPISODE = 'Lisbon trip in May\nWanted: a plan for a week in Lisbon.\nPlaces: Lisbon, Porto';

/** The Episodes panel as the user sees it. */
class EpisodesPanel {
  readonly panel: Locator;
  readonly list: Locator;
  readonly items: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('tabpanel');
    this.list = page.getByRole('list', { name: 'Episodes, newest first' });
    this.items = this.list.getByRole('listitem');
  }

  text(): Promise<string> {
    return this.panel.innerText();
  }
}

describe('Memories › Episodes (web host + fake Ollama)', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let browser: { browser: BrowserContext; close(): Promise<void> };
  let page: Page;
  let memories: MemoriesPage;
  let episodes: EpisodesPanel;
  let threadId = 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-e2e-episodes-'));

  beforeAll(async () => {
    fake = await startFakeOllama();
    fake.setDefaultReply((request) => (isEpisodeRequest(request) ? { content: EPISODE } : { content: 'Happy to help.' }));
    app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir], { OLLAMA_HOST: fake.url, MNEMO_MODELS_DIR: path.join(dataDir, 'models') });
    api = apiClient(app);
    browser = await launchBrowser();
    page = await browser.browser.newPage();
    memories = new MemoriesPage(page);
    episodes = new EpisodesPanel(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fake?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('before any: the tab says when episodes appear, with the switch and the quiet time', async () => {
    await new ChatPage(page).open(app.url);
    await memories.open();
    await memories.tab('Episodes').click();
    await expect.poll(() => episodes.text()).toContain('No episodes yet');
    expect(await episodes.text()).toContain('quiet for 30 minutes');
    expect(await page.getByRole('switch', { name: 'Write episodes' }).isChecked()).toBe(true);
    expect(await page.getByRole('spinbutton', { name: 'A conversation is quiet after (minutes)' }).inputValue()).toBe('30');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('an episode the background model wrote appears live, with its dates and its thread', async () => {
    const sent = unwrap(await api.call('chat.send', { text: 'Help me plan a week in Lisbon in May.' }));
    threadId = sent.threadId;
    unwrap(await api.call('episode.refresh', { threadId }));
    await expect.poll(() => episodes.items.count(), { timeout: 30_000 }).toBe(1);
    const item = episodes.items.first();
    expect(await item.getByRole('heading').innerText()).toBe('Lisbon trip in May');
    expect(await item.innerText()).toContain('Places: Lisbon, Porto');
    expect(await item.getByRole('button', { name: /^Open the thread/ }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Edit keeps the user’s text (edited by you); Versions lists both and brings the first back', async () => {
    const item = episodes.items.first();
    await item.getByRole('button', { name: 'Edit' }).click();
    const text = item.getByRole('textbox', { name: 'What happened' });
    await text.fill('Wanted: a week in Lisbon, trains only.');
    await item.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => item.innerText()).toContain('trains only');
    expect(await item.innerText()).toContain('edited by you');
    const stored = unwrap(await api.call('episode.list', {})).episodes[0]!;
    expect(stored).toMatchObject({ content: 'Wanted: a week in Lisbon, trains only.', editedByUser: true, version: 2 });

    await item.getByRole('button', { name: 'Versions' }).click();
    await expect.poll(() => item.innerText()).toContain('Version 1');
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByRole('button', { name: 'Bring back version 1' }).click();
    await expect.poll(() => item.locator('.episode-text').innerText()).toBe('Wanted: a plan for a week in Lisbon.\nPlaces: Lisbon, Porto');
    await expect.poll(() => item.innerText()).toContain('Version 3');
  });

  it('the thread link opens the conversation; Delete removes the episode and the empty state returns', async () => {
    await episodes.items.first().getByRole('button', { name: /^Open the thread/ }).click();
    await expect.poll(() => page.getByText('Help me plan a week in Lisbon in May.').first().isVisible()).toBe(true);
    await memories.open();
    await memories.tab('Episodes').click();
    await episodes.items.first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => episodes.text()).toContain('No episodes yet');
    expect(unwrap(await api.call('episode.list', { status: 'trashed' })).episodes).toHaveLength(1);
  });
});
