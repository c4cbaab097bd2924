/**
 * The tests' Chromium (test/support/chromium-lookup.ts says which) driven by playwright-core (no browser download):
 * headless, no sandbox (CI runs as root), no background networking (this machine has no network but loopback), a
 * fresh profile per launch, reduced motion, and fonts from npm, Chinese included (support/test-fonts.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { locateChromium } from '../../support/chromium-lookup';
import { testFontConfig } from './test-fonts';

export async function launchBrowser(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const found = await locateChromium();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env, FONTCONFIG_FILE: testFontConfig(profile, found.fontDirs) },
    headless: true,
    viewport: { width: 1280, height: 800 },
    // As a user who asked for less motion: no transitions (styles.css), so no check ever reads a colour mid-fade
    // (issue 30 item 8: axe flagged a hovered button's label while its background was still changing).
    reducedMotion: 'reduce',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  return {
    browser: context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser };
