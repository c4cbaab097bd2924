/** Entry of the database copier's worker thread (database-copy.ts): one copyDatabase, answered through worker-task.ts. */
import { serveWorkerTask } from '../worker-task';
import { copyDatabase } from './database-copy';

serveWorkerTask(copyDatabase);
