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

export const appOperations = {
  'app.info': operation('What is running, where its data lives, and the schema version.', Empty, AppInfo),
};
