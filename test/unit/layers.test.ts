import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TOOL_TEST_TIMEOUT_MS } from '../support/timeouts';

// Proves each layer rule fires: a wrong-layer import must fail lint (eslint.config.js), a wrong runtime's global must
// fail the type check (tsconfig.*.json), and the right ones must pass.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

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
    ['electron/main/x.ts', "import { ipcMain } from 'electron';"],
    ['electron/main/index.ts', "import { ipcMain } from 'electron';"],
    ['electron/main/x.ts', "import * as electron from 'electron';"],
    ['test/unit/x.test.ts', "import { ipcRenderer } from 'electron';"],
    ['bench/x.ts', "import { ipcMain } from 'electron';"],
    // Inside the core: a folder imports only folders ranked below it (coreLayers), never the composition root.
    ['electron/core/text/x.ts', "import { createMemoryService } from '../memory/memory.service';"],
    ['electron/core/safety/x.ts', "import { chatHandlers } from '../chat/chat.handlers';"],
    ['electron/core/memory/x.ts', "import { createChatService } from '../chat/chat.service';"],
    ['electron/core/db/x.ts', "import { createBackupScrubber } from '../backup/backup-scrub';"],
    ['electron/core/focus/x.ts', "import { parseSources } from '../profile/profile-lines';"],
    ['electron/core/db/x.ts', "import { createCore } from '../create-core';"],
    ['electron/core/memory/x.ts', "import { app } from 'electron';"],
    ['electron/core/memory/x.ts', "import { startWebHost } from '../../server/web-host';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code} export const used = [${code.match(/import (?:\{ |\* as )?(\w+)/)![1]}];\n`)).toBeGreaterThan(0);
  });

  it.each([
    ['electron/core/x.ts', "import fs from 'node:fs';"],
    ['renderer/src/x.ts', "import { operations } from '../../shared/contract';"],
    ['electron/preload/x.ts', "import { contextBridge } from 'electron';"],
    ['electron/preload/x.ts', "import { ipcRenderer } from 'electron';"],
    ['electron/main/ipc-adapter.electron.ts', "import { ipcMain } from 'electron';"],
    ['electron/main/x.ts', "import { BrowserWindow } from 'electron';"],
    ['electron/main/x.ts', "import { createCore } from '../core/create-core';"],
    ['electron/server/x.ts', "import { createCore } from '../core/create-core';"],
    ['electron/core/memory/x.ts', "import { detectSecrets } from '../safety/secret-detector';"],
    ['electron/core/chat/x.ts', "import { createMemoryService } from '../memory/memory.service';"],
    ['electron/core/backup/x.ts', "import { parseSources } from '../profile/profile-lines';"],
    ['electron/core/memory/x.ts', "import { memoryHandlers } from './memory.handlers';"],
    ['electron/core/x.ts', "import { chatHandlers } from './chat/chat.handlers';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code} export const used = [${code.match(/import (?:\{ |\* as )?(\w+)/)![1]}];\n`)).toBe(0);
  });
});

async function ruleErrors(filePath: string, code: string, ruleId: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === ruleId).length;
}

// The renderer by feature: components reach the core only through stores; a feature uses another's stores, queries
// and helpers, its components only through its public.ts; leaves import no feature but the settings store.
describe('renderer rules', { timeout: TOOL_TEST_TIMEOUT_MS }, () => {
  const used = (code: string) => `${code} export const used = [${code.match(/import (?:type )?\{ (\w+)/)![1]}];\n`;

  it.each([
    ['renderer/src/chat/X.tsx', "import type { Client } from '../../../shared/client';"],
    ['renderer/src/chat/message-text.ts', "import { createRendererClient } from '../app/rpc-client';"],
    ['renderer/src/app/App.tsx', "import { createWebTransport } from '../../../shared/transports/web.transport';"],
    ['renderer/src/memories/X.tsx', "import { ModelSetup } from '../status/ModelSetup';"],
    ['renderer/src/settings/settings.store.ts', "import { TransferPanel } from '../transfer/TransferPanel';"],
    ['renderer/src/ui/X.tsx', "import { useChatStore } from '../chat/chat.store';"],
    ['renderer/src/format/x.ts', "import { showMemory } from '../app/navigate';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await ruleErrors(file, used(code), 'no-restricted-imports')).toBeGreaterThan(0);
  });

  it.each([
    ['renderer/src/chat/chat.store.ts', "import type { Client } from '../../../shared/client';"],
    ['renderer/src/main.tsx', "import { createRendererClient } from './app/rpc-client';"],
    ['renderer/src/memories/X.tsx', "import { ModelSetup } from '../status/public';"],
    ['renderer/src/memories/X.tsx', "import { useStatusStore } from '../status/status.store';"],
    ['renderer/src/memories/X.tsx', "import { Dialog } from '../ui/Dialog';"],
    ['renderer/src/memories/X.tsx', "import { MemoryEditor } from './MemoryEditor';"],
    ['renderer/src/app/App.tsx', "import { ChatView } from '../chat/ChatView';"],
    ['renderer/src/format/x.ts', "import { currentTimeZone } from '../settings/settings.store';"],
    ['renderer/src/ui/X.tsx', "import { useT } from '../i18n/use-t';"],
  ])('%s may: %s', async (file, code) => {
    expect(await ruleErrors(file, used(code), 'no-restricted-imports')).toBe(0);
  });

  const component = (body: string) => `import { useChatStore } from './chat.store';\nexport function X({ entry }: { entry: { client: string } }) {\n  ${body}\n}\n`;
  it.each([
    ['selects the client from a store', 'const client = useChatStore((s) => s.client);\n  return client;'],
    ['reads the client off getState()', 'return useChatStore.getState().client;'],
    ['destructures the client from a store', 'const { client, send } = useChatStore();\n  return [client, send];'],
  ])('a component may not hold the rpc client: %s', async (_, body) => {
    expect(await ruleErrors('renderer/src/chat/X.tsx', component(body), 'no-restricted-syntax')).toBeGreaterThan(0);
  });

  it.each([
    ['selects an action from a store', 'const send = useChatStore((s) => s.send);\n  return [send, entry];'],
    ['reads a field named client of its data', 'return entry.client;'],
  ])('a component may: %s', async (_, body) => {
    expect(await ruleErrors('renderer/src/chat/X.tsx', component(body), 'no-restricted-syntax')).toBe(0);
  });
});

const coreDir = path.join(root, 'electron/core');

/** Every .ts file under electron/core/, as paths from there ("memory/memory.service.ts"). */
function coreFiles(dir = coreDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return coreFiles(full);
    return e.name.endsWith('.ts') ? [path.relative(coreDir, full).split(path.sep).join('/')] : [];
  });
}

/** The folder of a core file ("memory"), or '' for a file of electron/core/ itself (the composition root). */
const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

describe('core folder ranking (coreLayers in eslint.config.js)', () => {
  it('ranks every folder of electron/core once, and every import in the core goes down the ranking', async () => {
    const { coreLayers } = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as { coreLayers: string[][] };
    const rank = new Map(coreLayers.flatMap((row, i) => row.map((folder) => [folder, i] as const)));
    const folders = fs.readdirSync(coreDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(coreLayers.flat().sort()).toEqual([...folders].sort());

    const wrong: string[] = [];
    let crossFolder = 0;
    for (const file of coreFiles()) {
      // Every import: values, types, re-exports and dynamic import() alike (preProcessFile reads them all).
      for (const { fileName } of ts.preProcessFile(fs.readFileSync(path.join(coreDir, file), 'utf8'), true, true).importedFiles) {
        if (!fileName.startsWith('.')) continue;
        const target = path.relative(coreDir, path.resolve(coreDir, path.dirname(file), fileName)).split(path.sep).join('/');
        if (target.startsWith('..')) continue;
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from === to) continue;
        crossFolder += 1;
        // The composition root (rank: above all) may import any folder; a folder never imports the root.
        const fromRank = from === '' ? coreLayers.length : rank.get(from)!;
        const toRank = to === '' ? coreLayers.length : rank.get(to)!;
        if (!(toRank < fromRank)) wrong.push(`${file} -> ${fileName}`);
      }
    }
    expect(crossFolder).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});

/** The options a tsconfig checks with, and the files it checks. */
function readConfig(config: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, config), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed || parsed.errors.length > 0) throw new Error(`${config} does not parse`);
  return parsed;
}

// Parsed declaration files (lib.dom.d.ts, @types/node, the app's modules), shared by every probe's program.
const parsedFiles = new Map<string, ts.SourceFile>();

/**
 * The type errors `code` gets as a file at `filePath` (beside real code, so relative imports resolve) in the program
 * `config` checks its folder with.
 */
function typeErrors(config: string, filePath: string, code: string): string[] {
  const { options, fileNames } = readConfig(config);
  const probe = path.join(root, filePath);
  expect(fileNames.some((f) => path.dirname(f) === path.dirname(probe)), `${config} checks ${path.dirname(filePath)}/`).toBe(true);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (name === probe ? code : readFile(name));
  host.fileExists = (name) => name === probe || fileExists(name);
  host.getSourceFile = (name, languageVersion) => {
    if (name === probe) return ts.createSourceFile(name, code, languageVersion, true);
    const key = `${name}\0${JSON.stringify(languageVersion)}`;
    if (!parsedFiles.has(key)) {
      const text = readFile(name);
      if (text === undefined) return undefined;
      parsedFiles.set(key, ts.createSourceFile(name, text, languageVersion, true));
    }
    return parsedFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: [probe], options, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(probe)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

// A probe imports its layer's entry point: a dependency whose typings drag in the other runtime's globals (a stray
// `/// <reference types="node" />` in some package) would let the `may not` code compile, and this test fail.
const rendererEntry = "import './main';";
const coreEntry = "import './create-core';";

describe('runtime rules (one tsconfig per runtime)', { timeout: TOOL_TEST_TIMEOUT_MS }, () => {
  it.each([
    ['tsconfig.web.json', 'renderer/src/x.ts', `${rendererEntry} export const home = process.env.HOME;`],
    ['tsconfig.web.json', 'renderer/src/x.ts', `${rendererEntry} export const bytes = Buffer.from('x');`],
    ['tsconfig.web.json', 'renderer/src/x.ts', `${rendererEntry} import fs from 'node:fs'; export const read = fs.readFileSync;`],
    ['tsconfig.web.json', 'shared/x.ts', 'export const home = process.env.HOME;'],
    ['tsconfig.node.json', 'electron/core/x.ts', `${coreEntry} export const title = document.title;`],
    ['tsconfig.node.json', 'electron/core/x.ts', `${coreEntry} export const href = window.location.href;`],
    ['tsconfig.node.json', 'electron/server/x.ts', 'export const title = document.title;'],
    ['tsconfig.node.json', 'shared/x.ts', 'export const title = document.title;'],
  ])('%s: %s may not use the other runtime: %s', (config, file, code) => {
    expect(typeErrors(config, file, code).join('\n')).toMatch(/Cannot find (name|module) '(process|Buffer|node:fs|document|window)'/);
  });

  it.each([
    ['tsconfig.web.json', 'renderer/src/x.ts', `${rendererEntry} export const title = document.title;`],
    ['tsconfig.node.json', 'electron/core/x.ts', `${coreEntry} import fs from 'node:fs'; export const home = [process.env.HOME, fs.readFileSync];`],
    ['tsconfig.e2e.json', 'test/e2e/x.e2e.ts', "import fs from 'node:fs'; export const both = [fs.readFileSync, () => document.title];"],
  ])('%s: %s may: %s', (config, file, code) => {
    expect(typeErrors(config, file, code)).toEqual([]);
  });

  it('npm run typecheck checks every program', () => {
    const solution = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config as { references: Array<{ path: string }> };
    const programs = ts.sys.readDirectory(root, ['.json'], undefined, ['tsconfig.*.json'], 1).map((f) => path.basename(f));
    expect(solution.references.map((r) => path.basename(r.path)).sort()).toEqual(programs.filter((f) => f !== 'tsconfig.base.json').sort());
    expect(JSON.parse(ts.sys.readFile(path.join(root, 'package.json'))!).scripts.typecheck).toBe('tsc -b');
  });
});
