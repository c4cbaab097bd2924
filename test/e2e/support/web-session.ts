/**
 * One e2e file's world: a fake Ollama on loopback, `npm run web` on a fresh data folder pointed at it, the contract's
 * client for set-up and checks, and Chromium with one page. Semantic search is off unless the file names a models
 * folder Mnemo may download into, so a file that does not test embeddings never waits for one. `close()` ends
 * everything in reverse order and removes the data folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { Client } from '../../../shared/client';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions, type FakeReplySource } from '../../fakes/fake-ollama';
import { apiClient } from './api';
import { launchBrowser } from './browser';
import { startMnemo, type RunningApp } from './processes';

export interface WebSessionOptions {
  /** Names the temporary data folder (mnemo-e2e-<name>-…). */
  name: string;
  /** The fake Ollama's models and faults. */
  ollama?: FakeOllamaOptions;
  /** The fake's default reply, set before Mnemo starts. */
  reply?: FakeReplySource;
  /**
   * The models folder, inside the data folder: 'models' to let Mnemo download its embedding model (from a fake hub
   * named by env HF_ENDPOINT); default an empty folder the embedder never fills (semantic search off).
   */
  modelsFolder?: string;
  /** More environment for the web host (e.g. HF_ENDPOINT for a fake model hub). */
  env?: Record<string, string>;
}

export interface WebSession {
  dataDir: string;
  fake: FakeOllama;
  app: RunningApp;
  api: Client;
  browser: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function startWebSession(options: WebSessionOptions): Promise<WebSession> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mnemo-e2e-${options.name}-`));
  const opened: Array<() => Promise<void>> = [async () => fs.rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const end of opened.splice(0).reverse()) await end();
  };
  try {
    const fake = await startFakeOllama(options.ollama);
    opened.push(() => fake.close());
    if (options.reply) fake.setDefaultReply(options.reply);
    const modelsDir = path.join(dataDir, options.modelsFolder ?? 'no-embedding-models');
    fs.mkdirSync(modelsDir, { recursive: true });
    const app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir], { OLLAMA_HOST: fake.url, MNEMO_MODELS_DIR: modelsDir, ...options.env });
    opened.push(() => app.stop());
    const browser = await launchBrowser();
    opened.push(() => browser.close());
    const page = await browser.browser.newPage();
    return { dataDir, fake, app, api: apiClient(app), browser: browser.browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
