/**
 * The one way Mnemo writes more than one statement, or reads what it just wrote: `fn` runs in a BEGIN IMMEDIATE
 * transaction that commits when it returns and rolls back when it throws (its error passes through unchanged).
 *
 * Why IMMEDIATE: the write lock is taken at BEGIN, where busy_timeout applies, and what `fn` reads is then current. A
 * deferred transaction reads from the snapshot it began with; when another connection (the CLI, a second Mnemo)
 * commits before it writes, its write fails with SQLITE_BUSY_SNAPSHOT, which no waiting can cure
 * (test/reliability/db-busy.int.test.ts).
 *
 * Why a transaction even for one INSERT ... RETURNING: `.get()` reads the returned row and resets the statement, and
 * an autocommit's COMMIT happens in that reset, whose failure (a full disk) better-sqlite3 does not report. The
 * explicit COMMIT throws instead.
 *
 * Called inside another transaction, it becomes a savepoint of that one (better-sqlite3 nests them), so a helper can
 * use it whether or not its caller already holds a transaction.
 */
import type { Sqlite } from './open-database';

export function writeTransaction<T>(sqlite: Sqlite, fn: () => T): T {
  return sqlite.transaction(fn).immediate();
}
