import { describe, expect, it } from 'vitest';
import type { OpOutput } from '../../shared/contract';
import { modelProblem } from '../../renderer/src/status/model-problem';

type Overview = OpOutput<'models.list'>;
const model = (name: string, chat = true) => ({
  name, sizeBytes: 1, family: null, parameterSize: null, modifiedAt: null, contextLength: null, chat, embedding: !chat,
});
/** The server has qwen3:4b and an embedding model; the chat model in Settings (llama3.2) is not installed. */
const overview: Overview = {
  api: 'ollama', host: 'http://127.0.0.1:11434', hostSource: 'default', remote: null, reachable: true, version: '0.12.0', error: null,
  models: [model('qwen3:4b'), model('nomic-embed-text', false)],
  chatModel: { name: 'llama3.2', installed: false },
  backgroundModel: { name: 'llama3.2', installed: false },
};

describe('what stands between the user and a reply', () => {
  it('a missing chat model blocks a thread that uses the setting, and offers only chat models', () => {
    expect(modelProblem(overview)).toEqual({ kind: 'model-missing', configured: 'llama3.2', installed: ['qwen3:4b'] });
    expect(modelProblem(overview, null)).toEqual(modelProblem(overview));
  });

  it('a thread with its own installed model is not blocked by the setting (same-model rule: tag and case)', () => {
    expect(modelProblem(overview, 'qwen3:4b')).toBeNull();
    expect(modelProblem(overview, 'Qwen3:4B')).toBeNull();
    expect(modelProblem({ ...overview, models: [model('mistral:latest')] }, 'mistral')).toBeNull();
  });

  it("a thread's model that is gone, or is embedding-only, does not unblock it", () => {
    expect(modelProblem(overview, 'gemma3:1b')?.kind).toBe('model-missing');
    expect(modelProblem(overview, 'nomic-embed-text')?.kind).toBe('model-missing');
  });

  it('an unreachable server is a problem whatever the thread uses; no models at all says so', () => {
    const down = { ...overview, reachable: false, models: [], error: { code: 'LLM_UNAVAILABLE', message: 'Ollama is not running.' } };
    expect(modelProblem(down, 'qwen3:4b')).toEqual({ kind: 'unreachable', host: overview.host, message: 'Ollama is not running.' });
    expect(modelProblem({ ...overview, models: [model('nomic-embed-text', false)] }, 'qwen3:4b')?.kind).toBe('no-models');
    expect(modelProblem(null, 'qwen3:4b')).toBeNull();
  });

  it('a server on another machine not confirmed comes before anything else: Mnemo sent it nothing and asks first', () => {
    const remote = { ...overview, host: 'http://192.168.1.20:11434', hostSource: 'environment' as const, remote: { address: 'http://192.168.1.20:11434', confirmed: false }, reachable: false };
    expect(modelProblem(remote)).toEqual({ kind: 'unconfirmed', api: 'ollama', address: 'http://192.168.1.20:11434', fromEnvironment: true });
    expect(modelProblem({ ...remote, hostSource: 'settings' })).toMatchObject({ kind: 'unconfirmed', fromEnvironment: false });
    expect(modelProblem({ ...remote, remote: { address: 'http://192.168.1.20:11434', confirmed: true }, reachable: true })?.kind).toBe('model-missing');
  });
});
