import { z } from 'zod';
import { Empty, operation } from './define';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  dataDir: z.string(),
  schemaVersion: z.string(),
  host: z.enum(['electron', 'web', 'cli', 'test']),
});
export type AppInfo = z.output<typeof AppInfo>;

export const DbCheck = z.object({
  path: z.string(),
  integrity: z.string(),
  journalMode: z.string(),
  synchronous: z.enum(['OFF', 'NORMAL', 'FULL', 'EXTRA']),
  foreignKeys: z.boolean(),
  secureDelete: z.boolean(),
  schemaVersion: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});
export type DbCheck = z.output<typeof DbCheck>;

export const appOperations = {
  'app.info': operation('What is running, where its data lives, and the schema version.', Empty, AppInfo),
  'db.check': operation('Runs integrity_check and reads back the pragmas that keep data safe.', Empty, DbCheck),
};
