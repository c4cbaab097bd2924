import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/temp-dir';

const RUN_STEPS = path.resolve(import.meta.dirname, '../../scripts/run-steps.mjs');

describe('npm test times its steps (scripts/run-steps.mjs)', () => {
  const tempDir = useTempDirs();

  function project(scripts: Record<string, string>): string {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'steps', private: true, scripts: { ...scripts, test: `node ${JSON.stringify(RUN_STEPS)} ${Object.keys(scripts).join(' ')}` } }));
    return dir;
  }

  it('runs each step in order and prints how long each took, then the total', () => {
    const dir = project({ first: 'node -e "console.log(\'one\')"', second: 'node -e "console.log(\'two\')"' });
    const run = spawnSync('npm', ['test', '-s'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout.indexOf('one')).toBeLessThan(run.stdout.indexOf('two'));
    expect(run.stdout).toMatch(/How long each step took:\n {2}first +\d+\.\d s\n {2}second +\d+\.\d s\n {2}total +\d+\.\d s/);
  });

  it('stops at the first failing step, with its exit code, and says what did not run', () => {
    const dir = project({ first: 'node -e "process.exit(3)"', second: 'node -e "console.log(\'two\')"' });
    const run = spawnSync('npm', ['test', '-s'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(3);
    expect(run.stdout).not.toContain('two\n');
    expect(run.stdout).toMatch(/first +\d+\.\d s {2}failed \(exit code 3\)/);
    expect(run.stdout).toMatch(/second +not run/);
  });
});
