/**
 * Turns a request (operation name + untrusted input) into an envelope. This is the boundary: input is validated
 * against the contract, errors become `{ok:false,error}`, and nothing thrown inside ever escapes to a host.
 */
import type { z } from 'zod';
import { isOperationName, operations, type OpOutput, type OpParsedInput, type OperationName } from '../../../shared/contract';
import { MnemoError, type Result } from '../../../shared/errors';
import { sqliteFailure } from '../db/sqlite-errors';
import type { Logger } from '../ports/logger.port';

export type Handlers = { [N in OperationName]: (input: OpParsedInput<N>) => Promise<OpOutput<N>> | OpOutput<N> };
/** The handlers of the operations named `<prefix>.*`: each domain provides its own (`*.handlers.ts`). */
export type HandlersFor<Prefix extends string> = Pick<Handlers, Extract<OperationName, `${Prefix}.${string}`>>;

export interface Dispatcher {
  call(name: string, input: unknown): Promise<Result<unknown>>;
}

export function createDispatcher(handlers: Handlers, logger: Logger, opts: { checkOutputs?: boolean } = {}): Dispatcher {
  return {
    async call(name, rawInput) {
      if (typeof name !== 'string' || !isOperationName(name)) {
        return fail(new MnemoError('UNKNOWN_OPERATION', `There is no operation named "${String(name).slice(0, 80)}".`));
      }
      const spec = operations[name];
      const parsed = spec.input.safeParse(rawInput === undefined ? {} : rawInput);
      if (!parsed.success) return fail(invalidInput(parsed.error));
      try {
        const handler = handlers[name] as (input: unknown) => unknown;
        const value = await handler(parsed.data);
        if (opts.checkOutputs) {
          const out = spec.output.safeParse(value);
          if (!out.success) {
            logger.error('operation returned a value outside its contract', { operation: name, issues: out.error.issues.length });
            return fail(new MnemoError('INTERNAL', `Mnemo produced an invalid answer for ${name}. Please report this.`));
          }
          return { ok: true, value: out.data };
        }
        return { ok: true, value };
      } catch (e) {
        if (e instanceof MnemoError) return fail(e);
        const known = sqliteFailure(e);
        if (known) {
          logger.warn('operation failed', { operation: name, code: known.code });
          return fail(known);
        }
        logger.error('operation failed unexpectedly', { operation: name, error: (e as Error)?.message ?? String(e) });
        return fail(new MnemoError('INTERNAL', `Something went wrong in ${name}. Your data is unchanged; please try again, and report it if it repeats.`));
      }
    },
  };
}

function fail(e: MnemoError): Result<never> {
  return { ok: false, error: e.toInfo() };
}

function invalidInput(error: z.ZodError): MnemoError {
  const issue = error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  const where = path ? ` at "${path}"` : '';
  return new MnemoError('INVALID_INPUT', `Invalid request${where}: ${issue?.message ?? 'malformed input'}.`, { path });
}
