import { describe, expect, it } from 'vitest';
import { chosen, missingDatabaseQuestion } from '../../electron/main/missing-database-dialog';

const iso = (at: number) => new Date(at).toISOString();
const missing = {
  code: 'DB_MISSING' as const,
  message: "Mnemo's database at /data/mnemo.db is missing, but ...",
  details: {
    state: 'missing',
    dataDir: '/data',
    backup: { name: 'mnemo-auto-2026-01-01T00-00-00-000Z.sqlite', path: '/data/backups/x', kind: 'automatic', createdAt: Date.UTC(2026, 0, 1), sizeBytes: 3_145_728, memories: 1, messages: 240 },
  },
};

describe('the desktop question for a missing database', () => {
  it('names the newest good backup, what it holds, and offers restore, start empty, or quit', () => {
    const q = missingDatabaseQuestion(missing, iso)!;
    expect(q.options).toMatchObject({ type: 'warning', message: "Mnemo's database is missing", buttons: ['Restore newest backup', 'Start empty', 'Quit'], defaultId: 0, cancelId: 2 });
    expect(q.options.detail).toContain('Its newest good backup is mnemo-auto-2026-01-01T00-00-00-000Z.sqlite, from 2026-01-01T00:00:00.000Z: 1 memory, 240 messages, 3.0 MB.');
    expect(q.options.detail).toContain('your backups stay as they are');
    expect(q.options.detail).toContain('Data folder: /data');
    expect([0, 1, 2].map((i) => chosen(q, i))).toEqual(['restore-newest', 'start-empty', 'quit']);
  });

  it('an empty (0-byte) database is called empty', () => {
    expect(missingDatabaseQuestion({ ...missing, details: { ...missing.details, state: 'empty' } }, iso)!.options.message).toBe("Mnemo's database is empty");
  });

  it('a box closed some other way quits, which changes nothing', () => {
    const q = missingDatabaseQuestion(missing, iso)!;
    expect(chosen(q, -1)).toBe('quit');
    expect(chosen(q, 7)).toBe('quit');
  });

  it('without readable details it still asks, showing the core\'s own message', () => {
    const q = missingDatabaseQuestion({ code: 'DB_MISSING', message: 'The core says what happened.', details: { backup: { name: 'x', createdAt: -1 } } }, iso)!;
    expect(q.options.detail).toBe('The core says what happened.');
  });

  it('any other start failure is not this question', () => {
    for (const code of ['DB_CORRUPT', 'DB_READ_ONLY', 'DB_NOT_MNEMO', 'INTERNAL'] as const) expect(missingDatabaseQuestion({ code, message: 'm' }, iso)).toBeNull();
  });
});
