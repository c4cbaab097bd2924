/**
 * Other AI apps using Mnemo's memory over MCP, as the user sees it (issue 29), in Chromium against `npm run web`: Settings ›
 * Connected apps says what MCP is while no app has connected, lists an app once it has (read again when the window
 * comes back into focus: the app's calls are written by `mnemo mcp`, another process, recorded here through the same
 * store over a second connection), switching an app off is saved and survives a reload, the memory's detail pane says
 * which apps read or wrote it and when (in the user's time zone), the timeline says what each read gave out, and a
 * memory an app wrote (`mnemo mcp`'s remember) names the app as its source: detail pane, review inbox, timeline.
 * axe checks each screen. One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { McpClientsStore } from '../../electron/core/mcp/mcp-clients.store';
import { connectMnemoMcp } from '../support/mcp-client';
import { mcpStoreOver } from '../support/mcp-store-over';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { SettingsPage } from './pages/settings.page';
import { TimelinePage } from './pages/timeline.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const SLOW = { timeout: 20_000 };
const FACT = 'Lives in Porto and works as an architect';
/** ICU writes narrow spaces before AM/PM; compared as plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u2009\u202f]/g, ' ').replace(/\s+/g, ' ').trim();

describe('Connected apps: other AI apps using the memory over MCP (web host)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let settings: SettingsPage;
  let mcp: { store: McpClientsStore; close(): void };
  let memoryId: number;

  beforeAll(async () => {
    session = await startWebSession({ name: 'connected-apps' });
    ({ app, page, api } = session);
    settings = new SettingsPage(page);
    memoryId = unwrap(await api.call('memory.create', { content: FACT, category: 'knowledge' })).id;
    mcp = mcpStoreOver(session.dataDir);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    mcp?.close();
    await session?.close();
  });

  it('says what MCP is and how to connect an app while none has, then lists one that calls when the window is back in focus', async () => {
    const chat = new ChatPage(page);
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible(), SLOW).toBe(true);
    await settings.openButton.click();
    await expect.poll(() => settings.connectedApps.textContent(), SLOW).toContain('No app has connected yet');
    expect(await settings.connectedApps.textContent()).toContain('MCP (the Model Context Protocol) lets other AI apps');
    expect(await settings.connectedApps.textContent()).toContain('mnemo mcp');

    // LM Studio searches three times, each time given the memory; Jan, allowed to write, reads once and writes it.
    mcp.store.seen('LM Studio');
    for (let i = 0; i < 3; i++) mcp.store.recordRead('LM Studio', { tool: 'search_memory', memoryIds: [memoryId], items: 1 });
    unwrap(await api.call('mcp.clients.set', { name: 'Jan', access: 'write' }));
    mcp.store.seen('Jan');
    mcp.store.recordRead('Jan', { tool: 'list_recent_memories', memoryIds: [memoryId], items: 1 });
    mcp.store.recordWrite('Jan', memoryId);

    // Written by another process: no event reaches this window; coming back to it reads the list again.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => settings.app('LM Studio').count(), SLOW).toBe(1);
    expect(plain(await settings.app('LM Studio').textContent())).toMatch(/First used .+ · last used .+ · 3 reads · no writes/);
    expect(plain(await settings.app('Jan').textContent())).toContain('1 read · 1 write');
    expect(await settings.appAccess('LM Studio', 'Read').isChecked()).toBe(true);
    expect(await settings.appAccess('Jan', 'Write').isChecked()).toBe(true);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('switches an app off with the keyboard: saved at once, and still off after a reload', async () => {
    // Arrow keys move within the radio group, as in any radio group.
    await settings.appAccess('LM Studio', 'Read').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => settings.appAccess('LM Studio', 'Write').isChecked(), SLOW).toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => settings.appAccess('LM Studio', 'Off').isChecked(), SLOW).toBe(true);
    const accessOf = async (name: string) => unwrap(await api.call('mcp.clients.list', {})).clients.find((c) => c.name === name)?.access;
    await expect.poll(() => accessOf('LM Studio'), SLOW).toBe('off');

    await page.reload();
    await expect.poll(() => settings.openButton.isVisible(), SLOW).toBe(true);
    await settings.openButton.click();
    await expect.poll(() => settings.app('LM Studio').count(), SLOW).toBe(1);
    expect(await settings.appAccess('LM Studio', 'Off').isChecked()).toBe(true);
    expect(await settings.appAccess('Jan', 'Write').isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    unwrap(await api.call('settings.update', { patch: { theme: 'dark' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), SLOW).toBe('dark');
    expect(await seriousViolations(page)).toEqual([]);
    unwrap(await api.call('settings.update', { patch: { theme: 'light' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), SLOW).toBe('light');

    await dismissToasts(page);
    await settings.connectedApps.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connected-apps.png') });
    await settings.back.click();
  });

  it("shows in the memory's detail pane which apps read or wrote it, and when, in the user's time zone", async () => {
    // Not the machine's zone (the browser's): the pane must use the setting.
    const timeZone = 'Pacific/Kiritimati';
    unwrap(await api.call('settings.update', { patch: { timeZone } }));
    const entries = unwrap(await api.call('memory.access', { memoryId })).entries;
    const clock = (at: number) => plain(new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone }).format(at));
    const byName = (name: string) => entries.find((e) => e.client === name)!;

    const memories = new MemoriesPage(page);
    await memories.open();
    await memories.openMemory(FACT);
    const log = memories.detail.getByRole('region', { name: 'Other apps' });
    await expect.poll(async () => plain(await log.textContent()), SLOW).toContain(`LM Studio read this 3 times, last at ${clock(byName('LM Studio').lastAt)}`);
    expect(plain(await log.textContent())).toContain(`Jan read this once and wrote it once, last at ${clock(byName('Jan').lastAt)}`);
    expect(await seriousViolations(page)).toEqual([]);

    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    const zhLog = page.getByRole('complementary').getByRole('region', { name: '其他应用' });
    await expect.poll(async () => plain(await zhLog.textContent()), SLOW).toContain('LM Studio 读取了 3 次，最近一次在 ');
    unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
    await expect.poll(() => log.count(), SLOW).toBe(1);
  });

  it('shows each read on the timeline: the app, what it asked, and the memories it was given', async () => {
    const timeline = new TimelinePage(page);
    await timeline.open();
    const reads = timeline.event('Another app read memory (MCP)', 'LM Studio searched your memories and was given 1');
    await expect.poll(() => reads.count(), SLOW).toBe(3);
    const listed = timeline.event('Another app read memory (MCP)', 'Jan was given your most recent memory');
    expect(await listed.count()).toBe(1);
    await listed.getByText('The memory it was given').click();
    await expect.poll(() => listed.textContent(), SLOW).toContain(FACT);
    expect(await listed.getByRole('button', { name: 'Open memory' }).count()).toBe(1);
    // The kind filter finds them too.
    await timeline.kind.selectOption({ label: 'Other apps (MCP)' });
    await expect.poll(() => timeline.stream.locator('[data-event-id]').count(), SLOW).toBe(4);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('names the app as the source of a memory it wrote: detail pane, review inbox and timeline, in both languages', { timeout: 60_000 }, async () => {
    // Jan (allowed to write) remembers a fact with the user's words, and one without: that one waits for review.
    unwrap(await api.call('mcp.clients.set', { name: 'Jan', access: 'write' }));
    const jan = await connectMnemoMcp(session.dataDir, 'Jan');
    try {
      expect((await jan.call('remember', { text: 'Runs on Sunday mornings', user_words: 'I run every Sunday morning' })).text).toMatch(/^Remembered/);
      expect((await jan.call('remember', { text: 'Drinks green tea' })).text).toContain('review');
    } finally {
      await jan.close();
    }
    // Written by another process: read again after a reload.
    await page.reload();
    const memories = new MemoriesPage(page);
    await expect.poll(() => memories.navButton.isVisible(), SLOW).toBe(true);
    await memories.open();
    await expect.poll(() => memories.rowButton('Runs on Sunday mornings').count(), SLOW).toBe(1);
    await memories.openMemory('Runs on Sunday mornings');
    const source = memories.detail.getByRole('region', { name: 'Where it came from' });
    await expect.poll(async () => plain(await source.textContent()), SLOW).toContain('Written by Jan (connected app).');
    expect(plain(await source.textContent())).not.toContain('Learned from a conversation');
    expect(plain(await source.textContent())).toContain('“I run every Sunday morning”');
    expect(await seriousViolations(page)).toEqual([]);
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await expect.poll(() => page.getByRole('complementary').getByText('由 Jan（已连接的应用）写入。').count(), SLOW).toBe(1);
    unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
    await expect.poll(() => source.count(), SLOW).toBe(1);

    await memories.tab('Review inbox').click();
    const card = memories.reviewCard('Drinks green tea');
    await expect.poll(async () => plain(await card.textContent()), SLOW).toContain('Written by Jan (connected app).');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    const timeline = new TimelinePage(page);
    await timeline.open();
    await expect.poll(() => timeline.event('Learned', 'written by Jan (connected app)').count(), SLOW).toBe(1);

    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    // The page object names the stream in English: the event is found by its words.
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'Jan（已连接的应用）写入了这条记忆' }).count(), SLOW).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
  });
});
