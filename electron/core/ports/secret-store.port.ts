/**
 * Secrets behind a port: today the OpenAI-compatible server's API key. A secret is never a setting, because settings
 * live in the database, and the database goes into backups and its settings into exports; a secret lives beside it
 * (file-secret-store.ts) and is read when a request needs it. Invariant: no implementation logs a secret or puts it in
 * an error message.
 */
export type SecretName = 'openaiApiKey';

export interface SecretStore {
  /** The secret, or null when none is kept (or the kept one cannot be read any more: then it must be set again). */
  get(name: SecretName): string | null;
  set(name: SecretName, value: string): void;
  delete(name: SecretName): void;
}

