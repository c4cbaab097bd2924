/**
 * Memories › Episodes as a user meets it, in Chromium against `npm run web` and a fake Ollama whose background model
 * answers the episode request: the empty state saying when episodes appear, an episode the background model wrote
 * (asked for now through the API, as "quiet" would take half an hour), the link to its thread, the user's edit with
 * its versions and a revert, delete with Undo, the deleted ones restored or deleted forever, and two later conversations listed newest first (the user guide's picture). One web
 * host and one page for the whole file; each test continues the last.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { ROOT, type RunningApp } from './support/processes';
import { dismissToasts } from './support/toasts';
import { startWebSession, type WebSession } from './support/web-session';

const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const isEpisodeRequest = (request: FakeInferenceRequest) => request.purpose === 'episode';
const EPISODE = 'Lisbon trip in May\nWanted: a plan for a week in Lisbon.\nPlaces: Lisbon, Porto';
/** Two more conversations for the screenshot, each with the episode its transcript calls for. */
const SOURDOUGH = 'Sourdough starter smelling of acetone\nWanted: to know why the starter smells of nail polish.\nCame of it: feed it twice a day at 1:5:5 for three days; keep it at 24 °C.\nStill open: whether to switch to rye flour.';
const PHOTOS = 'Renaming holiday photos by date\nWanted: a script to rename 2,300 photos by the date they were taken.\nCame of it: a Python script reading EXIF dates with Pillow; dry run first.\nTools: Python, Pillow';

/** The background model's episode or title for the conversation in the prompt; the chat model's answer otherwise. */
function reply(request: FakeInferenceRequest): FakeReply {
  const prompt = request.messages.map((m) => m.content).join('\n');
  const about = (lisbon: string, sourdough: string, photos: string) => (prompt.includes('sourdough') ? sourdough : prompt.includes('holiday photos') ? photos : lisbon);
  if (isEpisodeRequest(request)) return { content: about(EPISODE, SOURDOUGH, PHOTOS) };
  if (request.purpose === 'title') return { content: about('A week in Lisbon', 'Sourdough starter', 'Renaming holiday photos') };
  return { content: 'Happy to help.' };
}

/** The Episodes panel as the user sees it. */
class EpisodesPanel {
  readonly panel: Locator;
  readonly list: Locator;
  readonly items: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('tabpanel');
    this.list = page.getByRole('list', { name: 'Episodes, newest first' });
    this.items = this.list.getByRole('listitem');
  }

  text(): Promise<string> {
    return this.panel.innerText();
  }
}

describe('Memories › Episodes (web host + fake Ollama)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let memories: MemoriesPage;
  let episodes: EpisodesPanel;
  let threadId = 0;

  beforeAll(async () => {
    session = await startWebSession({ name: 'episodes', reply, modelsFolder: 'models' });
    ({ app, page, api } = session);
    memories = new MemoriesPage(page);
    episodes = new EpisodesPanel(page);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(() => session?.close());

  it('before any: the tab says when episodes appear, with the switch and the quiet time', async () => {
    await new ChatPage(page).open(app.url);
    await memories.open();
    await memories.tab('Episodes').click();
    await expect.poll(() => episodes.text()).toContain('No episodes yet');
    expect(await episodes.text()).toContain('quiet for 30 minutes');
    expect(await page.getByRole('switch', { name: 'Write episodes' }).isChecked()).toBe(true);
    expect(await page.getByRole('spinbutton', { name: 'A conversation is quiet after (minutes)' }).inputValue()).toBe('30');
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('an episode the background model wrote appears live, with its dates and its thread', async () => {
    const sent = unwrap(await api.call('chat.send', { text: 'Help me plan a week in Lisbon in May.' }));
    threadId = sent.threadId;
    unwrap(await api.call('episode.refresh', { threadId }));
    await expect.poll(() => episodes.items.count(), { timeout: 30_000 }).toBe(1);
    const item = episodes.items.first();
    expect(await item.getByRole('heading').innerText()).toBe('Lisbon trip in May');
    expect(await item.innerText()).toContain('Places: Lisbon, Porto');
    expect(await item.getByRole('button', { name: /^Open the thread/ }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Edit keeps the user’s text (edited by you); Versions lists both and brings the first back', async () => {
    const item = episodes.items.first();
    await item.getByRole('button', { name: 'Edit' }).click();
    const text = item.getByRole('textbox', { name: 'What happened' });
    await text.fill('Wanted: a week in Lisbon, trains only.');
    await item.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => item.innerText()).toContain('trains only');
    expect(await item.innerText()).toContain('edited by you');
    const stored = unwrap(await api.call('episode.list', {})).episodes[0]!;
    expect(stored).toMatchObject({ content: 'Wanted: a week in Lisbon, trains only.', editedByUser: true, version: 2 });

    await item.getByRole('button', { name: 'Versions' }).click();
    await expect.poll(() => item.innerText()).toContain('Version 1');
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByRole('button', { name: 'Bring back version 1' }).click();
    await expect.poll(() => item.locator('.episode-text').innerText()).toBe('Wanted: a plan for a week in Lisbon.\nPlaces: Lisbon, Porto');
    await expect.poll(() => item.innerText()).toContain('Version 3');
  });

  it('the thread link opens the conversation; Delete removes the episode and the empty state returns', async () => {
    await episodes.items.first().getByRole('button', { name: /^Open the thread/ }).click();
    await expect.poll(() => page.getByText('Help me plan a week in Lisbon in May.').first().isVisible()).toBe(true);
    await memories.open();
    await memories.tab('Episodes').click();
    await episodes.items.first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => episodes.text()).toContain('No episodes yet');
    expect(unwrap(await api.call('episode.list', { status: 'trashed' })).episodes).toHaveLength(1);
  });

  it('a deleted episode: Undo brings it back; under Deleted it is restored or deleted forever, backups included', async () => {
    const notices = page.getByRole('region', { name: 'Notifications' });
    await notices.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => episodes.items.count()).toBe(1);
    expect(unwrap(await api.call('episode.list', {})).episodes).toHaveLength(1);

    await episodes.items.first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => episodes.items.count()).toBe(0);
    // The chosen view looks chosen: pressed, and drawn unlike the other (hovered or not).
    const views = page.getByRole('group', { name: 'Which episodes' });
    const look = (name: string) =>
      views.getByRole('button', { name, exact: true }).evaluate((el) => {
        const style = getComputedStyle(el);
        return { pressed: el.getAttribute('aria-pressed'), drawn: `${style.backgroundColor} ${style.borderColor} ${style.fontWeight}` };
      });
    const [chosen, other] = [await look('Episodes'), await look('Deleted')];
    expect([chosen.pressed, other.pressed]).toEqual(['true', 'false']);
    expect(chosen.drawn).not.toBe(other.drawn);
    await page.getByRole('button', { name: 'Deleted' }).click();
    await expect.poll(() => look('Deleted')).toEqual(chosen);
    await expect.poll(() => look('Episodes')).toEqual(other);
    const deleted = page.getByRole('list', { name: 'Deleted episodes' }).getByRole('listitem');
    await expect.poll(() => deleted.count()).toBe(1);
    expect(await deleted.first().getByRole('heading').innerText()).toBe('Lisbon trip in May');
    expect(await deleted.first().getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await unnamedControls(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await deleted.first().getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => page.getByText('No deleted episodes.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Episodes', exact: true }).click();
    await expect.poll(() => episodes.items.count()).toBe(1);

    await episodes.items.first().getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Deleted' }).click();
    await deleted.first().getByRole('button', { name: 'Delete forever' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this episode forever?' });
    expect(await confirm.innerText()).toContain('backups included');
    await confirm.getByRole('button', { name: 'Delete forever' }).click();
    await expect.poll(() => page.getByText('No deleted episodes.').isVisible()).toBe(true);
    await expect.poll(() => notices.innerText()).toContain('Deleted 1 episode forever, from the database and its backups.');
    expect(unwrap(await api.call('episode.list', { status: 'trashed' })).episodes).toEqual([]);
    await page.getByRole('button', { name: 'Episodes', exact: true }).click();
    await expect.poll(() => episodes.text()).toContain('No episodes yet');
  });

  it('two more conversations: their episodes are listed newest first', async () => {
    for (const text of ['My sourdough starter smells of acetone. What is wrong with it?', 'Write me a script to rename my holiday photos by the date they were taken.']) {
      const sent = unwrap(await api.call('chat.send', { text }));
      unwrap(await api.call('episode.refresh', { threadId: sent.threadId }));
      await expect.poll(() => episodes.items.first().getByRole('heading').innerText(), { timeout: 30_000 }).toBe(text.includes('sourdough') ? 'Sourdough starter smelling of acetone' : 'Renaming holiday photos by date');
    }
    await expect.poll(() => episodes.items.count()).toBe(2);
    await dismissToasts(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'episodes.png') });
  });
});
