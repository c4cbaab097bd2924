/**
 * Why semantic search is off, said where it is shown (renderer/src/status/embedding-reason.ts): elsewhere it sends the
 * user to Settings; inside Settings, beside the embedding model's field, it points at that field instead.
 */
import { describe, expect, it } from 'vitest';
import { EMBEDDING_OFF_REASONS } from '../../shared/contract/embedding.contract';
import { translate, type Language } from '../../renderer/src/i18n/i18n';
import { embeddingOffSentence, type ReasonPlace } from '../../renderer/src/status/embedding-reason';

function sentence(reason: (typeof EMBEDDING_OFF_REASONS)[number], provider: 'onnx' | 'ollama', place: ReasonPlace, language: Language): string {
  const t = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate(language, key, params);
  const { key, params } = embeddingOffSentence({ reason, provider, reasonParams: { model: 'nomic-embed-text' } }, false, place, t);
  return t(key, params);
}

describe('why semantic search is off, by where it is said', () => {
  // Said with a place to choose another model; the address to confirm is another section's, named as such.
  const choosing = EMBEDDING_OFF_REASONS.filter((r) => sentence(r, 'ollama', 'elsewhere', 'en').includes('in Settings') || sentence(r, 'onnx', 'elsewhere', 'en').includes('in Settings'));

  it('sends the user to Settings from anywhere else', () => {
    expect(choosing).toEqual(expect.arrayContaining(['no_embedder', 'model_missing', 'ollama_unreachable', 'not_embedding_model', 'invalid_model']));
    expect(sentence('model_missing', 'onnx', 'elsewhere', 'en')).toBe('The built-in embedding model is not downloaded yet: download it (it then runs on this computer), or choose another embedding model in Settings.');
    expect(sentence('model_missing', 'onnx', 'elsewhere', 'zh-CN')).toContain('或在设置中另选一个嵌入模型');
  });

  it('inside Settings, never sends the user where they already are, in either language', () => {
    for (const reason of choosing) {
      for (const provider of ['onnx', 'ollama'] as const) {
        expect(sentence(reason, provider, 'settings', 'en'), reason).not.toMatch(/in Settings/);
        expect(sentence(reason, provider, 'settings', 'zh-CN'), reason).not.toMatch(/在设置中/);
      }
    }
    expect(sentence('model_missing', 'onnx', 'settings', 'en')).toBe('The built-in embedding model is not downloaded yet: download it (it then runs on this computer), or choose another embedding model above.');
    expect(sentence('model_missing', 'onnx', 'settings', 'zh-CN')).toContain('或在上方另选一个嵌入模型');
  });
});
