/**
 * The status bar's word on the model server and the chat model. Ollama is named only when the user chose Ollama: an
 * OpenAI-compatible server (llama.cpp, LM Studio, vLLM, ...) is "the model server", its address on hover. A server on
 * another machine is named in a word of its own, whatever its state: the user should never have to hover to learn that
 * their conversations leave the computer.
 */
import { machineOf } from '../../../shared/model-server-address';
import type { MessageKey, Params } from '../i18n/i18n';
import type { ServerApi } from './status-announcements';

export interface ModelServerView {
  api: ServerApi;
  reachable: boolean;
  version: string | null;
  chatModel: { name: string; installed: boolean };
}

/** `models`: the last models.list answer (null while the first check runs); `provider`: settings.llmProvider. */
export function modelServerLine(models: ModelServerView | null, provider: ServerApi, chatModel: string | null): { key: MessageKey; params?: Params } {
  const ollama = (models?.api ?? provider) === 'ollama';
  if (!models) return { key: ollama ? 'status.ollamaChecking' : 'status.serverChecking' };
  if (!models.reachable) return { key: ollama ? 'status.ollamaUnreachable' : 'status.serverUnreachable' };
  if (!models.chatModel.installed) return { key: 'status.modelMissing', params: { model: models.chatModel.name } };
  const model = chatModel ?? models.chatModel.name;
  return ollama ? { key: 'status.ollamaReady', params: { version: models.version ?? '?', model } } : { key: 'status.serverReady', params: { model } };
}

/** The status bar's word on a server on another machine ("Model server: 192.168.1.20 (another machine)"), or null. */
export function remoteServerLine(remote: { address: string; confirmed: boolean } | null | undefined): { key: MessageKey; params: Params } | null {
  if (!remote) return null;
  return { key: remote.confirmed ? 'status.remoteServer' : 'status.remoteUnconfirmed', params: { machine: machineOf(remote.address) } };
}
