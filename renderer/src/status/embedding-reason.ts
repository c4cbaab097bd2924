/**
 * Why semantic search is off, as one sentence saying what the user can do, in the UI's language: chosen by the
 * status's reason code, with its params. The core's English message (which names files, folders and commands) is for
 * the CLI and for the technical details folded under the sentence. The "ollama" embedding provider means the chat's
 * model server: Ollama, or an OpenAI-compatible one (`server`).
 * Where the embedding model is chosen is said by `{where}`: "in Settings" everywhere but inside Settings, where the
 * sentence sits just under that choice and says "above" (a user already in Settings is not sent there).
 */
import type { EmbeddingStatus } from '../../../shared/contract';
import type { MessageKey, Params } from '../i18n/i18n';

/** Where the sentence is shown: beside the embedding model's field in Settings, or anywhere else. */
export type ReasonPlace = 'settings' | 'elsewhere';

export function embeddingOffSentence(
  status: Pick<EmbeddingStatus, 'reason' | 'provider' | 'reasonParams'>,
  server: boolean,
  place: ReasonPlace,
  t: (key: MessageKey, params?: Params) => string,
): { key: MessageKey; params: Params } {
  const params: Params = { model: status.reasonParams.model ?? '', where: t(place === 'settings' ? 'semantic.where.above' : 'semantic.where.settings') };
  const key = ((): MessageKey => {
    switch (status.reason) {
      case 'no_embedder':
        return 'semantic.reason.noEmbedder';
      case 'model_missing':
        if (status.provider !== 'ollama') return 'semantic.reason.notDownloaded';
        return server ? 'semantic.reason.serverModelMissing' : 'semantic.reason.ollamaModelMissing';
      case 'server_unreachable':
        return 'semantic.reason.serverUnreachable';
      case 'ollama_unreachable':
        return server ? 'semantic.reason.serverUnreachable' : 'semantic.reason.ollamaUnreachable';
      case 'not_embedding_model':
        return 'semantic.reason.notEmbeddingModel';
      case 'download_failed':
        return 'semantic.reason.downloadFailed';
      case 'invalid_model':
        return 'semantic.reason.invalidModel';
      case 'invalid_hub':
        return 'semantic.reason.invalidHub';
      case 'worker_failed':
        return 'semantic.reason.workerFailed';
      case 'remote_unconfirmed':
        return 'semantic.reason.remoteUnconfirmed';
      default:
        return 'semantic.reason.other';
    }
  })();
  return { key, params };
}
