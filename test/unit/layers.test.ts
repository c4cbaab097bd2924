import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { TOOL_TEST_TIMEOUT_MS } from '../support/timeouts';

// Proves each layer rule in eslint.config.js fires: a wrong-layer import must fail lint, a right one must pass.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

// Real ESLint: the first lint loads the config and the TypeScript parser, seconds on a loaded machine.
describe('layer rules', { timeout: TOOL_TEST_TIMEOUT_MS }, () => {
  it.each([
    ['electron/core/x.ts', "import { app } from 'electron';"],
    ['electron/core/x.ts', "import { startWebHost } from '../server/web-host';"],
    ['electron/core/x.ts', "import { registerIpc } from '../main/ipc-adapter';"],
    ['renderer/src/x.ts', "import fs from 'node:fs';"],
    ['renderer/src/x.ts', "import fs from 'fs';"],
    ['renderer/src/x.ts', "import { createCore } from '../../electron/core/create-core';"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['shared/x.ts', "import path from 'node:path';"],
    ['shared/x.ts', "import Database from 'better-sqlite3';"],
    ['electron/preload/x.ts', "import { createCore } from '../core/create-core';"],
    ['electron/preload/x.ts', "import fs from 'node:fs';"],
    ['electron/server/x.ts', "import { app } from 'electron';"],
    ['electron/cli/x.ts', "import { BrowserWindow } from 'electron';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code}\nexport const used = [${code.match(/import (?:\{ )?(\w+)/)![1]}];\n`)).toBeGreaterThan(0);
  });

  it.each([
    ['electron/core/x.ts', "import fs from 'node:fs';"],
    ['renderer/src/x.ts', "import { operations } from '../../shared/contract';"],
    ['electron/preload/x.ts', "import { contextBridge } from 'electron';"],
    ['electron/main/x.ts', "import { createCore } from '../core/create-core';"],
    ['electron/server/x.ts', "import { createCore } from '../core/create-core';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code}\nexport const used = [${code.match(/import (?:\{ )?(\w+)/)![1]}];\n`)).toBe(0);
  });
});
