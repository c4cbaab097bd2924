/**
 * The typed client every caller uses (renderer, CLI, tests), over any transport. It returns envelopes; it never
 * throws for a failed operation, so every caller has to look at `ok`.
 */
import type { EventName, EventPayload, OpInput, OpOutput, OperationName, Transport } from './contract';
import type { Result } from './errors';

export interface Client {
  call<N extends OperationName>(name: N, input: OpInput<N>): Promise<Result<OpOutput<N>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
}

export function createClient(transport: Transport): Client {
  return {
    call: (name, input) => transport.invoke(name, input) as Promise<Result<OpOutput<typeof name>>>,
    on: (event, listener) =>
      transport.subscribe((m) => {
        if (m.event === event) listener(m.payload as EventPayload<typeof event>);
      }),
    onAny: (listener) => transport.subscribe((m) => listener(m.event, m.payload)),
  };
}

/** For callers that prefer exceptions (CLI, tests): unwraps an envelope or throws an Error carrying its code. */
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new RemoteError(result.error.code, result.error.message, result.error.path);
}
