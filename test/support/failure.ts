import { expect } from 'vitest';
import { MnemoError } from '../../shared/errors';

/** The MnemoError `promise` rejects with; the test fails if it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<MnemoError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MnemoError);
  return err as MnemoError;
}
