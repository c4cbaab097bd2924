/**
 * A supersede as a user meets it, in Chromium against `npm run web` and a fake Ollama whose extraction answers are
 * scripted by what the user said: after 我住在杭州 replaced "The user lives in Lisbon", the Lisbon message keeps its
 * chip and says what replaced it, with a way there; the new memory's history says what it replaced, the old one's
 * names its successor, each a way to the other. In English, then in 简体中文.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const LISBON = 'The user lives in Lisbon';
const HANGZHOU = '用户住在杭州';
/** What the extractor learns from a user message containing the key (the two values of one fact: fact-slot.ts). */
const FACTS: Array<[string, { content: string; evidence: string }]> = [
  ['I live in Lisbon', { content: LISBON, evidence: 'I live in Lisbon' }],
  ['我住在杭州', { content: HANGZHOU, evidence: '我住在杭州' }],
];
const SLOW = { timeout: 20_000 };
const norm = (texts: string[]) => texts.map((t) => t.replace(/\s+/g, ' ').trim());

function reply(request: FakeInferenceRequest): FakeReply {
  if (isLearning(request.purpose)) {
    const exchange = request.messages.at(-1)?.content ?? '';
    const user = JSON.parse(`"${/"user": "((?:[^"\\]|\\.)*)"/.exec(exchange)?.[1] ?? ''}"`) as string;
    const memories = FACTS.filter(([key]) => user.includes(key)).map(([, f]) => ({ ...f, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent' }));
    return { content: JSON.stringify({ memories }) };
  }
  if (request.purpose === 'title') return { content: 'Where I live' };
  return { content: 'Noted, thanks!' };
}

describe('a supersede, explained both ways (web host + fake Ollama)', () => {
  let session: WebSession;
  let app: RunningApp;
  let api: Client;
  let page: Page;
  let chat: ChatPage;
  let memories: MemoriesPage;
  let lisbonId = 0;
  let hangzhouId = 0;

  const byContent = async (content: string) =>
    unwrap(await api.call('memory.list', { statuses: ['active', 'superseded'], limit: 50 })).items.find((m) => m.content === content);

  beforeAll(async () => {
    session = await startWebSession({ name: 'supersede', reply });
    ({ app, api, page } = session);
    chat = new ChatPage(page);
    memories = new MemoriesPage(page);
  }, 120_000);
  afterAll(() => session?.close());

  it('the replaced memory’s chip says what replaced it, and opens it', async () => {
    await chat.open(app.url);
    await expect.poll(() => chat.welcomeHeading.isVisible(), SLOW).toBe(true);
    await chat.newThread();
    await chat.send('I live in Lisbon, near the river.');
    const lisbonChips = chat.questions.first().getByRole('list', { name: 'Learned from this message' });
    await expect.poll(async () => norm(await lisbonChips.getByRole('button').allTextContents()), SLOW).toEqual([`Learned: ${LISBON}`]);
    await chat.send('我住在杭州，离西湖不远。');
    const hangzhouChips = chat.questions.last().getByRole('list', { name: 'Learned from this message' });
    await expect.poll(async () => norm(await hangzhouChips.getByRole('button').allTextContents()), SLOW).toEqual([`Learned: ${HANGZHOU}`]);
    lisbonId = (await byContent(LISBON))!.id;
    hangzhouId = (await byContent(HANGZHOU))!.id;
    expect((await byContent(LISBON))!).toMatchObject({ status: 'superseded', supersededBy: hangzhouId });

    // The Lisbon chip stays, said to be replaced, beside a way to what replaced it.
    await expect.poll(async () => norm(await lisbonChips.getByRole('button').allTextContents()), SLOW).toEqual([`Learned: ${LISBON}`, `· replaced by: ${HANGZHOU}`]);
    expect(await lisbonChips.getByRole('button').first().getAttribute('title')).toContain('replaced it');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await lisbonChips.getByRole('button', { name: `· replaced by: ${HANGZHOU}` }).click();
    await expect.poll(() => memories.detail.getByTitle(`Memory #${hangzhouId}`, { exact: true }).count(), SLOW).toBe(1);
  });

  it('the new memory’s history says what it replaced; the old one’s names its successor; each opens the other', async () => {
    const history = () => memories.detail.getByRole('region', { name: /^History/ });
    await expect.poll(() => history().innerText(), SLOW).toContain(`Replaced an earlier memory: “${LISBON}”.`);
    await history().getByRole('button', { name: `Open the memory it replaced: ${LISBON}` }).click();
    await expect.poll(() => memories.detail.getByTitle(`Memory #${lisbonId}`, { exact: true }).count(), SLOW).toBe(1);
    expect(await memories.detail.innerText()).toContain(`A newer memory replaced this one: “${HANGZHOU}”.`);
    // The version that retired it names what did (the history said only "superseded · Active → Superseded").
    const retired = history().getByRole('listitem').filter({ hasText: 'Active → Superseded' });
    await expect.poll(() => retired.innerText(), SLOW).toContain(`Replaced by “${HANGZHOU}”.`);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await retired.getByRole('button', { name: `Open the memory that replaced it: ${HANGZHOU}` }).click();
    await expect.poll(() => memories.detail.getByTitle(`Memory #${hangzhouId}`, { exact: true }).count(), SLOW).toBe(1);
  });

  it('in 简体中文: the chip and both histories say the same', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), SLOW).toBe('zh-CN');
    const detail = page.getByRole('complementary', { name: /^记忆/ });
    await expect.poll(() => detail.innerText(), SLOW).toContain(`取代了一条较早的记忆：“${LISBON}”。`);
    await detail.getByRole('button', { name: `打开被它取代的记忆：${LISBON}` }).click();
    await expect.poll(() => detail.innerText(), SLOW).toContain(`被“${HANGZHOU}”取代。`);
    expect(await detail.innerText()).toContain(`一条更新的记忆取代了它：“${HANGZHOU}”。`);
    expect(await detail.getByRole('button', { name: `打开取代它的记忆：${HANGZHOU}` }).count()).toBe(1);

    await page.getByRole('navigation').getByRole('button', { name: /Where I live/ }).first().click();
    const chips = page.getByRole('list', { name: '从这条消息中学到的' }).first();
    await expect.poll(async () => norm(await chips.getByRole('button').allTextContents()), SLOW).toEqual([`记住了： ${LISBON}`, `· 已被取代为： ${HANGZHOU}`]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
