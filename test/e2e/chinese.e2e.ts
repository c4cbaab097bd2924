/**
 * The Chinese UI as a Chinese reader meets it: what the screens show in zh-CN is Chinese, including what comes from
 * the core (its messages are English: the screen shows the catalog's sentence for the error's code and folds the
 * core's words under 详情), and the timeline says who did what in whole sentences. Real web host, fake Ollama on
 * loopback, no embedding model (so semantic search is off and says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { FakeOllama } from '../fakes/fake-ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { latinWords } from '../support/latin-words';
import { ROOT, type RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

/** The few places of the Chinese UI this test reads, by their Chinese names. */
class ChineseUi {
  readonly nav: Locator;
  readonly semanticNotice: Locator;
  readonly timeline: Locator;
  readonly composer: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation');
    this.semanticNotice = page.getByRole('region', { name: '语义搜索' });
    this.timeline = page.getByRole('region', { name: '发生的事情' });
    this.composer = page.getByRole('textbox', { name: '消息' });
  }

  async go(screen: '记忆' | '时间线'): Promise<void> {
    await this.nav.getByRole('button', { name: screen }).first().click();
  }

  addMemoryDialog(): Locator {
    return this.page.getByRole('dialog', { name: '添加一条记忆' });
  }

  lastAnswer(): Locator {
    return this.page.getByRole('article', { name: 'Mnemo' }).last();
  }
}

/** The families Chromium drew an element's text with (DevTools' "Rendered Fonts"). */
async function fontsDrawing(page: Page, xpath: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.getDocument', { depth: -1 });
    await cdp.send('CSS.enable');
    const { searchId, resultCount } = await cdp.send('DOM.performSearch', { query: xpath });
    expect(resultCount).toBe(1);
    const { nodeIds } = await cdp.send('DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: 1 });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: nodeIds[0]! });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

/** A question answered slowly, so the model server can be stopped while the answer streams. */
const LONG_STORY = '讲一个很长的故事';

describe('the Chinese UI shows Chinese, including the core’s failures', () => {
  let fake: FakeOllama;
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let ui: ChineseUi;

  beforeAll(async () => {
    session = await startWebSession({ name: 'zh', reply: (req) => {
      if (isLearning(req.purpose)) return { content: '{"memories": []}' };
      if (req.purpose === 'title') return { content: '周末计划' };
      const asked = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      if (asked.endsWith(LONG_STORY)) return { chunks: Array.from({ length: 80 }, (_, i) => `第${i}段 `), delayMsPerChunk: 300 };
      return { content: '波尔图的春天很美。' };
    } });
    ({ fake, app, page, api } = session);
    unwrap(await api.call('memory.create', { content: '我养了一只叫豆豆的橘猫' }));
    unwrap(await api.call('chat.send', { text: '我打算周末去波尔图' }));
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    ui = new ChineseUi(page);
  }, 120_000);
  afterAll(() => session?.close());

  it('the semantic-search notice says why it is off in Chinese; the core’s file names wait under 技术细节', async () => {
    await page.goto(app.url);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 15_000 }).toBe('zh-CN');
    await ui.go('记忆');
    await expect.poll(() => ui.semanticNotice.isVisible()).toBe(true);
    // The embedding model Ollama has is offered by its name, an identifier.
    expect(latinWords(await ui.semanticNotice.innerText(), ['nomic-embed-text:latest'])).toEqual([]);
  });

  it('adding a memory Mnemo already has: the refusal in Chinese, naming the memory, the core’s words folded', async () => {
    await page.getByRole('button', { name: '添加记忆' }).first().click();
    const dialog = ui.addMemoryDialog();
    await dialog.getByRole('textbox', { name: 'Mnemo 记住的内容' }).fill('我养了一只叫豆豆的橘猫');
    await dialog.getByRole('button', { name: '添加记忆' }).click();
    const alert = dialog.getByRole('alert');
    await expect.poll(() => alert.innerText()).toMatch(/^你已经有这条记忆了（#\d+），请直接编辑那一条。/);
    expect(latinWords(await alert.innerText())).toEqual([]);
    expect(await alert.textContent()).toContain('You already have this memory');
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  it('the timeline says who did it in a sentence, never the fragment 由你', async () => {
    await page.reload();
    await ui.go('时间线');
    const added = ui.timeline.getByRole('listitem').filter({ hasText: '我养了一只叫豆豆的橘猫' });
    await expect.poll(() => added.innerText()).toContain('你添加了这条记忆');
    const stream = await ui.timeline.innerText();
    expect(stream).not.toContain('由你');
    expect(latinWords(stream)).toEqual([]);
  });

  it('“截至” takes a day the Chinese way (年/月/日), not the browser’s mm/dd/yyyy', async () => {
    const asOf = page.getByRole('textbox', { name: '截至' });
    expect(await asOf.getAttribute('placeholder')).toBe('年/月/日');
    await asOf.fill('2026年11月1日');
    await expect.poll(() => page.getByRole('complementary').getByRole('heading').innerText()).toBe('2026年11月1日 时 Mnemo 记得的内容');
    await page.getByRole('complementary').getByRole('button').first().click();
  });

  it('a thread in Chinese, drawn in a Chinese font (docs/screenshots/zh-CN-chat.png)', async () => {
    await page.reload();
    await ui.nav.getByRole('listitem').first().getByRole('button').first().click();
    await expect.poll(() => ui.lastAnswer().innerText()).toContain('波尔图的春天很美');
    // The fonts the browser drew the answer with: Noto Sans SC, the test browser's (support/test-fonts.ts), not boxes.
    // (Its subset files are named for the variable font's first instance, "Noto Sans SC Thin", at regular weight.)
    expect(await fontsDrawing(page, "//p[contains(., '波尔图的春天很美')]")).toContainEqual(expect.stringMatching(/^Noto Sans SC/));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'zh-CN-chat.png') });
  });

  it('Ollama dying mid-answer: the answer says to start it again, then 重试; what the status bar announces is Chinese', async () => {
    await ui.composer.click();
    await ui.composer.pressSequentially(LONG_STORY);
    await ui.composer.press('Enter');
    await expect.poll(() => ui.lastAnswer().innerText(), { timeout: 15_000 }).toContain('第2段');
    await fake.stop();
    const error = ui.lastAnswer().getByRole('alert');
    await expect.poll(() => error.innerText()).toContain('模型服务器在回答途中停止了响应。如果它已关闭，请重新启动它，然后点击“重试”。');
    const announced = page.getByRole('contentinfo').getByRole('status');
    await expect.poll(() => announced.textContent()).toContain('无法连接 Ollama');
    expect(latinWords((await announced.textContent()) ?? '')).toEqual([]);
    await expect.poll(() => page.locator('.status-bar .status-item').filter({ hasText: '无法连接 Ollama' }).count()).toBe(1);
  });

  it('Ollama gone: the failed answer says so in Chinese; the core’s words (naming the host) are folded, not lost', async () => {
    await fake.stop();
    await page.reload();
    await ui.nav.getByRole('listitem').first().getByRole('button').first().click();
    await ui.composer.click();
    await ui.composer.pressSequentially('你好');
    await ui.composer.press('Enter');
    const error = ui.lastAnswer().getByRole('alert');
    await expect.poll(() => error.textContent()).toContain(`Cannot reach Ollama at ${fake.url}`);
    const visible = await error.innerText();
    expect(visible).toContain('无法连接 Ollama');
    expect(latinWords(visible)).toEqual([]);
  });
});
