/**
 * The embedding model follows the settings: when the user picks another embedding provider or model, the core switches
 * to it (the memories' vectors are refilled for it: memory/reembed-triggers.ts). The "ollama" embedding provider is
 * the chat server's, so it also changes when the chat server (llmProvider) changes. A failed switch is logged; the
 * embedding status (embedding.statusChanged) tells the user.
 */
import type { Settings } from '../../../shared/contract';
import type { EventBus } from '../runtime/event-bus';
import type { Logger } from '../ports/logger.port';
import type { EmbeddingService } from './embedding.service';

/** Whether a change of these settings keys (settings as they are now) calls for another embedding model. */
export function embeddingModelChanged(keys: readonly string[], now: Pick<Settings, 'embeddingProvider'>): boolean {
  if (now.embeddingProvider === 'ollama' && keys.includes('llmProvider')) return true;
  return keys.some((k) => k === 'embeddingProvider' || k === 'embeddingModel');
}

/** Switches the embedding model whenever the settings change it. */
export function followEmbeddingSettings(deps: {
  events: EventBus;
  settings: () => Settings;
  embedding: Pick<EmbeddingService, 'switchModel'>;
  logger: Logger;
}): void {
  deps.events.subscribe((m) => {
    if (m.event !== 'settings.changed') return;
    const now = deps.settings();
    if (!embeddingModelChanged(m.payload.keys, now)) return;
    deps.embedding.switchModel(now.embeddingProvider, now.embeddingModel).catch((e: unknown) => deps.logger.warn('embedding model switch failed', { error: (e as Error).message }));
  });
}
