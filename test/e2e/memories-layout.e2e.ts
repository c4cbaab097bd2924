/**
 * The Memories screen at the window sizes and in the languages people use (issue 30's last walk): the actions and the
 * tabs each keep one line at 1100 px (the tabs wrapped under the actions), the search box's words are never cut when
 * the detail pane is open (Sort and Filters wrap below it together), a memory too long for its row ends in an ellipsis rather than mid-letter, and the expiry
 * day is written as the app's language writes it, not as the browser's locale does (zh-CN showed mm/dd/yyyy).
 * Real web host, fake Ollama, no embedding model.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { MemoriesPage } from './pages/memories.page';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';

const LONG = 'Garden planner: the app targets tablets first, then phones, and the plant data comes from a CSV file the user keeps';

/** The header's controls that leave the window, overlap each other, or sit on more than one line of tabs. */
function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const head = document.querySelector('.memories-view header')!;
    const problems: string[] = [];
    const tabs = [...head.querySelectorAll('[role="tab"]')].map((el) => el.getBoundingClientRect());
    if (new Set(tabs.map((b) => Math.round(b.top))).size !== 1) problems.push(`tabs on ${new Set(tabs.map((b) => Math.round(b.top))).size} lines`);
    const list = head.querySelector('[role="tablist"]')!.getBoundingClientRect();
    const tools = [...head.querySelectorAll('button:not([role="tab"])')];
    for (const el of tools) {
      const box = el.getBoundingClientRect();
      const name = (el.textContent ?? '').trim();
      if (box.right > window.innerWidth || box.left < 0) problems.push(`${name} outside the window`);
      if (box.bottom > list.top + 1 && box.top < list.bottom - 1 && box.left < list.right - 1 && list.left < box.right - 1) problems.push(`${name} on the tabs' line`);
      if (box.top > list.top) problems.push(`${name} below the tabs`);
    }
    return problems;
  });
}

/** How much of the search box's placeholder does not fit in its input, in pixels (0: it shows whole). */
function placeholderCut(page: Page): Promise<number> {
  return page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]')!;
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.max(0, Math.ceil(context.measureText(input.placeholder).width - room));
  });
}

/** The rows whose text overflows without an ellipsis: the box that clips the words must be one that draws it. */
function rowsCutMidWord(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="listitem"][data-memory-id]')].flatMap((row) => {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      const cut: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const box = node.parentElement!;
        const style = getComputedStyle(box);
        const clipped = box.scrollWidth > box.clientWidth + 1 || (box.parentElement!.scrollWidth > box.parentElement!.clientWidth + 1 && style.display === 'inline');
        const ellipsis = style.textOverflow === 'ellipsis' && !/flex|grid/.test(style.display);
        if ((node.textContent ?? '').length > 40 && clipped && !ellipsis) cut.push((node.textContent ?? '').slice(0, 30));
      }
      return cut;
    }),
  );
}

describe('the Memories screen fits, in both languages', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;
  let memories: MemoriesPage;

  beforeAll(async () => {
    session = await startWebSession({ name: 'memories-layout' });
    ({ app, page, api } = session);
    memories = new MemoriesPage(page);
    unwrap(await api.call('memory.create', { content: LONG }));
    unwrap(await api.call('memory.create', { content: 'Prefers green tea over coffee', category: 'preference' }));
    await page.goto(app.url);
    await memories.open();
  }, 120_000);
  afterAll(() => session?.close());

  it('at 1100 px the actions keep their line and the tabs keep one line beneath, in English and Chinese', async () => {
    try {
      for (const language of ['en', 'zh-CN'] as const) {
        unwrap(await api.call('settings.update', { patch: { language } }));
        for (const width of [1100, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await expect.poll(() => headerProblems(page), { message: `${language} at ${width} px` }).toEqual([]);
        }
      }
    } finally {
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('with the detail pane open the search box shows its words whole and a long memory ends in an ellipsis', async () => {
    await memories.openMemory('Prefers green tea');
    await expect.poll(() => memories.detail.isVisible()).toBe(true);
    try {
      for (const width of [1280, 1100]) {
        await page.setViewportSize({ width, height: 800 });
        await expect.poll(() => placeholderCut(page), { message: `placeholder at ${width} px` }).toBe(0);
        expect(await rowsCutMidWord(page), `rows at ${width} px`).toEqual([]);
        // Sort and Filters wrap together: Filters was left alone on a line of its own at 1280 px.
        const sort = (await memories.sort.boundingBox())!;
        const filters = (await page.getByRole('button', { name: 'Filters' }).boundingBox())!;
        expect(Math.abs(sort.y + sort.height / 2 - (filters.y + filters.height / 2)), `Sort and Filters at ${width} px`).toBeLessThan(4);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('the filters keep “Learned from … to …” on one line when they wrap', async () => {
    await memories.detail.getByRole('button', { name: 'Close the memory' }).click();
    await page.getByRole('button', { name: 'Filters' }).click();
    try {
      for (const width of [1280, 1100, 960]) {
        await page.setViewportSize({ width, height: 800 });
        const from = (await memories.filter('Learned from').boundingBox())!;
        const to = (await memories.filter('to').boundingBox())!;
        expect(Math.abs(from.y - to.y), `at ${width} px`).toBeLessThan(4);
      }
    } finally {
      await page.getByRole('button', { name: 'Filters' }).click();
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('the expiry day is written the way the app’s language writes it, and a day that is not one is said', async () => {
    unwrap(await api.call('settings.update', { patch: { language: 'zh-CN' } }));
    try {
      await page.getByRole('button', { name: '添加记忆' }).click();
      const dialog = page.getByRole('dialog', { name: '添加一条记忆' });
      await dialog.getByRole('textbox', { name: 'Mnemo 记住的内容' }).fill('每周三去游泳');
      const day = dialog.getByRole('textbox', { name: '过期日期' });
      expect(await day.getAttribute('placeholder')).toBe('年/月/日');
      await day.fill('2026/2/30');
      await dialog.getByRole('radio').first().focus();
      expect(await dialog.textContent()).toContain('请按“年/月/日”填写日期，例如 2026/12/31。');
      expect(await dialog.getByRole('button', { name: '添加记忆' }).isDisabled()).toBe(true);
      await day.fill('2027年3月1日');
      await dialog.getByRole('button', { name: '添加记忆' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      const swim = unwrap(await api.call('memory.list', {})).items.find((m) => m.content === '每周三去游泳')!;
      expect(new Date(swim.expiresAt! + 1).getDate()).toBe(2); // through the end of 1 March 2027 (local day)

      await page.getByRole('listitem').filter({ hasText: '每周三去游泳' }).getByRole('button').click();
      expect(await page.getByRole('complementary').getByRole('textbox', { name: '过期日期' }).inputValue()).toBe('2027/03/01');
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
      await expect.poll(() => memories.detail.getByRole('textbox', { name: 'Expiry date' }).inputValue()).toBe('03/01/2027');
      expect(await memories.detail.getByRole('textbox', { name: 'Expiry date' }).getAttribute('placeholder')).toBe('mm/dd/yyyy');
    } finally {
      unwrap(await api.call('settings.update', { patch: { language: 'en' } }));
    }
  });

  it('a day can be picked from the calendar as well as typed, and is shown the way a typed one is', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.getByRole('button', { name: 'Add memory' }).click();
    const dialog = memories.dialog('Add a memory');
    await dialog.getByRole('textbox', { name: 'What Mnemo remembers' }).fill('Swims on Wednesdays');
    const day = dialog.getByRole('textbox', { name: 'Expiry date' });
    await dialog.getByRole('button', { name: 'Choose from a calendar' }).click();
    // The browser's own picker: what the user picks in it arrives as the date input's value.
    await dialog.locator('input[type="date"]').fill('2027-03-01');
    await expect.poll(() => day.inputValue()).toBe('03/01/2027');
    await dialog.getByRole('button', { name: 'Add memory' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const swim = unwrap(await api.call('memory.list', {})).items.find((m) => m.content === 'Swims on Wednesdays')!;
    expect(new Date(swim.expiresAt! + 1).getDate()).toBe(2); // through the end of 1 March 2027 (local day)
    expect(errors).toEqual([]);
  });
});
