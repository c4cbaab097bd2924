/**
 * The words a new user reads where Mnemo explains itself (issue 30 items 3, 4 and 9): why semantic search is off is
 * one sentence saying what to do, in English and in Chinese, in Settings as on the Memories screen, with the core's
 * file names and folders folded under "Technical details"; a refused API key is said in Chinese; counts read as
 * counts ("1 minute", "1 day"). Real web host, fake Ollama, no embedding model (so semantic search is off).
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { latinWords } from '../support/latin-words';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { SettingsPage } from './pages/settings.page';
import { seriousViolations } from './support/axe';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

/** What the core's message names: none of it is for the sentence a user reads first. */
const FILE_WORDS = ['config.json', 'tokenizer.json', 'model_quantized.onnx', 'MNEMO_MODELS_DIR', 'no-embedding-models'];

/** Settings › Memory's line on semantic search, found by what it says in either language. */
function embeddingLine(page: Page): Locator {
  return page.locator('.field-note').filter({ hasText: /Keyword search only|仅关键词搜索/ });
}

/** The text a user sees (innerText leaves out what a closed disclosure folds). */
const visible = (locator: Locator) => locator.innerText();

describe('plain words: reasons in one sentence, in the UI’s language, with counts that read right', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let settings: SettingsPage;
  let memories: MemoriesPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'words', reply: { content: 'Hello.' } });
    ({ app, page, api } = session);
    settings = new SettingsPage(page);
    memories = new MemoriesPage(page);
    await new ChatPage(page).open(app.url);
  });
  afterAll(() => session?.close());

  it('Settings: why semantic search is off is one sentence saying what to do; the files and the folder wait under Technical details', async () => {
    await settings.openButton.click();
    const line = embeddingLine(page);
    await expect.poll(() => line.count()).toBe(1);
    await expect.poll(() => visible(line)).toContain('The built-in embedding model is not downloaded yet: download it');
    const shown = await visible(line);
    for (const word of FILE_WORDS) expect(shown).not.toContain(word);
    // Inside Settings, the choice is the field just above, not "in Settings".
    expect(shown).toContain('or choose another embedding model above.');
    expect(shown).not.toContain('in Settings');
    expect(await line.getByRole('button', { name: 'Download the model' }).count()).toBe(1);

    const details = line.getByText('Technical details');
    await details.click();
    await expect.poll(() => visible(line)).toContain('config.json');
    expect(await visible(line)).toContain('onnx/model_quantized.onnx');
    await details.click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Memories: the notice says the same, the core’s words folded the same way', async () => {
    await memories.open();
    await expect.poll(() => memories.semanticNotice.count()).toBe(1);
    const shown = await visible(memories.semanticNotice);
    expect(shown).toContain('The built-in embedding model is not downloaded yet');
    expect(shown).toContain('or choose another embedding model in Settings.');
    for (const word of FILE_WORDS) expect(shown).not.toContain(word);
    expect(await memories.semanticNotice.getByText('Technical details').count()).toBe(1);
  });

  it('counts read as counts: quiet for 1 minute, erased after 1 day', async () => {
    unwrap(await api.call('settings.update', { patch: { episodeQuietMinutes: 1, trashRetentionDays: 1 } }));
    await memories.tab('Episodes').click();
    const panel = page.getByRole('tabpanel');
    await expect.poll(() => visible(panel)).toContain('once it has been quiet for 1 minute.');
    expect(await visible(panel)).not.toContain('1 minutes');
    await memories.tab('Trash').click();
    await expect.poll(() => visible(page.getByRole('tabpanel'))).toContain('erased for good after 1 day.');
    unwrap(await api.call('settings.update', { patch: { episodeQuietMinutes: 30, trashRetentionDays: 30 } }));
  });

  it('in Chinese: Settings says why semantic search is off in Chinese, and the status bar’s hint too', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByRole('navigation').getByRole('button', { name: /^设置/ }).click();
    const line = embeddingLine(page);
    await expect.poll(() => visible(line)).toContain('内置的嵌入模型还没有下载');
    expect(await visible(line)).toContain('或在上方另选一个嵌入模型');
    expect(await visible(line)).not.toContain('在设置中');
    expect(latinWords(await visible(line))).toEqual([]);
    const hint = await page.locator('.status-bar .status-item').filter({ hasText: '仅关键词搜索' }).getAttribute('title');
    expect(hint).toContain('内置的嵌入模型还没有下载');
    expect(latinWords(hint ?? '')).toEqual([]);
  });

  it('in Chinese: Settings › 模型服务器 refuses an API key with a space in Chinese', async () => {
    await page.getByRole('group', { name: '服务器类型' }).getByRole('radio').nth(1).check();
    const key = page.getByLabel(/^API 密钥/).first();
    await key.fill('sk-abc def');
    await page.getByRole('button', { name: /保存密钥|替换密钥/ }).click();
    const error = page.locator('.field-error').filter({ hasText: 'API 密钥' });
    await expect.poll(() => visible(error)).toContain('API 密钥只能由字母、数字和符号组成');
    expect(latinWords(await visible(error))).toEqual([]);
  });
});
