/**
 * Notifications fade by themselves; a screenshot should show the feature, not a toast that happened to be passing.
 */
import type { Page } from 'playwright-core';

export async function dismissToasts(page: Page): Promise<void> {
  // One at a time from the first: the others may fade while the pointer travels.
  const dismiss = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click({ timeout: 2000 }).catch(() => undefined);
}
