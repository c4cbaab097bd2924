/**
 * A model download's progress as a step the user reads in the UI language. The model server reports it in its own
 * English words ("pulling manifest", "pulling 6a0746a1ec1a", "verifying sha256 digest", "writing manifest",
 * "success": Ollama's /api/pull); a word this renderer does not know reads as a generic step, never as it came.
 */
import type { MessageKey } from '../i18n/i18n';

export function pullStepKey(status: string): MessageKey {
  if (status === 'starting') return 'setup.pullStarting';
  if (status === 'pulling manifest') return 'setup.pullStep.manifest';
  if (status.startsWith('pulling ')) return 'setup.pullStep.files';
  if (status.startsWith('verifying')) return 'setup.pullStep.verify';
  if (status.startsWith('writing')) return 'setup.pullStep.finish';
  if (status === 'success') return 'setup.pullStep.done';
  return 'setup.pullStep.other';
}
