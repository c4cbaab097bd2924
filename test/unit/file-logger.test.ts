import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger } from '../../electron/core/ports/logger.port';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-log-'));
  dirs.push(dir);
  return path.join(dir, 'logs', 'web.log');
};
const messages = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { message: string }).message);

describe('createFileLogger', () => {
  it('appends JSON lines at or above its level, creating its folder', () => {
    const file = tempFile();
    const log = createFileLogger(file, 'info');
    log.debug('not kept');
    log.info('started', { port: 1 });
    log.error('failed', { code: 'X' });
    expect(messages(file)).toEqual(['started', 'failed']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ level: 'info', message: 'started', port: 1 });
  });

  it('stays bounded: past the size it moves the file aside to .1 (one generation) and starts again', () => {
    const file = tempFile();
    const log = createFileLogger(file, 'info', 300);
    for (let i = 0; i < 20; i++) log.info(`entry ${i}`);
    expect(fs.statSync(file).size).toBeLessThanOrEqual(300);
    expect(fs.statSync(`${file}.1`).size).toBeLessThanOrEqual(300);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['web.log', 'web.log.1']);
    expect(messages(file).at(-1)).toBe('entry 19');
  });

  it('a log that cannot be written is dropped, never thrown at the caller', () => {
    const file = tempFile();
    fs.mkdirSync(file, { recursive: true }); // a folder where the file should be
    const log = createFileLogger(file, 'info');
    expect(() => log.warn('lost')).not.toThrow();
  });
});
