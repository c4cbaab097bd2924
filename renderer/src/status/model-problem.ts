/**
 * What stands between the user and a reply, if anything: a server on another machine the user has not confirmed
 * (Mnemo sent it nothing: OLLAMA_HOST pointing elsewhere, or an address stored by an older version), the server unreachable, no chat model at all, or the model
 * that would answer not installed. In a thread with its own model (thread.setModel), that model answers, so the
 * configured chat model being missing does not block the thread; a thread's model that is gone is the thread header's
 * to explain (ThreadModelPicker offers the choice), and here it falls back to the configured model's state.
 */
import type { OpOutput } from '../../../shared/contract';
import { sameModel } from '../../../shared/model-name';

type ModelsOverview = OpOutput<'models.list'>;

export type ModelProblem =
  | { kind: 'unconfirmed'; api: ModelsOverview['api']; address: string; fromEnvironment: boolean }
  | { kind: 'unreachable'; host: string; message: string | null }
  | { kind: 'no-models'; configured: string; version: string | null }
  | { kind: 'model-missing'; configured: string; installed: string[] };

export function modelProblem(models: ModelsOverview | null, threadModel: string | null = null): ModelProblem | null {
  if (!models) return null;
  if (models.remote && !models.remote.confirmed) {
    return { kind: 'unconfirmed', api: models.api, address: models.remote.address, fromEnvironment: models.api === 'ollama' && models.hostSource === 'environment' };
  }
  if (!models.reachable) return { kind: 'unreachable', host: models.host, message: models.error?.message ?? null };
  // An embedding-only model cannot answer: it is never offered as the chat model.
  const chat = models.models.filter((m) => m.chat);
  if (threadModel !== null && chat.some((m) => sameModel(m.name, threadModel))) return null;
  if (models.chatModel.installed) return null;
  if (chat.length === 0) return { kind: 'no-models', configured: models.chatModel.name, version: models.version };
  return { kind: 'model-missing', configured: models.chatModel.name, installed: chat.map((m) => m.name) };
}
