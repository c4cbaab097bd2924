// Lint: TypeScript rules plus the layer rules that make a wrong-layer import fail the build
// (see docs/ARCHITECTURE.md "Layers"). test/unit/layers.test.ts proves each rule fires.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'util', 'worker_threads', 'stream'];
// Raw Electron IPC only where the contract is bound to it, so no channel exists that the contract does not derive.
const rawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'Raw Electron IPC lives in electron/main/ipc-adapter.electron.ts and electron/preload/ only: add an operation to shared/contract instead.',
};
// One rule entry per file: ESLint lets the last matching block's entry win, so each layer's entry repeats rawIpc.
const restrict = (patterns, message, paths = [rawIpc], more = []) => ({
  'no-restricted-imports': ['error', { paths, patterns: [...patterns.map((group) => ({ group: [group], message })), ...more] }],
});
// The renderer's shape: components reach the core only through stores, and a feature uses another feature's stores,
// queries and helpers, but its components only through the public.ts it chooses to export.
const rendererBase = [[...nodeBuiltins, 'electron', 'electron/**', '**/electron/**', 'better-sqlite3', 'ws', 'drizzle-orm', 'drizzle-orm/**'], 'The renderer is an untrusted web page: it talks to Mnemo only through its rpc client.'];
const rpcClient = {
  group: ['**/shared/client', '**/shared/transports/**', '**/rpc-client'],
  message: 'Only stores (*.store.ts, *.queries.ts) hold the rpc client: a component asks its feature\'s store.',
};
const otherFeatureComponents = {
  regex: '^\\.\\./(?!\\.\\./|(ui|markdown|attachments)/)[^/]+/[A-Z]',
  caseSensitive: true,
  message: "Another feature's components are its own: import what it exports in its public.ts (its stores and helpers are public).",
};
const leafImports = {
  regex: '^\\.\\./(?!\\.\\./|(ui|i18n|format|markdown|attachments|locales)/|settings/settings\\.store$)',
  message: 'ui/, i18n/, format/, markdown/, attachments/ are leaves: they import other leaves and the settings store (language, time zone) only.',
};
const rendererRule = (extra) => restrict(...rendererBase, [rawIpc], extra);
const clientInComponents = [
  { selector: "CallExpression[callee.name=/^use\\w*Store$/] > ArrowFunctionExpression > MemberExpression.body[property.name='client']", message: 'A component never holds the rpc client: add an action to its feature\'s store.' },
  { selector: "MemberExpression[property.name='client'][object.callee.property.name='getState']", message: 'A component never holds the rpc client: add an action to its feature\'s store.' },
  { selector: "VariableDeclarator[init.callee.name=/^use\\w*Store$/] > ObjectPattern > Property[key.name='client']", message: 'A component never holds the rpc client: add an action to its feature\'s store.' },
];
const coreRuntime = [['electron', 'electron/**', 'react', 'react-dom', '**/main/**', '**/preload/**', '**/server/**', '**/cli/**', '**/renderer/**'], 'electron/core is plain Node: it never imports Electron, a host, or the renderer.'];

/**
 * The core's folders, from the leaves up: the one ranking of electron/core/. A folder imports only folders of lower
 * rows; the folders of one row never import each other; the files in electron/core/ itself (create-core.ts, the
 * composition root, app.handlers.ts, in-process.transport.ts) sit above every row. So the folders cannot import in a
 * circle. Leaves hold the rules every feature uses; domains sit above them. A new folder gets a row here
 * (test/unit/layers.test.ts fails until it has one, and checks every import of the core against this table).
 */
export const coreLayers = [
  ['text'], // words, fences, token estimates
  ['time', 'safety'], // dates in words; secrets, instructions, language, grounding
  ['ports'], // what the environment provides (clock, logger, paths, secrets) and a domain asks of another
  ['runtime'], // event bus, schedulers, worker threads, packaged paths, version
  ['db'], // opening (restore included), migrations, transactions, the timeline writer
  ['rpc', 'llm', 'search'], // the dispatcher; the model gateway and context budget; the search engine over any table
  ['conversation', 'jobs'], // messages, branches, attachments' text; the job queue
  ['embedding', 'settings'],
  ['models', 'memory'],
  ['extraction', 'review', 'timeline'],
  ['profile', 'episodes', 'threads', 'focus'],
  ['chat', 'backup'],
  ['mcp'],
];
const coreFolderBlocks = coreLayers.flatMap((row, rank) =>
  row.map((folder) => {
    const notBelow = coreLayers.slice(rank).flat().filter((f) => f !== folder);
    const message = `electron/core/${folder}/ imports only the core folders ranked below it (coreLayers in eslint.config.js), never ${notBelow.join(', ')} or the composition root.`;
    // "../<folder>/…" of a folder not below, or "../<file>": a file of electron/core/ itself.
    const upward = { regex: `^\\.\\./(${[...notBelow, '[^/]+$'].join('|')})(/|$)`, message };
    return { files: [`electron/core/${folder}/**/*.ts`], rules: restrict(...coreRuntime, [rawIpc], [upward]) };
  }),
);
const mainHost = [['**/server/**', '**/cli/**', '**/renderer/**', 'react'], 'The Electron host uses the core and shared/, never another host or the renderer.'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'drizzle/**', '.tmp-*/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-restricted-imports': ['error', { paths: [rawIpc] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict([...nodeBuiltins, 'electron', 'electron/**', 'react', '**/electron/**', '**/renderer/**', 'better-sqlite3', 'ws'], 'shared/ runs in every process: plain TypeScript and zod only.'),
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: restrict(...coreRuntime),
  },
  // After the block above: for a file in a core folder, its block is the last that matches, so it repeats coreRuntime.
  ...coreFolderBlocks,
  {
    files: ['electron/server/**/*.ts', 'electron/cli/**/*.ts'],
    rules: restrict(['electron', 'electron/**', '**/main/**', '**/preload/**', '**/renderer/**', 'react'], 'Hosts other than Electron never import Electron, another host, or the renderer.'),
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: restrict([...nodeBuiltins, '**/core/**', '**/main/**', '**/server/**', '**/cli/**', '**/renderer/**', 'better-sqlite3'], 'The preload exposes the contract only: it imports electron and shared/, nothing else.', []),
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: restrict(...mainHost),
  },
  {
    files: ['electron/main/ipc-adapter.electron.ts'],
    rules: restrict(...mainHost, []),
  },
  // The renderer by feature (docs/ARCHITECTURE.md "The renderer"). The last matching block wins, so each one repeats
  // the page's base rule (rendererBase) and adds its own.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: rendererRule([rpcClient, otherFeatureComponents]),
  },
  {
    files: ['renderer/src/**/*.store.ts', 'renderer/src/**/*.queries.ts'],
    rules: rendererRule([otherFeatureComponents]),
  },
  {
    files: ['renderer/src/{ui,i18n,format,markdown,attachments}/**/*.{ts,tsx}'],
    rules: rendererRule([rpcClient, leafImports]),
  },
  {
    files: ['renderer/src/app/**/*.{ts,tsx}'],
    rules: rendererRule([rpcClient]),
  },
  {
    // The composition root and the two files it wires the client with.
    files: ['renderer/src/main.tsx', 'renderer/src/app/rpc-client.ts', 'renderer/src/app/init-stores.ts'],
    rules: rendererRule([]),
  },
  {
    files: ['renderer/src/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...clientInComponents] },
  },
  {
    files: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
