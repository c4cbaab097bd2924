/**
 * The one contract between the core and every host and client. Add an operation here (in its domain file) and the
 * IPC handlers, the preload allow-list, the web routes and the renderer client pick it up; nothing is listed twice.
 */
import type { z } from 'zod';
import type { Result } from '../errors';
import { appOperations } from './app.contract';
import { chatEvents, chatOperations } from './chat.contract';
import { dbEvents, dbOperations } from './db.contract';
import type { OperationSpec } from './define';
import { embeddingEvents, embeddingOperations } from './embedding.contract';
import { episodeEvents, episodeOperations } from './episode.contract';
import { focusEvents, focusOperations } from './focus.contract';
import { mcpEvents, mcpOperations } from './mcp.contract';
import { memoryEvents, memoryOperations } from './memory.contract';
import { modelsEvents, modelsOperations } from './models.contract';
import { profileEvents, profileOperations } from './profile.contract';
import { queueEvents, queueOperations } from './queue.contract';
import { reviewEvents, reviewOperations } from './review.contract';
import { settingsEvents, settingsOperations } from './settings.contract';
import { summaryEvents, summaryOperations } from './summary.contract';
import { threadEvents, threadOperations } from './thread.contract';
import { timelineOperations } from './timeline.contract';

export const operations = {
  ...appOperations,
  ...settingsOperations,
  ...threadOperations,
  ...chatOperations,
  ...summaryOperations,
  ...dbOperations,
  ...modelsOperations,
  ...queueOperations,
  ...reviewOperations,
  ...timelineOperations,
  ...memoryOperations,
  ...profileOperations,
  ...episodeOperations,
  ...embeddingOperations,
  ...focusOperations,
  ...mcpOperations,
} satisfies Record<string, OperationSpec>;

export const events = {
  ...settingsEvents,
  ...threadEvents,
  ...chatEvents,
  ...summaryEvents,
  ...dbEvents,
  ...modelsEvents,
  ...queueEvents,
  ...reviewEvents,
  ...memoryEvents,
  ...profileEvents,
  ...episodeEvents,
  ...embeddingEvents,
  ...focusEvents,
  ...mcpEvents,
} satisfies Record<string, z.ZodType>;

export type OperationName = keyof typeof operations;
export type EventName = keyof typeof events;

/** What a caller may send (defaults not yet applied). */
export type OpInput<N extends OperationName> = z.input<(typeof operations)[N]['input']>;
/** What a handler receives (validated, defaults applied). */
export type OpParsedInput<N extends OperationName> = z.output<(typeof operations)[N]['input']>;
export type OpOutput<N extends OperationName> = z.output<(typeof operations)[N]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export type EventMessage = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

export const operationNames = Object.keys(operations) as OperationName[];
export const eventNames = Object.keys(events) as EventName[];

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

/** A transport moves envelopes; it never throws for a failed operation. */
export interface Transport {
  invoke(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(listener: (message: EventMessage) => void): () => void;
}

export * from './app.contract';
export * from './chat.contract';
export * from './models.contract';
export * from './queue.contract';
export * from './review.contract';
export * from './timeline.contract';
export * from './define';
export * from './input-limits';
export * from './embedding.contract';
export * from './memory.contract';
export * from './settings.contract';
export * from './thread.contract';
export * from './profile.contract';
export * from './episode.contract';
export * from './db.contract';
export * from './summary.contract';
export * from './focus.contract';
export * from './mcp.contract';
