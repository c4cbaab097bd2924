import type { Locator, Page } from 'playwright-core';

/** The timeline as a user sees it (English UI): filters, the activity chart, the day-grouped stream, "as of". */
export class TimelinePage {
  readonly navButton: Locator;
  readonly stream: Locator;
  readonly events: Locator;
  readonly chart: Locator;
  readonly bars: Locator;
  readonly kind: Locator;
  readonly category: Locator;
  readonly asOf: Locator;
  readonly asOfPanel: Locator;

  constructor(readonly page: Page) {
    this.navButton = page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: /^Timeline/ });
    this.stream = page.getByRole('region', { name: 'What happened' });
    this.events = this.stream.getByRole('listitem');
    this.chart = page.getByRole('group', { name: /^Memories learned and changed over time/ });
    this.bars = this.chart.getByRole('button');
    this.kind = page.getByLabel('Show', { exact: true });
    this.category = page.getByLabel('Category', { exact: true });
    this.asOf = page.getByLabel('As of', { exact: true });
    this.asOfPanel = page.getByRole('complementary', { name: /^What Mnemo believed on/ });
  }

  async open(): Promise<void> {
    if ((await this.navButton.getAttribute('aria-current')) !== 'page') await this.navButton.click();
  }

  /** Where the stream, the first day's heading and that day's first event are on screen (client rectangles). */
  async firstEventGeometry(): Promise<Record<'stream' | 'heading' | 'event', { top: number; bottom: number }>> {
    return this.stream.evaluate((stream) => {
      const box = (el: Element | null) => {
        const r = el!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      };
      const day = stream.querySelector('.tl-day');
      return { stream: box(stream), heading: box(day!.querySelector('h3')), event: box(day!.querySelector('[data-event-id]')) };
    });
  }

  /** Events of a kind (by their label) that show a memory's text. */
  event(kind: string, text: string | RegExp): Locator {
    return this.events.filter({ has: this.page.getByText(kind, { exact: true }) }).filter({ hasText: text });
  }
}
