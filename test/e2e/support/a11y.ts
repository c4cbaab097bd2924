/**
 * A plain accessibility check: every visible control (buttons, links, form fields, ARIA widgets) has an accessible
 * name. Returns a short description of each one that has none, so a failure says which.
 */
import type { Page } from 'playwright-core';

export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=option], [role=combobox], [role=progressbar], [role=dialog], [role=region], [role=img]';
    const named = (el: Element): boolean => {
      const labelledBy = el.getAttribute('aria-labelledby');
      if (labelledBy && labelledBy.split(/\s+/).some((id) => document.getElementById(id)?.textContent?.trim())) return true;
      if (el.getAttribute('aria-label')?.trim()) return true;
      if ((el as HTMLInputElement).labels?.length) return true;
      if (el.closest('label')) return true;
      const tag = el.tagName.toLowerCase();
      if (tag === 'input' || tag === 'select' || tag === 'textarea' || el.getAttribute('role') === 'progressbar' || el.getAttribute('role') === 'combobox') return false;
      return (el.textContent ?? '').trim() !== '';
    };
    return [...document.querySelectorAll(selector)]
      .filter((el) => (el as HTMLElement).offsetParent !== null || el.getAttribute('role') === 'dialog')
      .filter((el) => !named(el))
      .map((el) => el.outerHTML.slice(0, 160));
  });
}
