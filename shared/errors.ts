/**
 * Error codes that cross the boundary between the core and its hosts.
 * Every failure a user can hit maps to one code and a message that says what happened and what to do.
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'UNKNOWN_OPERATION',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'DB_CORRUPT',
  /** The data folder or the database file cannot be written (read-only folder, file or disk); nothing was changed. */
  'DB_READ_ONLY',
  /** The file at the database's place is another program's SQLite database; it was left exactly as it was. */
  'DB_NOT_MNEMO',
  /** The database is missing or empty while the backups folder holds a good copy; nothing was created. */
  'DB_MISSING',
  'DB_MIGRATION_FAILED',
  /** A backup could not be written or did not verify (disk full, folder not writable). */
  'BACKUP_FAILED',
  /** The disk is full: the write was rolled back; retryable once space is freed. */
  'STORAGE_FULL',
  /** Another connection holds the database longer than the busy timeout; retryable. */
  'DB_BUSY',
  'OLLAMA_UNREACHABLE',
  /** The OpenAI-compatible model server (LM Studio, llama-server, ...) does not answer at the base URL in settings. */
  'LLM_UNREACHABLE',
  'MODEL_NOT_FOUND',
  'MODEL_LOAD_TIMEOUT',
  'LLM_STREAM_ERROR',
  'LLM_HTTP_ERROR',
  'LLM_BAD_OUTPUT',
  'EMBEDDER_UNAVAILABLE',
  'ABORTED',
  /** A background model request was stopped because the chat needs the model; its job goes back to the queue, attempt returned. */
  'PREEMPTED',
  'SHUTTING_DOWN',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** For INVALID_INPUT: the path of the offending field, e.g. "threadId" or "items.2.content". */
  path?: string;
  /** Machine-readable details safe to show (never the user's text). */
  details?: Record<string, unknown>;
}

/** The one error type the core throws internally; hosts turn it into an envelope, never rethrow it across. */
export class MnemoError extends Error {
  readonly code: ErrorCode;
  readonly path: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, opts: { path?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'MnemoError';
    this.code = code;
    this.path = opts.path;
    this.details = opts.details;
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, message: this.message };
    if (this.path !== undefined) info.path = this.path;
    if (this.details !== undefined) info.details = this.details;
    return info;
  }

  /** The error again from its info (e.g. posted back by a worker thread). */
  static fromInfo(info: ErrorInfo): MnemoError {
    return new MnemoError(info.code, info.message, {
      ...(info.path !== undefined ? { path: info.path } : {}),
      ...(info.details !== undefined ? { details: info.details } : {}),
    });
  }
}

export function isMnemoError(e: unknown): e is MnemoError {
  return e instanceof MnemoError;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };
