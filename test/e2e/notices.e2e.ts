/**
 * Notices (toasts) as a user meets them, in Chromium against `npm run web` and a fake Ollama whose extraction answers
 * are scripted by what the user said: what deserves a notice (learning already shown under the message on screen does
 * not; learning elsewhere does, as one notice that counts), where notices go (never over a control or the
 * conversation: the thread's buttons, the last message, the Memories toolbar, an edited question and its ‹ 2/2 ›
 * switcher, in a wide and a narrow window), and an Undo that, once used, is no longer offered. One web host and one
 * page for the whole file; each test continues the last.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { VersionsPage } from './pages/versions.page';
import { seriousViolations } from './support/axe';
import { type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

/** What the extractor learns from a user message containing the key: one fact, important enough for a notice. */
const FACTS: Array<[string, string]> = [
  ['I live in Lisbon', 'Lives in Lisbon'],
  ['I have a sister called Ana', 'Has a sister called Ana'],
  ['I am allergic to peanuts', 'Is allergic to peanuts'],
  ['I drive a blue Volvo', 'Drives a blue Volvo'],
  ['I work as a nurse', 'Works as a nurse'],
  ['I am learning Japanese', 'Is learning Japanese'],
  ['I have a cat named Miso', 'Has a cat named Miso'],
  ['I run marathons', 'Runs marathons'],
  ['I collect vinyl records', 'Collects vinyl records'],
  ['I am afraid of heights', 'Is afraid of heights'],
  ['I play chess on Sundays', 'Plays chess on Sundays'],
  ['I grow tomatoes', 'Grows tomatoes'],
  ['I speak Finnish', 'Speaks Finnish'],
  ['I own a red kayak', 'Owns a red kayak'],
  ['I volunteer at the library', 'Volunteers at the library'],
  ['I keep bees', 'Keeps bees'],
  ['I build model trains', 'Builds model trains'],
  ['I sing in a choir', 'Sings in a choir'],
  ['I bake bread on weekends', 'Bakes bread on weekends'],
];
/** Messages sent from "another window" (the API) into another thread, one fact each, in order. */
const ELSEWHERE = FACTS.slice(1, -2).map(([key]) => `By the way, ${key}.`);
/** What the user's question becomes after each edit. */
const EDITS = ['I sing in a choir.', 'I bake bread on weekends.'];

const isExtraction = (r: FakeInferenceRequest) => isLearning(r.purpose);

function reply(request: FakeInferenceRequest): FakeReply {
  if (isExtraction(request)) {
    const exchange = request.messages.at(-1)?.content ?? '';
    // Every user message of the request (a slow machine learns several exchanges of a thread at once).
    const user = [...exchange.matchAll(/"user": "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('\n');
    const memories = FACTS.filter(([key]) => user.includes(key)).map(([key, content]) => ({
      content,
      category: 'knowledge',
      importance: 0.9,
      evidence: key,
      confidence: 0.9,
      validity: 'permanent',
    }));
    return { content: JSON.stringify({ memories }) };
  }
  if (request.purpose === 'title') return { content: 'About me' };
  return { content: 'Noted, thanks for telling me.' };
}

const WINDOWS = [
  { width: 1280, height: 800 },
  { width: 860, height: 600 },
];

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('notices (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let memories: MemoriesPage;
  let versions: VersionsPage;
  /** Another thread than the one the user reads, where learning happens "in another window". */
  let elsewhereId = 0;
  let sentElsewhere = 0;

  /** Notices on screen: `count` facts learned in the other thread (not on screen), through the API. */
  const learnElsewhere = async (count = 1): Promise<string[]> => {
    const texts = ELSEWHERE.slice(sentElsewhere, (sentElsewhere += count));
    const contents = texts.map((text) => FACTS.find(([key]) => text.includes(key))![1]);
    for (const text of texts) unwrap(await api.call('chat.send', { threadId: elsewhereId, text }));
    const learned = async () => {
      const known = unwrap(await api.call('memory.list', { limit: 100 })).items.map((m) => m.content);
      return contents.filter((c) => known.includes(c));
    };
    await expect.poll(learned).toEqual(contents);
    await expect.poll(() => chat.toasts.innerText()).toMatch(/Mnemo learned/);
    return contents;
  };

  /** Which of `targets` (named) a notice on screen covers, even in part. */
  const covered = async (targets: Record<string, Locator>): Promise<string[]> => {
    const toasts = chat.toasts.locator('.toast');
    expect(await toasts.count()).toBeGreaterThan(0);
    const boxes = (await Promise.all((await toasts.all()).map((t) => t.boundingBox()))).filter((b): b is Box => b !== null);
    const hit: string[] = [];
    for (const [name, target] of Object.entries(targets)) {
      for (const element of await target.all()) {
        const box = await element.boundingBox();
        if (box && boxes.some((b) => overlaps(b, box))) hit.push(name);
      }
    }
    return [...new Set(hit)];
  };

  /** The thread's own controls (its header's buttons, the last answer's Regenerate and Context) and its last messages. */
  const threadTargets = (): Record<string, Locator> => ({
    'thread header buttons': chat.threadHeader.getByRole('button'),
    'last answer buttons': chat.lastAnswer().getByRole('button'),
    'last answer': chat.lastAnswer(),
    'last question': chat.questions.last(),
    composer: chat.composer,
    'anything in the main area': page.getByRole('main'),
  });

  beforeAll(async () => {
    session = await startWebSession({ name: 'notices', reply });
    ({ app, page, api } = session);
    chat = new ChatPage(page);
    memories = new MemoriesPage(page);
    versions = new VersionsPage(page);
    elsewhereId = unwrap(await api.call('thread.create', { title: 'Elsewhere' })).id;
  });

  afterAll(() => session?.close());

  it('learning shown under the message on screen gives no notice; learning in a thread not on screen gives one, which counts', async () => {
    await chat.open(app.url);
    await chat.newThread();
    await chat.send('I live in Lisbon and I walk to work.');
    await expect.poll(() => chat.lastAnswer().textContent()).toContain('Noted');
    const chips = chat.questions.last().getByRole('list', { name: 'Learned from this message' });
    await expect.poll(() => chips.textContent()).toContain('Learned: Lives in Lisbon');
    // memory.learned is handled before the chip can be read again: had it made a notice, it would be there now.
    expect(await chat.toasts.innerText()).not.toContain('Mnemo learned');

    // Learned in another thread: said once, with a way to see it.
    const [first] = await learnElsewhere();
    expect(await chat.toasts.innerText()).toContain(`Mnemo learned: ${first}`);
    expect(await chat.toasts.getByRole('button', { name: 'Show' }).count()).toBe(1);
    // More while it is on screen: the same notice counts instead of a stack of them.
    const second = ELSEWHERE[sentElsewhere++]!;
    unwrap(await api.call('chat.send', { threadId: elsewhereId, text: second }));
    await expect.poll(() => chat.toasts.innerText()).toContain('Mnemo learned 2 things');
    expect(await chat.toasts.locator('.toast').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await chat.toasts.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => memories.navButton.getAttribute('aria-current')).toBe('page');
  });

  it('a notice never covers the thread’s controls, its last message or the composer (wide and narrow windows)', async () => {
    for (const size of WINDOWS) {
      await page.setViewportSize(size);
      await chat.thread('About me').getByRole('button', { name: /^About me/ }).click();
      await dismissToasts(page);
      // The thread on screen is the one the user wrote in, not the other.
      await expect.poll(() => chat.questions.last().textContent()).toContain('I live in Lisbon');
      await learnElsewhere(2);
      expect(await covered(threadTargets()), `${size.width}×${size.height}`).toEqual([]);
    }
  });

  it('a notice never covers the Memories toolbar (wide and narrow windows)', async () => {
    for (const size of WINDOWS) {
      await page.setViewportSize(size);
      await memories.open();
      await memories.tab('All memories').click();
      await dismissToasts(page);
      await learnElsewhere(2);
      const toolbar = memories.view.getByRole('button', { name: /^(Import \/ export|Add memory|Download the model)$/ });
      expect(await toolbar.count()).toBeGreaterThanOrEqual(2);
      expect(await covered({ toolbar, 'memory rows': memories.rows, 'anything in the main area': page.getByRole('main') }), `${size.width}×${size.height}`).toEqual([]);
    }
  });

  it('right after “Send edit”, a notice covers neither the edited question nor its ‹ 2/2 › switcher, which keeps the focus', async () => {
    for (const [i, size] of WINDOWS.entries()) {
      await page.setViewportSize(size);
      await chat.thread('About me').getByRole('button', { name: /^About me/ }).click();
      await dismissToasts(page);
      const question = chat.questions.last();
      await versions.editButton(question).click();
      await versions.editField(question).fill(EDITS[i]!);
      await versions.sendEditButton(question).click();
      const switcher = versions.switcher(chat.questions.last());
      await expect.poll(() => switcher.getAttribute('aria-label')).toBe(`Version ${i + 2} of ${i + 2}`);
      await expect.poll(() => chat.lastAnswer().textContent()).toContain('Noted');
      // The edit's own learning is shown under it: no notice of its own.
      const learned = FACTS.find(([key]) => EDITS[i]!.includes(key))![1];
      await expect.poll(() => chat.questions.last().getByRole('list', { name: 'Learned from this message' }).textContent()).toContain(learned);
      expect(await chat.toasts.innerText()).not.toContain(learned);
      await learnElsewhere(2);
      expect(await covered({ ...threadTargets(), 'edited question': chat.questions.last(), switcher }), `${size.width}×${size.height}`).toEqual([]);
      expect(await switcher.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.setViewportSize(WINDOWS[0]!);
  });

  it('after Undo, the notice that offered it no longer offers it', async () => {
    await memories.open();
    await memories.tab('All memories').click();
    await dismissToasts(page);
    // The row is followed by its memory, not by the list's length: learning from the previous test may still add rows.
    const target = memories.list.locator(`[data-memory-id="${await memories.rows.first().getAttribute('data-memory-id')}"]`);
    await memories.rows.first().getByRole('checkbox').click();
    await memories.bulkBar.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => target.count()).toBe(0);
    await expect.poll(() => chat.toasts.innerText()).toContain('Moved 1 memory to the trash.');
    // The pointer stays on the notice after the click: a notice under the pointer waits, so only Undo can end it.
    await chat.toasts.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => target.count()).toBe(1);
    await expect.poll(() => chat.toasts.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(await chat.toasts.innerText()).not.toContain('Moved 1 memory to the trash.');
    expect(unwrap(await api.call('memory.list', { statuses: ['trashed'] })).total).toBe(0);
  });
});
