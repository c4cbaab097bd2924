/**
 * What `npm ci` under the strict install-script policy gives (package.json allowScripts, .npmrc
 * strict-allow-scripts; README "Install scripts"): every dependency with an install script was reviewed, and the
 * install works with only better-sqlite3's script run. CI's install runs under the same .npmrc, so a CI run is the
 * fresh `npm ci`; these checks say which part broke.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/run-cli';

describe('an install with only the reviewed install scripts', () => {
  it('leaves no dependency’s install script unreviewed (a new one fails the strict install)', () => {
    // Asked where the install is: npm reads a symlinked node_modules (a worktree sharing one) as linked packages.
    const installedBy = path.dirname(fs.realpathSync(path.join(ROOT, 'node_modules')));
    const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: installedBy, encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('No packages with unreviewed install scripts.');
  });

  it('better-sqlite3 (its script builds it) opens a database, and sqlite-vec loads into it', () => {
    const db = new Database(':memory:');
    try {
      sqliteVec.load(db);
      expect(db.prepare('select vec_version() as v').get()).toEqual({ v: expect.stringMatching(/^v\d/) });
      expect(db.prepare("select vec_length('[1, 2, 3]') as n").get()).toEqual({ n: 3 });
    } finally {
      db.close();
    }
  });

  it('esbuild runs without its postinstall (denied): its platform package is an optional dependency', async () => {
    const esbuild = await import('esbuild');
    expect(esbuild.transformSync('const n: number = 1;', { loader: 'ts' }).code).toBe('const n = 1;\n');
  });

  it('onnxruntime-node runs on the CPU without its postinstall (denied: it would fetch CUDA libraries)', async () => {
    const ort = createRequire(import.meta.url)('onnxruntime-node') as { listSupportedBackends(): Array<{ name: string }> };
    expect(ort.listSupportedBackends().map((backend) => backend.name)).toContain('cpu');
  });
});
