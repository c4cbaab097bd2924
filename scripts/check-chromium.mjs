#!/usr/bin/env node
// The browser e2e tests drive Debian's Chromium through playwright-core (no browser download). Fail early and say how to get it.
import fs from 'node:fs';

const executable = process.env.MNEMO_CHROMIUM ?? '/usr/bin/chromium';
if (!fs.existsSync(executable)) {
  console.error(
    `Chromium was not found at ${executable}. The browser tests need it: on Debian/Ubuntu run "sudo apt-get install -y chromium" ` +
      '(bash .ci/run does this), or set MNEMO_CHROMIUM to a Chromium/Chrome executable.',
  );
  process.exit(1);
}
