/** The model list shown in the UI is asked again whenever a setting changes what models.list would answer. */
import { describe, expect, it } from 'vitest';
import { Settings } from '../../shared/contract';
import { changesModels } from '../../renderer/src/status/status.store';

describe('settings that change the model list', () => {
  it.each([['llmProvider'], ['ollamaHost'], ['ollamaRemoteConfirmed'], ['openaiBaseUrl'], ['openaiRemoteConfirmed'], ['openaiApiKeySet'], ['chatModel'], ['backgroundModel']])('%s', (key) => {
    expect(changesModels([key])).toBe(true);
    expect(changesModels(['theme', key])).toBe(true);
  });

  it('not the others: asking the server again for a theme or a language would only cost', () => {
    const others = Object.keys(Settings.parse({})).filter((k) => !['llmProvider', 'ollamaHost', 'ollamaRemoteConfirmed', 'openaiBaseUrl', 'openaiRemoteConfirmed', 'chatModel', 'backgroundModel'].includes(k));
    expect(others).toContain('theme');
    for (const key of others) expect(changesModels([key]), key).toBe(false);
  });
});
