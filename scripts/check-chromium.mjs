#!/usr/bin/env node
// Before the browser tests: find the Chromium they will drive (test/support/chromium-lookup.ts holds the order:
// MNEMO_CHROMIUM, an installed Chromium/Chrome/Edge, the npm one on Linux x64), unpack the npm one if that is the
// choice, check that it starts, and say which. None found, or one that cannot start: say why and exit 1.
import { spawnSync } from 'node:child_process';
import { tsImport } from 'tsx/esm/api';

const { locateChromium, ChromiumNotFoundError } = await tsImport('../test/support/chromium-lookup.ts', import.meta.url);
let chromium;
try {
  chromium = await locateChromium();
} catch (error) {
  if (!(error instanceof ChromiumNotFoundError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (chromium.source === 'npm') {
  // The one Mnemo unpacked itself: a library this machine lacks shows here, in one line, not as a launch timeout.
  const run = spawnSync(chromium.executablePath, ['--version'], { env: { ...process.env, ...chromium.env }, encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(`The Chromium from npm (@sparticuz/chromium, ${chromium.executablePath}) does not start on this machine: ` +
      `${run.error?.message ?? run.stderr.trim()}\nInstall Chromium, Chrome or Edge, or set MNEMO_CHROMIUM to one.`);
    process.exit(1);
  }
}
console.log(`Browser tests use ${chromium.executablePath} (${chromium.source})`);
