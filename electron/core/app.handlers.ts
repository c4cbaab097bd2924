/** `app.*` and `db.check`: what the running core is, and the state of its database file (db/database-check.ts reads it). */
import type { AppInfo, DbCheck } from '../../shared/contract';
import type { Paths } from './ports/paths.port';
import type { HandlersFor } from './rpc/dispatcher';

export function appHandlers(deps: {
  schemaVersion: string;
  checkDatabase: () => DbCheck;
  paths: Paths;
  host: AppInfo['host'];
  version: string;
}): HandlersFor<'app'> & Pick<HandlersFor<'db'>, 'db.check'> {
  return {
    'app.info': () => ({ name: 'Mnemo', version: deps.version, dataDir: deps.paths.dataDir, schemaVersion: deps.schemaVersion, host: deps.host }),
    'db.check': () => deps.checkDatabase(),
  };
}
