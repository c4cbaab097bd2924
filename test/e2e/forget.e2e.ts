/**
 * Forgetting by asking, as a user meets it, in Chromium against `npm run web` and a fake Ollama: "Please forget that I
 * live in Berlin" moves that memory to the trash and the answer says so with Undo, which brings it back; a request
 * several memories match offers them to tick; the Chinese UI does the same in Chinese (忘掉…, 撤销). The fake chat
 * model answers from what Mnemo told it in the system text, as a real one would.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { FORGET_WORDS, ForgetNoticePage } from './pages/forget-notice.page';
import { ROOT, type RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { seriousViolations } from './support/axe';
import { isLearning } from '../support/request-kind';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

function reply(request: FakeInferenceRequest): FakeReply {
  if (isLearning(request.purpose)) return { content: '{"memories": []}' };
  if (request.purpose === 'title') return { content: 'Forgetting' };
  const system = request.messages[0]?.content ?? '';
  if (system.includes('moved what the user asked to forget to its trash')) return { content: 'Done: I have forgotten it.' };
  if (system.includes('Several memories match')) return { content: 'Several memories match: tick the ones to forget below.' };
  return { content: 'OK.' };
}

describe('forget by asking, with Undo (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  const status = async (id: number) => unwrap(await api.call('memory.get', { memoryId: id })).memory.status;

  beforeAll(async () => {
    session = await startWebSession({ name: 'forget', reply });
    ({ app, page, api } = session);
    chat = new ChatPage(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(() => session?.close());

  it('"Please forget that I live in Berlin": the answer says it is forgotten, with Undo; Undo brings it back', async () => {
    const berlin = unwrap(await api.call('memory.create', { content: 'Lives in Berlin' }));
    await chat.open(app.url);
    const answer = await chat.askInNewThread('Please forget that I live in Berlin');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Done: I have forgotten it.');
    const notice = new ForgetNoticePage(answer);
    await expect.poll(() => notice.region.textContent()).toContain('Lives in Berlin');
    expect(await status(berlin.id)).toBe('trashed');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'forget.png') });

    await notice.undo.click();
    await expect.poll(() => notice.restored.count()).toBe(1);
    expect(await status(berlin.id)).toBe('active');
  });

  it('several memories match: the user ticks the one to forget', async () => {
    const born = unwrap(await api.call('memory.create', { content: 'Was born in Berlin' }));
    await chat.send('Forget everything you know about Berlin');
    const answer = chat.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Several memories match');
    const notice = new ForgetNoticePage(answer);
    await expect.poll(() => notice.candidate('Was born in Berlin').count()).toBe(1);
    expect(await notice.forgetSelected.isDisabled()).toBe(true);
    // The picker and the notice above it are usable with a screen reader and the keyboard (named checkboxes, buttons).
    expect(await seriousViolations(page, '.forget-notices')).toEqual([]);
    await notice.candidate('Was born in Berlin').check();
    await notice.forgetSelected.click();
    await expect.poll(() => status(born.id)).toBe('trashed');
    // Now shown as forgotten, with its Undo; the other one is still offered.
    await expect.poll(() => notice.undo.count()).toBe(1);
    await expect.poll(() => notice.candidate('Lives in Berlin').count()).toBe(1);
  });

  it('中文: 忘掉我喜欢喝绿茶 — forgotten, and 撤销 brings it back', async () => {
    const tea = unwrap(await api.call('memory.create', { content: '喜欢喝绿茶' }));
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await page.reload();
    await page.getByRole('button', { name: '新对话', exact: true }).click();
    await page.getByRole('textbox', { name: '消息' }).click();
    await page.getByRole('textbox', { name: '消息' }).pressSequentially('请忘掉我喜欢喝绿茶');
    await page.getByRole('textbox', { name: '消息' }).press('Enter');
    const answer = page.getByRole('article', { name: 'Mnemo' }).last();
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toContain('Done: I have forgotten it.');
    const notice = new ForgetNoticePage(answer, FORGET_WORDS['zh-CN']);
    await expect.poll(() => notice.region.textContent()).toContain('已忘记（移到废纸篓）：喜欢喝绿茶');
    expect(await status(tea.id)).toBe('trashed');
    await notice.undo.click();
    await expect.poll(() => notice.restored.count()).toBe(1);
    expect(await status(tea.id)).toBe('active');
  });
});
