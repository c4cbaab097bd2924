/** Which Ollama address is in use and where it comes from: the setting, then OLLAMA_HOST, then the default. */
import { describe, expect, it } from 'vitest';
import { ollamaHostInUse } from '../../electron/core/llm/llm-provider';

describe('Ollama address in use', () => {
  it('names the source that won, with the address as Mnemo uses it', () => {
    expect(ollamaHostInUse('http://10.0.0.2:11434', { OLLAMA_HOST: 'http://127.0.0.1:9999' })).toEqual({ url: 'http://10.0.0.2:11434', source: 'settings' });
    expect(ollamaHostInUse('', { OLLAMA_HOST: '127.0.0.1:9999' })).toEqual({ url: 'http://127.0.0.1:9999', source: 'environment' });
    expect(ollamaHostInUse('', {})).toEqual({ url: 'http://127.0.0.1:11434', source: 'default' });
  });
});
