/**
 * Where the keyboard focus is and whether it shows (issue 30 item 9): the memory editor's expiry date has a focus ring
 * when reached with Tab, and "Clear focus and tasks" in a thread's working memory hands the focus on instead of
 * dropping it to the page body (as does each step before it: Clear all, Cancel).
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { MemoriesPage } from './pages/memories.page';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

/** What has the focus: its accessible name as a user would hear it, or 'body'. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/[▾▸]/g, '').replace(/\s+/g, ' ').trim();
  });

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab did not reach ${String(target)}`);
}

describe('keyboard focus: visible, and never dropped to the page', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;

  beforeAll(async () => {
    session = await startWebSession({ name: 'keyboard-focus' });
    ({ app, page, api } = session);
  }, 120_000);
  afterAll(() => session?.close());

  it('the memory editor’s expiry date shows a focus ring when reached with Tab', async () => {
    await page.goto(app.url);
    const memories = new MemoriesPage(page);
    await memories.open();
    await page.getByRole('button', { name: 'Add memory' }).click();
    const dialog = memories.dialog('Add a memory');
    const date = dialog.getByLabel('Expiry date');
    await dialog.getByRole('radio').last().check();
    await tabTo(page, date);
    const ring = await date.evaluate((el) => {
      const style = getComputedStyle(el);
      return { outline: style.outlineStyle === 'none' ? 'none' : `${style.outlineWidth} ${style.outlineStyle}`, shadow: style.boxShadow };
    });
    expect(ring.outline !== 'none' || ring.shadow !== 'none', JSON.stringify(ring)).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('Clear all, Cancel and "Clear focus and tasks" hand the focus on', async () => {
    const thread = unwrap(await api.call('thread.create', { title: 'Moving house' }));
    unwrap(await api.call('focus.update', { threadId: thread.id, edit: { kind: 'setFocus', text: 'Moving to a flat in Porto' } }));
    unwrap(await api.call('focus.update', { threadId: thread.id, edit: { kind: 'addTask', text: 'Book a van' } }));
    await page.goto(app.url);
    await page.getByRole('navigation').getByRole('button', { name: /^Moving house/ }).first().click();
    const panel = page.getByRole('region', { name: /Working memory/ });
    const toggle = panel.getByRole('button', { name: /Working memory/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const clearAll = panel.getByRole('button', { name: 'Clear all' });
    await tabTo(page, clearAll);

    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Clear focus and tasks');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Clear all');

    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Clear focus and tasks');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.innerText()).toContain('No open tasks.');
    // Clear all is disabled now (nothing left): the focus goes to the panel's heading, which opened it.
    await expect.poll(() => focused(page)).toMatch(/^Working memory/);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
