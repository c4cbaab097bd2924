/**
 * Consent before anything leaves the machine, in Chromium against `npm run web` (issue 26 item 6): OLLAMA_HOST points
 * at another machine, so the first screen asks before Mnemo sends anything there and the status bar says the model
 * server is elsewhere (in English and in Chinese); an Ollama host typed in Settings on another machine is refused at
 * the field until its confirmation is ticked, like an OpenAI-compatible base URL (openai-server.e2e.ts).
 * "Another machine" is a name under .invalid (RFC 6761), which never resolves: the web host fails fast at it and
 * nothing ever answers. One web host and one page for the file: each test continues where the previous one left off.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import { ChatPage } from './pages/chat.page';
import { SettingsPage } from './pages/settings.page';
import { seriousViolations } from './support/axe';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

const FROM_ENVIRONMENT = 'http://ollama-box.invalid:11434';
const TYPED = 'http://ollama-lab.invalid:11434';

describe('a model server on another machine (web host, OLLAMA_HOST elsewhere)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let settings: SettingsPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'remote-server', env: { OLLAMA_HOST: FROM_ENVIRONMENT } });
    ({ app, page, api } = session);
    chat = new ChatPage(page);
    settings = new SettingsPage(page);
  });

  afterAll(() => session?.close());

  it('asks on the first screen before sending anything, and the status bar names the machine', async () => {
    await chat.open(app.url);
    const card = page.getByRole('region', { name: 'The model server is on another machine' });
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.textContent()).toContain(`OLLAMA_HOST in your environment points Mnemo at ${FROM_ENVIRONMENT}, which is not this computer. Mnemo has sent it nothing.`);
    await expect.poll(() => chat.statusBar.textContent()).toContain('Model server: ollama-box.invalid (another machine, not confirmed: nothing sent)');
    expect(await seriousViolations(page)).toEqual([]);

    await settings.sendTo(FROM_ENVIRONMENT).click();
    await expect.poll(async () => unwrap(await api.call('settings.get', {})).ollamaRemoteConfirmed).toBe(FROM_ENVIRONMENT);
    await expect.poll(() => chat.statusBar.textContent()).toContain('Model server: ollama-box.invalid (another machine)');
    expect(await chat.statusBar.textContent()).not.toContain('not confirmed');
    // Confirmed, Mnemo tries it: the machine does not answer, which the card now says instead.
    await expect.poll(() => card.isVisible()).toBe(false);
  });

  it('in Settings, an Ollama host on another machine is refused at the field until its confirmation is ticked', async () => {
    await settings.openButton.click();
    await expect.poll(() => settings.heading.isVisible()).toBe(true);
    await settings.ollamaHost.fill(TYPED);
    const confirmation = settings.remoteConfirmation(TYPED);
    expect(await confirmation.isChecked()).toBe(false);
    expect(await settings.ollamaHost.getAttribute('aria-invalid')).toBe('true');
    const fieldError = page.locator(`[id="${await settings.ollamaHost.getAttribute('id')}-error"]`);
    expect(await fieldError.textContent()).toBe(`${TYPED} is not on this computer. Tick the box that allows sending your conversations there, or use a server on this computer.`);
    expect(await settings.save.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await confirmation.focus();
    await page.keyboard.press('Space');
    expect(await settings.ollamaHost.getAttribute('aria-invalid')).toBeNull();
    await settings.save.click();
    await expect.poll(() => page.getByText('Saved', { exact: true }).isVisible()).toBe(true);
    expect(unwrap(await api.call('settings.get', {}))).toMatchObject({ ollamaHost: TYPED, ollamaRemoteConfirmed: TYPED });
    await expect.poll(() => chat.statusBar.textContent()).toContain('Model server: ollama-lab.invalid (another machine)');

    // A password in the address is refused at the field, pointing to the API key field.
    await settings.ollamaHost.fill('http://me:secret@127.0.0.1:11434');
    const credentials = page.locator(`[id="${await settings.ollamaHost.getAttribute('id')}-error"]`);
    expect(await credentials.textContent()).toContain('Put a key or password in the API key field');
    expect(await settings.save.isDisabled()).toBe(true);
    await settings.ollamaHost.fill(TYPED);
  });

  it('says the same in Chinese', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await expect.poll(() => chat.statusBar.textContent()).toContain('模型服务器：ollama-lab.invalid（另一台机器）');
    unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
  });
});
