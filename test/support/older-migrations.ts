import fs from 'node:fs';
import path from 'node:path';
import { sourceMigrationsDir } from '../../electron/core/db/open-database';

interface Journal {
  entries: Array<{ tag: string }>;
}

/** drizzle/'s journal: the migrations Mnemo ships, oldest first. */
export function migrationJournal(): Journal {
  return JSON.parse(fs.readFileSync(path.join(sourceMigrationsDir(), 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** A copy of drizzle/ in `dir` holding only the first `count` migrations: the schema an older Mnemo shipped. */
export function migrationsUpTo(dir: string, count: number): string {
  const source = sourceMigrationsDir();
  const journal = migrationJournal();
  const target = path.join(dir, `migrations-${count}`);
  fs.mkdirSync(path.join(target, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, count);
  for (const e of entries) fs.copyFileSync(path.join(source, `${e.tag}.sql`), path.join(target, `${e.tag}.sql`));
  fs.writeFileSync(path.join(target, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return target;
}
