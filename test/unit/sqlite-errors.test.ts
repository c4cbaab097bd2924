import { describe, expect, it } from 'vitest';
import { sqliteFailure } from '../../electron/core/db/sqlite-errors';

const err = (code: string) => Object.assign(new Error('x'), { code });

describe('sqliteFailure', () => {
  it('names the failures a user can meet, with what to do', () => {
    expect(sqliteFailure(err('SQLITE_FULL'))).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringContaining('free some space') });
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']) expect(sqliteFailure(err(code))?.code).toBe('DB_BUSY');
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED']) expect(sqliteFailure(err(code))?.code).toBe('DB_READ_ONLY');
  });

  it('leaves everything else to the caller (an unexpected error)', () => {
    for (const e of [err('SQLITE_CONSTRAINT_UNIQUE'), err('SQLITE_CORRUPT'), err('ENOENT'), new Error('plain'), null, undefined, 'SQLITE_FULL', { code: 42 }]) {
      expect(sqliteFailure(e)).toBeNull();
    }
  });
});
