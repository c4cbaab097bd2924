/** Entry of the database copier's worker thread (database-copy.ts): one copyDatabase, answered through worker-task.ts. */
import { serveWorkerTask } from '../runtime/worker-task';
import { copyDatabase } from './database-copy';

serveWorkerTask(copyDatabase);
