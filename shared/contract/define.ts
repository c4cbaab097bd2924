/**
 * Building blocks of the contract. An operation is declared once (input and output schemas); the Electron IPC
 * adapter, the preload allow-list, the web host routes and the renderer client are all derived from the registry.
 */
import { z } from 'zod';

export interface OperationSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  summary: string;
}

export function operation<I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): OperationSpec<I, O> {
  return { input, output, summary };
}

/** Ids are positive integers everywhere; hosts receive them as JSON numbers. */
export const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Milliseconds since the epoch, UTC. */
export const Timestamp = z.number().int().nonnegative();
export const Empty = z.object({}).strict();
export const Ok = z.object({ ok: z.literal(true) });
