/** `npm run docs:cli`: writes docs/CLI.md from the command registry (electron/cli/cli-reference.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { commands } from '../electron/cli/commands';
import { CLI_REFERENCE_PATH, cliReference } from '../electron/cli/cli-reference';

const file = path.join(import.meta.dirname, '..', CLI_REFERENCE_PATH);
fs.writeFileSync(file, cliReference(commands));
console.log(`wrote ${CLI_REFERENCE_PATH}`);
