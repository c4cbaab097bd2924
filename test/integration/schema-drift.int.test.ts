/**
 * schema.ts and drizzle/ cannot drift apart: the schema the code declares must be exactly what the migrations build.
 * Runs the real drizzle-kit (the tool behind `npm run db:generate`) against a copy of drizzle/, so the repository is
 * never written: generating must find nothing to migrate, and `check` must find the snapshots consistent. A column
 * added to schema.ts without its migration fails here, before a user's database could lack it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceMigrationsDir } from '../../electron/core/db/open-database';
import { ROOT } from '../support/run-cli';

const DRIZZLE_KIT = path.join(ROOT, 'node_modules', 'drizzle-kit', 'bin.cjs');
const SCHEMA = path.join(ROOT, 'electron', 'core', 'db', 'schema.ts');
/** Two runs of a tool that bundles schema.ts first: seconds each on a loaded 2-core machine. A bound, not a measure. */
const DRIFT_TEST_TIMEOUT_MS = 120_000;

/**
 * drizzle-kit 0.31 reads `--out` as relative to the working directory (an absolute one gets "./" put in front, is not
 * found, and the run still exits 0), so paths are passed relative to the repository root it runs in.
 */
function drizzleKit(args: string[]): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [DRIZZLE_KIT, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: DRIFT_TEST_TIMEOUT_MS });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}\n${run.stderr}` };
}

const relative = (p: string) => path.relative(ROOT, p);

/** drizzle/ copied into `dir`; returns the copy's path. */
function copyOfMigrations(dir: string): string {
  const copy = path.join(dir, 'drizzle');
  fs.cpSync(sourceMigrationsDir(), copy, { recursive: true });
  return copy;
}

/** Every file under `dir` with its content, to compare a folder before and after a tool ran in it. */
function filesIn(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = fs.readFileSync(file, 'utf8');
  }
  return files;
}

function generate(schema: string, out: string) {
  return drizzleKit(['generate', '--dialect', 'sqlite', '--schema', relative(schema), '--out', relative(out)]);
}

describe('schema.ts and the migrations in drizzle/', { timeout: DRIFT_TEST_TIMEOUT_MS }, () => {
  // Inside the repository, not the system's temp folder: a changed schema.ts imports drizzle-orm from the repository's
  // node_modules, and a relative path stays one on every disk layout. `.scratch-*` is git-ignored.
  const made: string[] = [];
  const scratchDir = () => {
    const dir = fs.mkdtempSync(path.join(ROOT, '.scratch-schema-drift-'));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generating from schema.ts finds nothing the migrations lack, and the snapshots are consistent', () => {
    const out = copyOfMigrations(scratchDir());
    const before = filesIn(out);

    const generated = generate(SCHEMA, out);
    expect(generated.code, generated.output).toBe(0);
    // The tool's own words for "no difference": without them, a run that failed quietly would pass as no drift.
    expect(generated.output, 'schema.ts declares what no migration builds: run "npm run db:generate" and commit the migration').toContain(
      'No schema changes, nothing to migrate',
    );
    expect(filesIn(out)).toEqual(before);

    const checked = drizzleKit(['check', '--dialect', 'sqlite', '--out', relative(out)]);
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toContain("Everything's fine");
  });

  it('a column in schema.ts that no migration adds is caught as a new migration', () => {
    const dir = scratchDir();
    const out = copyOfMigrations(dir);
    const before = filesIn(out);
    const declaration = /sqliteTable\(\s*'settings',\s*\{\n/;
    const source = fs.readFileSync(SCHEMA, 'utf8');
    expect(source).toMatch(declaration);
    const changed = path.join(dir, 'schema.ts');
    fs.writeFileSync(changed, source.replace(declaration, (opening) => `${opening}    driftProbe: text('drift_probe'),\n`));

    const generated = generate(changed, out);
    expect(generated.code, generated.output).toBe(0);
    const added = Object.keys(filesIn(out)).filter((f) => !(f in before));
    const migration = added.find((f) => f.endsWith('.sql'));
    expect(migration, generated.output).toBeDefined();
    expect(fs.readFileSync(path.join(out, migration!), 'utf8')).toContain('ALTER TABLE `settings` ADD `drift_probe` text;');
  });
});
