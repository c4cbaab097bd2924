/**
 * `mnemo info`: where this Mnemo keeps its data and which model server it talks to, with where each choice came
 * from, so a person (or a bug report) can see at once which folder and server a command works on.
 * The SQLite and sqlite-vec versions are the libraries' own, asked of an in-memory connection (the user's database
 * is only opened the one way, by the core).
 */
import Database from 'better-sqlite3';
import { loadVec } from '../../core/db/open-database';
import { serverChoice } from '../../core/llm/llm-provider';
import { dataDirInUse, type DataDirSource } from '../../core/ports/paths.port';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import type { Paint } from '../terminal';

export interface InfoReport {
  version: string;
  dataDir: { path: string; source: DataDirSource };
  database: string;
  models: string;
  backups: string;
  logs: string;
  schemaVersion: string;
  versions: { mnemo: string; node: string; sqlite: string; sqliteVec: string };
  llm: { provider: 'ollama' | 'openai'; url: string; source: 'settings' | 'environment' | 'default'; apiKeySet: boolean };
}

function libraryVersions(vecExtensionPath: string | undefined): { sqlite: string; sqliteVec: string } {
  const probe = new Database(':memory:');
  try {
    loadVec(probe, vecExtensionPath);
    const row = probe.prepare('SELECT sqlite_version() AS sqlite, vec_version() AS vec').get() as { sqlite: string; vec: string };
    return { sqlite: row.sqlite, sqliteVec: row.vec.replace(/^v/, '') };
  } finally {
    probe.close();
  }
}

const SOURCE_WORDS = {
  option: 'from --data-dir',
  environment: 'from MNEMO_DATA_DIR',
  default: "the default: the desktop app's folder",
  'earlier default': 'where earlier versions kept it; the desktop app uses its own folder: move the data there, or set MNEMO_DATA_DIR',
  settings: 'from settings',
  ollamaEnvironment: 'from OLLAMA_HOST',
  llmDefault: 'the default',
} as const;

export function formatInfo(r: InfoReport, p: Paint): string {
  const row = (label: string, value: string, note = '') => `${p.bold(label.padEnd(15))}${value}${note ? `  ${p.dim(`(${note})`)}` : ''}`;
  const server = r.llm.provider === 'ollama' ? 'Ollama' : 'OpenAI-compatible';
  const llmSource = r.llm.source === 'settings' ? SOURCE_WORDS.settings : r.llm.source === 'environment' ? SOURCE_WORDS.ollamaEnvironment : SOURCE_WORDS.llmDefault;
  return [
    row('Mnemo', r.version),
    row('data folder', r.dataDir.path, SOURCE_WORDS[r.dataDir.source]),
    row('database', r.database),
    row('models', r.models),
    row('backups', r.backups),
    row('logs', r.logs),
    row('schema', r.schemaVersion),
    row('versions', `Node ${r.versions.node}, SQLite ${r.versions.sqlite}, sqlite-vec ${r.versions.sqliteVec}`),
    row('model server', `${server} at ${r.llm.url}`, r.llm.provider === 'openai' ? `${llmSource}; API key ${r.llm.apiKeySet ? 'set' : 'not set'}` : llmSource),
  ].join('\n');
}

async function info(ctx: CliContext): Promise<CliOutput> {
  const env = ctx.io.env;
  const [app, settings] = await Promise.all([ctx.client.call('app.info', {}), ctx.client.call('settings.get', {})]);
  if (!app.ok) return app;
  if (!settings.ok) return settings;
  const s = settings.value;
  const paths = ctx.core.paths;
  const server = serverChoice(s, env);
  const llm: InfoReport['llm'] = { provider: server.api, url: server.url ?? server.written, source: server.source, apiKeySet: s.openaiApiKeySet };
  const report: InfoReport = {
    version: app.value.version,
    dataDir: { path: paths.dataDir, source: dataDirInUse(ctx.flags['data-dir'], env).source },
    database: paths.dbFile,
    models: paths.modelsDir,
    backups: paths.backupsDir,
    logs: paths.logsDir,
    schemaVersion: app.value.schemaVersion,
    versions: { mnemo: app.value.version, node: process.versions.node, ...libraryVersions(paths.vecExtensionPath) },
    llm,
  };
  return { ok: true, value: report, text: formatInfo(report, ctx.paint) };
}

export const infoCommands: CliCommand[] = [
  {
    words: ['info'],
    synopsis: 'info                     data folder, database, models and backups paths, versions, the model server in use',
    run: (ctx) => info(ctx),
  },
];
