/**
 * Debian's Chromium driven by playwright-core (no browser download): headless, no sandbox (CI runs as root),
 * no background networking (this machine has no network but loopback), a fresh profile per launch, reduced motion.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.MNEMO_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
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
