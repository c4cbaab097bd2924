import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/temp-dir';

const ROOT = path.resolve(import.meta.dirname, '../..');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('terminal host', () => {
  const tempDir = useTempDirs();

  it('db check --json prints integrity, journal mode, synchronous, foreign keys and the schema version', () => {
    const dir = tempDir();
    const r = cli(['db', 'check', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      integrity: 'ok',
      journalMode: 'wal',
      synchronous: 'FULL',
      foreignKeys: true,
      schemaVersion: expect.stringMatching(/^\d{4}_/),
      path: path.join(dir, 'mnemo.db'),
    });
  });

  it('takes the data folder from MNEMO_DATA_DIR', () => {
    const dir = tempDir();
    const r = cli(['db', 'check'], { MNEMO_DATA_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/integrity\s+ok/);
    expect(fs.existsSync(path.join(dir, 'mnemo.db'))).toBe(true);
  });

  it('a corrupt database: exit 1 with one line that says what to do, file untouched', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    fs.writeFileSync(file, 'not a database at all, but precious'.repeat(200));
    const before = fs.readFileSync(file);
    const r = cli(['db', 'check', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read its database .* Restore a backup/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('usage errors exit 2', () => {
    expect(cli(['no', 'such', '--data-dir', tempDir()]).code).toBe(2);
    expect(cli(['db', 'check', '--data-dir']).code).toBe(2);
  });
});
