import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { AppShellPage } from './pages/app-shell.page';
import { apiClient } from './support/api';
import { unwrap } from '../../shared/client';
import { launchBrowser } from './support/browser';
import { ROOT, startMnemo, type RunningApp } from './support/processes';

describe('browser mode: npm run web', () => {
  let app: RunningApp;
  let browser: { browser: BrowserContext; close(): Promise<void> };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-e2e-'));

  beforeAll(async () => {
    app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints one line with the URL, token included', () => {
    const lines = app.output().split('\n').filter((l) => l.includes('http://'));
    expect(lines).toHaveLength(1);
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/);
  });

  it('loads the app shell with the token, makes no request outside loopback, and starts a thread', async () => {
    const page = await browser.browser.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(app.baseUrl) && !r.url().startsWith(app.baseUrl.replace('http', 'ws'))) foreign.push(r.url());
    });
    const shell = new AppShellPage(page);
    await shell.open(app.url);
    await expect.poll(() => shell.heading.isVisible()).toBe(true);
    // Connected: the version came over the link, and the bar names the link only while it is down.
    await expect.poll(() => shell.statusBar.textContent()).toMatch(/Mnemo \d/);
    expect(await shell.statusBar.textContent()).not.toMatch(/Reconnecting|Connected/);
    await shell.startThread();
    await expect.poll(() => shell.threadList.count()).toBe(1);
    await page.screenshot({ path: path.join(ROOT, 'docs', 'screenshots', 'app-shell.png') });
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('keyboard: a skip link first, the thread list is one Tab stop with arrow keys, the sidebar navigates', async () => {
    const page = await browser.browser.newPage();
    const shell = new AppShellPage(page);
    await shell.open(app.url);
    const api = apiClient(app);
    while (unwrap(await api.call('thread.list', {})).threads.length < 3) unwrap(await api.call('thread.create', { title: 'Plans' }));
    await page.reload();
    await expect.poll(() => shell.threadList.count()).toBe(3);
    const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent?.trim() ?? '', thread: (document.activeElement as HTMLElement | null)?.dataset.threadId ?? null }));

    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('main');

    // From the search button: one Tab into the list, one Tab out of it (before: three stops per thread).
    await page.getByRole('button', { name: /^Search/ }).focus();
    await page.keyboard.press('Tab');
    const first = (await focused()).thread;
    expect(first).not.toBeNull();
    await page.keyboard.press('ArrowDown');
    const second = (await focused()).thread;
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    await page.keyboard.press('Tab');
    expect((await focused()).thread).toBeNull();
    expect((await focused()).text).toMatch(/^Memories/);
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).thread).toBe(second); // the list remembers where the user was

    // The sidebar navigates: the current screen chosen again stays.
    const memories = page.getByRole('navigation').getByRole('button', { name: /^Memories/ });
    await memories.click();
    await memories.click();
    expect(await memories.getAttribute('aria-current')).toBe('page');
    await page.close();
  });

  it('the tab shows Mnemo\'s icon, served like the other files; every request of the page answered; an unknown file is 404', async () => {
    const page = await browser.browser.newPage();
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    const shell = new AppShellPage(page);
    await shell.open(app.url);
    await expect.poll(() => shell.heading.isVisible()).toBe(true);
    const icon = await shell.tabIconUrl();
    expect(icon?.startsWith(`${app.baseUrl}/assets/`), String(icon)).toBe(true);
    const served = await fetch(icon!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    expect([...new Uint8Array(await served.arrayBuffer()).subarray(0, png.length)]).toEqual(png);
    expect(failed).toEqual([]);
    for (const unknown of ['/favicon-missing.ico', '/assets/no-such-icon.png']) expect((await fetch(app.baseUrl + unknown)).status, unknown).toBe(404);
    await page.close();
  });

  it('without the token the page explains what to open, and the API refuses it', async () => {
    const page = await browser.browser.newPage();
    const shell = new AppShellPage(page);
    await shell.open(app.baseUrl + '/');
    await expect.poll(() => shell.alert.textContent()).toMatch(/npm run web/);
    const status = await page.evaluate(async () => (await fetch('/rpc/thread.list', { method: 'POST', body: '{}' })).status);
    expect(status).toBe(401);
    const socket = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(location.origin.replace('http', 'ws') + '/events', ['mnemo']);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
        }),
    );
    expect(socket).toBe('refused');
    await page.close();
  });
});

describe('npm start without an Electron binary', () => {
  it('says so in one line and starts the browser mode', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-e2e-start-'));
    // The download is skipped so the test does not depend on how this network refuses it; the fallback is the same.
    const app = await startMnemo('start', ['--port', '0', '--data-dir', dataDir], { MNEMO_SKIP_ELECTRON_DOWNLOAD: '1' });
    try {
      const notice = app.output().split('\n').filter((l) => l.includes('Electron'));
      expect(notice).toEqual([expect.stringMatching(/^Electron's binary is not available \(.+\); starting the browser mode instead\.$/)]);
      const res = await fetch(`${app.baseUrl}/rpc/app.info`, { method: 'POST', body: '{}', headers: { authorization: `Bearer ${app.token}`, origin: app.baseUrl } });
      expect(await res.json()).toMatchObject({ ok: true, value: { host: 'web', dataDir } });
    } finally {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
