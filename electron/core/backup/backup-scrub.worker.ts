/** Entry of the backup scrub's worker thread (backup-scrub.ts): one eraseFromBackups, answered through worker-task.ts. */
import { serveWorkerTask } from '../runtime/worker-task';
import { eraseFromBackups } from './backup-scrub';

serveWorkerTask(eraseFromBackups);
