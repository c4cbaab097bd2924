/**
 * A write transaction that can hold back effects (events for the renderer, wake-ups) until it has committed.
 *
 * Invariant: an effect registered inside the transaction runs only once the transaction has committed, and never if
 * it rolls back. Code that runs inside someone else's transaction (a job's commit) registers its events here instead
 * of emitting them, or scheduling them on a microtask: a microtask still runs after a rollback, announcing a write
 * that never happened.
 */
import { MnemoError } from '../../../shared/errors';
import type { Sqlite } from './open-database';

export interface AfterCommit {
  /** Runs `effect` after this transaction commits; dropped if it rolls back. Only during the transaction. */
  afterCommit(effect: () => void): void;
}

/**
 * Runs `body` in one BEGIN IMMEDIATE transaction, then the effects it registered, in order. An effect that throws
 * does not undo the committed write nor stop the next effect: it is handed to `onEffectError`.
 */
export function transactionWithEffects<T>(sqlite: Sqlite, body: (tx: AfterCommit) => T, onEffectError: (error: unknown) => void): T {
  // Nested, it would be a savepoint: its "commit" is not durable until the outer transaction's, which may still roll back.
  if (sqlite.inTransaction) throw new MnemoError('INTERNAL', 'A transaction with after-commit effects cannot run inside another transaction.');
  const effects: Array<() => void> = [];
  let open = true;
  const tx: AfterCommit = {
    afterCommit(effect) {
      if (!open) throw new MnemoError('INTERNAL', 'afterCommit was called after its transaction ended.');
      effects.push(effect);
    },
  };
  let result: T;
  try {
    result = sqlite.transaction(() => body(tx)).immediate();
  } finally {
    open = false;
  }
  for (const effect of effects) {
    try {
      effect();
    } catch (e) {
      onEffectError(e);
    }
  }
  return result;
}
