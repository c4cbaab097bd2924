import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Data access lives in stores (issue 27 item 2): a file outside `*.store.ts`, `db/` and the composition root
// (create-core.ts, wire-*.ts) neither prepares SQL nor is handed the database (`Sqlite`, `db.sqlite`); services, jobs
// and handlers get stores. The files below may, each for the reason given; the lists fail when a file no longer needs
// its place, so they only shrink.
const core = path.resolve(import.meta.dirname, '../../electron/core');

/** Not stores by name, yet data access by nature. */
const JUSTIFIED: Record<string, string> = {
  'conversation/message-branches.ts': 'the branch rule is SQL (recursive path walks), prepared once in createMessageBranches, which stores build',
  'conversation/prompt-record-scrub.ts': 'a helper of stores: threads.store.ts and episode.store.ts call it inside their purge',
  'search/keyword-index.ts': 'the search engine over any table: a store hands it its table',
  'search/vector-index.ts': 'the search engine over any table: a store hands it its table',
  'search/bit-copy.ts': 'the search engine over any table: a store hands it its table',
};

/** Not converted yet: the memory side's table families (the stores-memory work), and the app's database facts. */
const NOT_YET_CONVERTED = [
  'app.handlers.ts',
  'backup/backup-derived.ts',
  'backup/backup-scrub.ts',
  'backup/backup.service.ts',
  'memory/consolidation-step.ts',
  'memory/memory-export.ts',
];

const PREPARES = /\.prepare\s*(<[^>]*>)?\s*\(/;
const HANDED_THE_DATABASE = /\bSqlite\b|\.sqlite\b/;

/** The code without its comments (a header may name `db.sqlite` to say why it is not used). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function coreFiles(dir = core): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return coreFiles(full);
    return e.name.endsWith('.ts') ? [path.relative(core, full).split(path.sep).join('/')] : [];
  });
}

const allowedByRole = (file: string) => file.endsWith('.store.ts') || file.startsWith('db/') || file === 'create-core.ts' || /^wire-[a-z-]+\.ts$/.test(file);

function dataAccess(file: string): string[] {
  const text = code(fs.readFileSync(path.join(core, file), 'utf8'));
  return [...(PREPARES.test(text) ? ['prepares SQL'] : []), ...(HANDED_THE_DATABASE.test(text) ? ['is handed the database'] : [])];
}

describe('stores: data access only in *.store.ts, db/ and the composition root', () => {
  const files = coreFiles();

  it('finds the core (the check cannot pass on an empty folder)', () => {
    expect(files).toContain('create-core.ts');
    expect(files.filter((f) => f.endsWith('.store.ts')).length).toBeGreaterThan(8);
  });

  it('no other file prepares SQL or is handed the database, except those listed', () => {
    const offenders = files
      .filter((f) => !allowedByRole(f) && !(f in JUSTIFIED) && !NOT_YET_CONVERTED.includes(f))
      .flatMap((f) => dataAccess(f).map((what) => `${f} ${what}: move its SQL into a store, or list it here with the reason`));
    expect(offenders).toEqual([]);
  });

  it('every listed file still needs its place (a converted file leaves the list)', () => {
    const stale = [...Object.keys(JUSTIFIED), ...NOT_YET_CONVERTED].filter((f) => !files.includes(f) || dataAccess(f).length === 0);
    expect(stale).toEqual([]);
  });

  it('the patterns see what they are meant to see', () => {
    expect(PREPARES.test("sqlite.prepare('SELECT 1')")).toBe(true);
    expect(PREPARES.test('sqlite.prepare<unknown[]>(sql)')).toBe(true);
    expect(HANDED_THE_DATABASE.test('deps: { sqlite: Sqlite }')).toBe(true);
    expect(HANDED_THE_DATABASE.test('createX(db.sqlite)')).toBe(true);
    expect(HANDED_THE_DATABASE.test("import { sqliteFailure } from '../db/sqlite-errors';")).toBe(false);
    expect(code('/** a header naming db.sqlite */\nconst a = 1;\n// and sqlite.prepare(x)')).not.toMatch(HANDED_THE_DATABASE);
  });
});
