/**
 * Every screen through axe-core, in both languages and both themes: no serious or critical WCAG 2.1 A/AA violation.
 * Real web host, fake Ollama on loopback, a thread with an answer and some memories so the screens have content.
 * The browser asks for reduced motion (support/browser.ts): no transitions, so axe never reads a colour mid-fade; the
 * pointer stays where the last click left it, so hovered states are checked too, and on purpose in the last test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { seriousViolations } from './support/axe';
import type { RunningApp } from './support/processes';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const SCREENS = ['chat', 'memories', 'timeline', 'settings'] as const;
const NAV = {
  en: { memories: 'Memories', timeline: 'Timeline', settings: 'Settings' },
  'zh-CN': { memories: '记忆', timeline: '时间线', settings: '设置' },
} as const;

describe('accessibility: every screen, both languages, both themes (axe-core)', () => {
  let app: RunningApp;
  let api: Client;
  let session: WebSession;
  let page: Page;

  beforeAll(async () => {
    session = await startWebSession({ name: 'a11y', reply: (req) => {
      if (isLearning(req.purpose)) return { content: '{"memories": []}' };
      if (req.purpose === 'title') return { content: 'Weekend in Porto' };
      return { content: 'Porto is lovely in spring. **Enjoy** the river walks.' };
    } });
    ({ app, page, api } = session);
    for (const content of ['Lives in Porto', 'Prefers green tea over coffee', '我养了一只叫豆豆的橘猫']) unwrap(await api.call('memory.create', { content }));
    unwrap(await api.call('memory.create', { content: 'Works at Acme Robotics', pinned: true }));
    unwrap(await api.call('chat.send', { text: 'I am planning a weekend in Porto' }));
  }, 120_000);
  afterAll(() => session?.close());

  for (const language of ['en', 'zh-CN'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${language}, ${theme}: ${SCREENS.join(', ')}`, { timeout: 180_000 }, async () => {
        unwrap(await api.call('settings.update', { patch: { language, theme } }));
        await page.goto(app.url);
        await expect.poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]), { timeout: 15_000 }).toEqual([language, theme]);
        const found: Record<string, unknown> = {};
        for (const screen of SCREENS) {
          if (screen === 'chat') {
            await page.getByRole('navigation').getByRole('listitem').first().getByRole('button').first().click();
            await page.locator('main').getByText('Enjoy the river walks').first().waitFor({ timeout: 15_000 });
          } else {
            await page.getByRole('navigation').getByRole('button', { name: NAV[language][screen] }).first().click();
            await page.locator('main').getByRole('heading').first().waitFor({ timeout: 15_000 });
          }
          const violations = await seriousViolations(page);
          if (violations.length > 0) found[screen] = violations;
        }
        expect(found).toEqual({});
      });
    }
  }

  it('the sidebar navigation meets contrast hovered, pressed and current, in both themes; nothing fades (reduced motion)', { timeout: 180_000 }, async () => {
    const found: Record<string, unknown> = {};
    for (const theme of ['light', 'dark'] as const) {
      unwrap(await api.call('settings.update', { patch: { language: 'en', theme } }));
      await page.goto(app.url);
      await expect.poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]), { timeout: 15_000 }).toEqual(['en', theme]);
      const nav = page.getByRole('navigation');
      for (const name of ['Memories', 'Timeline', 'Settings'] as const) {
        const button = nav.getByRole('button', { name: new RegExp(`^${name}`) }).last();
        const check = async (state: string) => {
          // A hover or a click starts no transition: what is checked is the state itself, never a colour in between.
          const running = await page.evaluate(() => document.getAnimations().length);
          if (running > 0) found[`${theme} ${name} ${state}: transitions running`] = running;
          const violations = await seriousViolations(page, 'nav');
          if (violations.length > 0) found[`${theme} ${name} ${state}`] = violations;
        };
        await button.hover();
        await check('hovered');
        await page.mouse.down();
        await check('pressed');
        await page.mouse.up();
        await check('current and hovered');
        await page.mouse.move(900, 400);
        await check('current');
      }
    }
    expect(found).toEqual({});
  });
});
