/**
 * Which request the fake model servers got: every chat request the core sends names its purpose ('chat', or the
 * background job that asks) in a header (electron/core/llm/llm-call.ts `purposeHeaders`), so fakes and tests answer
 * by purpose, never by a prompt's wording or its answer schema: a prompt can change without breaking other tests.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { PURPOSE_HEADER } from '../../electron/core/llm/llm-call';
import type { RequestPurpose } from '../../electron/core/llm/llm.port';

export type { RequestPurpose };

const PURPOSES: readonly RequestPurpose[] = ['chat', 'extract', 'focus', 'summary', 'title', 'episode', 'profile', 'consolidate'];

/** The purpose a request's header names; null for a request that names none (a test calling an adapter without one). */
export function requestPurpose(headers: IncomingHttpHeaders): RequestPurpose | null {
  const value = headers[PURPOSE_HEADER.toLowerCase()];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !(PURPOSES as readonly string[]).includes(value)) throw new Error(`unknown ${PURPOSE_HEADER}: ${String(value)}`);
  return value as RequestPurpose;
}

/** An exchange's learning: extraction and the working-memory update, the two requests each exchange queues. */
export function isLearning(purpose: RequestPurpose | null): boolean {
  return purpose === 'extract' || purpose === 'focus';
}
