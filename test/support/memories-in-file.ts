import Database from 'better-sqlite3';

/** The contents of every memory row in a database file (any status), sorted: what a backup or a copy holds. */
export function memoriesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT content FROM memories ORDER BY content').all() as Array<{ content: string }>).map((r) => r.content);
  } finally {
    db.close();
  }
}
