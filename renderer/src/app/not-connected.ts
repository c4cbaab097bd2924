/** What a store's action answers before the client is handed to it (initStores): the one "not connected yet" result. */
import type { Result } from '../../../shared/errors';

export const notConnected: Result<never> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } };
