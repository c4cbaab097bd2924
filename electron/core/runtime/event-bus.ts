/**
 * The core's events, typed by the contract. Services emit; hosts subscribe and forward (IPC, WebSocket, in-process).
 * A failing listener is logged and never breaks the emitter or the other listeners.
 */
import type { EventMessage, EventName, EventPayload } from '../../../shared/contract';
import type { Logger } from '../ports/logger.port';

export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: (message: EventMessage) => void): () => void;
}

export function createEventBus(logger: Logger): EventBus {
  const listeners = new Set<(message: EventMessage) => void>();
  return {
    emit(event, payload) {
      const message = { event, payload } as EventMessage;
      for (const listener of [...listeners]) {
        try {
          listener(message);
        } catch (e) {
          logger.error('event listener failed', { event, error: (e as Error).message });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
