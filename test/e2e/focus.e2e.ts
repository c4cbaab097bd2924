/**
 * The thread's working memory as a user meets it, in Chromium against `npm run web` and a fake Ollama whose
 * background model answers the working-memory request: the panel fills in after a chat, opens and closes from the
 * keyboard, the user ticks, edits, adds and removes tasks and changes the focus, "Active work" in the Memories screen
 * lists the thread and links back to it, and "Clear all" empties it; after a question is edited the panel follows the
 * version shown. axe checks the open panel.
 * One web host and one page for the whole file: each test continues where the previous one left off.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { VersionsPage } from './pages/versions.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
/** Each step waits for the core's answer (an edit, the queue's job) on a loaded machine. */
const SLOW = { timeout: 20_000 };
const CHAT_REPLY = 'Happy to help with your trip. May is a good month for Lisbon: book the hotel early, as the city fills up for the festivals in June.';
const FOCUS_REPLY = '```json\n{"focus": "Planning a trip to Lisbon in May", "tasks": [{"text": "Book a hotel", "state": "open", "importance": "high"}, {"text": "Compare flights", "state": "in_progress"}]}\n```';
/** The working memory of the dog thread, by the question the update read (the newest wins). */
const DOG_REPLIES: Array<[string, string]> = [
  ['User: I prefer small dogs', '{"focus": "Choosing a small dog", "tasks": [{"text": "Compare small breeds", "state": "open"}]}'],
  ['User: I prefer big dogs', '{"focus": "Choosing a dog", "tasks": [{"text": "The user prefers big dogs", "state": "open"}]}'],
];

/** The working-memory panel above the messages. */
class FocusPanel {
  readonly region: Locator;
  readonly toggle: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: /Working memory/ });
    this.toggle = this.region.getByRole('button', { name: /Working memory/ });
  }

  task(text: string): Locator {
    return this.region.getByRole('checkbox', { name: text });
  }

  text(): Promise<string> {
    return this.region.innerText();
  }
}

describe('working memory: the thread panel and Active work (web host + fake Ollama)', () => {
  let app: RunningApp;
  let session: WebSession;
  let page: Page;
  let chat: ChatPage;
  let panel: FocusPanel;

  beforeAll(async () => {
    session = await startWebSession({
      name: 'focus',
      reply: (request) => {
        if (request.purpose === 'focus') {
          const prompt = request.messages.at(-1)!.content;
          return { content: DOG_REPLIES.find(([said]) => prompt.includes(said))?.[1] ?? FOCUS_REPLY };
        }
        if (request.purpose === 'title') return { content: 'Lisbon in May' };
        return { content: CHAT_REPLY };
      },
      modelsFolder: 'models',
    });
    ({ app, page } = session);
    chat = new ChatPage(page);
    panel = new FocusPanel(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => session?.close());

  it('after a chat the panel shows the focus and tasks the background model noted; it opens from the keyboard', async () => {
    await chat.open(app.url);
    // The shortcut works once the window is ready (its first screen is up), as in the other e2e files.
    await expect.poll(() => chat.welcomeHeading.isVisible(), SLOW).toBe(true);
    await chat.shortcut('Control+n');
    await expect.poll(() => chat.threads.count(), SLOW).toBe(1);
    await chat.send('I am planning a trip to Lisbon in May; I need a hotel and flights.');
    await expect.poll(() => chat.lastAnswer().textContent(), SLOW).toContain('Happy to help');
    // Collapsed, the header line previews the focus as soon as the update arrives (focus.updated). The update waits
    // for a stretch of the conversation from the first keystroke (focus.job.ts): with no pause of this user known yet,
    // until the pause has lasted twice a reader's assumed one (model-lane.ts LANE_TIMING.assumedPauseMs, 2 x 20 s).
    await expect.poll(() => panel.toggle.textContent(), { timeout: 75_000 }).toContain('Planning a trip to Lisbon in May');
    expect(await panel.toggle.getAttribute('aria-expanded')).toBe('false');
    await panel.toggle.focus();
    await page.keyboard.press('Enter');
    expect(await panel.toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => panel.text(), SLOW).toContain('Compare flights');
    await expect.poll(() => panel.task('Book a hotel').count(), SLOW).toBe(1);
    expect(await panel.text()).toContain('in progress');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('the user ticks a task, edits one, adds one, removes one and changes the focus', async () => {
    await panel.task('Book a hotel').click(); // the box follows the core's answer, not a local guess
    await expect.poll(() => panel.text(), SLOW).toContain('Recently finished');
    await expect.poll(() => panel.task('Book a hotel').isChecked(), SLOW).toBe(true);

    await panel.region.getByRole('button', { name: 'Edit task: Compare flights' }).click();
    const taskField = panel.region.getByRole('textbox', { name: 'Task', exact: true });
    await taskField.fill('Compare flights from Porto');
    await taskField.press('Enter');
    await expect.poll(() => panel.task('Compare flights from Porto').count(), SLOW).toBe(1);
    expect(await panel.text()).toContain('edited by you');

    const newTask = panel.region.getByRole('textbox', { name: 'New task' });
    await newTask.fill('Renew passport');
    await newTask.press('Enter');
    await expect.poll(() => panel.task('Renew passport').count(), SLOW).toBe(1);
    await panel.region.getByRole('button', { name: 'Remove task: Renew passport' }).click();
    await expect.poll(() => panel.task('Renew passport').count(), SLOW).toBe(0);

    await panel.region.getByRole('button', { name: 'Edit the focus' }).click();
    const focusField = panel.region.getByRole('textbox', { name: 'Focus', exact: true });
    await focusField.fill('Lisbon trip, 3 to 10 May');
    // Esc cancels; the edit is only kept once saved.
    await focusField.press('Escape');
    expect(await panel.text()).toContain('Planning a trip to Lisbon in May');
    await panel.region.getByRole('button', { name: 'Edit the focus' }).click();
    await panel.region.getByRole('textbox', { name: 'Focus', exact: true }).fill('Lisbon trip, 3 to 10 May');
    await panel.region.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.text(), SLOW).toContain('Lisbon trip, 3 to 10 May');
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'working-memory.png') });
  });

  it('Active work in the Memories screen lists the thread with its focus and open tasks, and links back to it', async () => {
    const memories = new MemoriesPage(page);
    await memories.open();
    await memories.tab('Active work').click();
    const tabpanel = page.getByRole('tabpanel');
    await expect.poll(() => tabpanel.innerText(), SLOW).toContain('Lisbon trip, 3 to 10 May');
    expect(await tabpanel.innerText()).toContain('Compare flights from Porto');
    expect(await tabpanel.innerText()).not.toContain('Book a hotel'); // finished: not active work
    expect(await seriousViolations(page)).toEqual([]);
    await tabpanel.getByRole('listitem').first().getByRole('button').first().click();
    await expect.poll(() => panel.region.count(), SLOW).toBe(1);
  });

  it('Clear all asks once more, then empties the working memory', async () => {
    if ((await panel.toggle.getAttribute('aria-expanded')) !== 'true') await panel.toggle.click();
    await panel.region.getByRole('button', { name: 'Clear all' }).click();
    await panel.region.getByRole('button', { name: 'Clear focus and tasks' }).click();
    await expect.poll(() => panel.text(), SLOW).toContain('No open tasks.');
    expect(await panel.text()).not.toContain('Lisbon trip');
    expect(await panel.region.getByRole('button', { name: 'Clear all' }).isDisabled()).toBe(true);
  });

  it('follows the version shown: a new thread’s question gets its notes', async () => {
    await chat.newThread();
    await chat.send('I prefer big dogs. Which breed should I get?');
    if ((await panel.toggle.getAttribute('aria-expanded')) !== 'true') await panel.toggle.click();
    // The update waits for the pause to last twice a reader's assumed one (see the first test).
    await expect.poll(() => panel.text(), { timeout: 75_000 }).toContain('The user prefers big dogs');
  });

  it('after the question is edited, the old version’s notes are put aside; switching back says they are rebuilt', async () => {
    const versions = new VersionsPage(page);
    const question = chat.questions.first();
    await expect.poll(() => versions.editButton(question).isEnabled(), SLOW).toBe(true);
    await versions.editButton(question).click();
    await versions.editField(question).fill('I prefer small dogs. Which breed should I get?');
    await versions.sendEditButton(question).click();
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label'), SLOW).toBe('Version 2 of 2');
    // At once (before the update after the edit): the edited-away question's task is not shown as current.
    await expect.poll(() => panel.text(), SLOW).not.toContain('big dogs');
    await expect.poll(() => panel.text(), { timeout: 75_000 }).toContain('Compare small breeds');
    expect(await panel.text()).not.toContain('big dogs');

    // Back to version 1: the small-dog notes are not this version's either; the panel says why it is empty.
    await versions.previous(chat.questions.first()).click();
    await expect.poll(() => versions.switcher(chat.questions.first()).getAttribute('aria-label'), SLOW).toBe('Version 1 of 2');
    await expect.poll(() => panel.text(), SLOW).toContain('came from another version of this conversation');
    expect(await panel.text()).not.toContain('Compare small breeds');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
