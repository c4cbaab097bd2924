import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canChat, parameterBillions, pickChatModel, type ModelCandidate } from '../../electron/core/models/chat-model-pick';

/** Models as a current Ollama describes them (tags + /api/show). */
function model(name: string, over: Partial<ModelCandidate> = {}): ModelCandidate {
  return { name, family: 'llama', parameterSize: '3.2B', modifiedAt: '2025-01-01T00:00:00Z', capabilities: ['completion'], ...over };
}
const embed = (name: string, over: Partial<ModelCandidate> = {}) => model(name, { family: 'nomic-bert', parameterSize: '137M', capabilities: ['embedding'], ...over });
/** The same model as an Ollama before 0.6.4 describes it: no capabilities. */
const old = (m: ModelCandidate): ModelCandidate => ({ ...m, capabilities: null });

describe('canChat', () => {
  it('follows the capabilities Ollama reports: "completion" chats, an embedding-only model does not', () => {
    expect(canChat(model('qwen3:4b', { family: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] }))).toBe(true);
    expect(canChat(embed('nomic-embed-text:latest'))).toBe(false);
    // Reported capabilities win over the name: a new embedding model of a chat family, and an oddly named chat model.
    expect(canChat(model('embeddinggemma:300m', { family: 'gemma3', capabilities: ['embedding'] }))).toBe(false);
    expect(canChat(model('qwen3-embedding:0.6b', { family: 'qwen3', capabilities: ['embedding'] }))).toBe(false);
    expect(canChat(model('my-embed-chat:latest', { capabilities: ['completion'] }))).toBe(true);
    // An image generator is not a chat model either.
    expect(canChat(model('x/flux2-klein:4b', { capabilities: ['image'] }))).toBe(false);
  });

  it('without capabilities (Ollama before 0.6.4), tells embedding models by family and name', () => {
    for (const m of [
      embed('nomic-embed-text:latest'),
      embed('mxbai-embed-large:latest', { family: 'bert' }),
      embed('all-minilm:latest', { family: 'bert' }),
      embed('bge-m3:latest', { family: 'bert' }),
      embed('snowflake-arctic-embed:latest', { family: 'bert' }),
      embed('paraphrase-multilingual:latest', { family: 'bert' }),
      embed('jina/jina-embeddings-v2-base-en:latest', { family: 'jina-bert-v2' }),
      embed('bge-large:335m', { family: null }),
      embed('someone/e5-large:latest', { family: null }),
      embed('custom:latest', { family: 'xlm-roberta' }),
    ]) {
      expect(canChat(old(m)), m.name).toBe(false);
    }
    for (const m of [
      model('llama3.2:latest'),
      model('qwen3:4b', { family: 'qwen3' }),
      model('gemma3:4b', { family: 'gemma3' }),
      model('mistral:7b'),
      model('someone/my-finetune:q4', { family: null }),
      model('llava:7b', { parameterSize: '7B' }),
    ]) {
      expect(canChat(old(m)), m.name).toBe(true);
    }
  });
});

describe('parameterBillions', () => {
  it('reads the sizes Ollama reports', () => {
    expect(parameterBillions('3.2B')).toBeCloseTo(3.2);
    expect(parameterBillions('137M')).toBeCloseTo(0.137);
    expect(parameterBillions('566.70M')).toBeCloseTo(0.5667);
    expect(parameterBillions('70.6B')).toBeCloseTo(70.6);
    expect(parameterBillions('1.5T')).toBe(1500);
    expect(parameterBillions(null)).toBeNull();
    expect(parameterBillions('')).toBeNull();
    expect(parameterBillions('unknown')).toBeNull();
  });
});

describe('pickChatModel', () => {
  it('never picks an embedding-only model: with only those installed there is nothing to pick', () => {
    expect(pickChatModel([])).toBeNull();
    expect(pickChatModel([embed('nomic-embed-text:latest'), embed('bge-m3:latest', { family: 'bert', parameterSize: '566.70M' })])).toBeNull();
    expect(pickChatModel([embed('nomic-embed-text:latest'), model('qwen3:4b', { family: 'qwen3' })])).toBe('qwen3:4b');
    // Also when Ollama is too old to say.
    expect(pickChatModel([old(embed('nomic-embed-text:latest')), old(model('qwen3:4b', { family: 'qwen3' }))])).toBe('qwen3:4b');
  });

  it('prefers a laptop size (1–14B), then a size it does not know, then one too small or too large', () => {
    const big = model('llama3.3:70b', { parameterSize: '70.6B', modifiedAt: '2025-06-01T00:00:00Z' });
    const tiny = model('gemma3:270m', { family: 'gemma3', parameterSize: '268.10M', modifiedAt: '2025-06-01T00:00:00Z' });
    const unknown = model('mystery:latest', { parameterSize: null, modifiedAt: '2025-06-01T00:00:00Z' });
    const fits = model('qwen3:4b', { family: 'qwen3', parameterSize: '4.0B', modifiedAt: '2024-01-01T00:00:00Z' });
    expect(pickChatModel([big, tiny, unknown, fits])).toBe('qwen3:4b');
    expect(pickChatModel([big, tiny, unknown])).toBe('mystery:latest');
    expect(pickChatModel([big, tiny])).toBe('gemma3:270m'); // same rank: the name decides
  });

  it('prefers a general chat family over others and over code-completion models, then the most recently modified', () => {
    const coder = model('qwen2.5-coder:7b', { family: 'qwen2', parameterSize: '7.6B', capabilities: ['completion', 'tools', 'insert'], modifiedAt: '2025-09-01T00:00:00Z' });
    const exotic = model('someone/roleplay:8b', { family: 'exotic', parameterSize: '8.0B', modifiedAt: '2025-09-01T00:00:00Z' });
    const llama = model('llama3.2:latest', { modifiedAt: '2025-01-01T00:00:00Z' });
    const gemma = model('gemma3:4b', { family: 'gemma3', parameterSize: '4.3B', modifiedAt: '2025-03-01T00:00:00Z' });
    expect(pickChatModel([coder, exotic, llama, gemma])).toBe('gemma3:4b');
    expect(pickChatModel([coder, exotic, llama])).toBe('llama3.2:latest');
    expect(pickChatModel([coder, exotic])).toBe('qwen2.5-coder:7b'); // same rank and time: the name decides
  });

  it('a model without a modification time comes after those with one', () => {
    expect(pickChatModel([model('a:latest', { modifiedAt: null }), model('b:latest', { modifiedAt: '2020-01-01T00:00:00Z' })])).toBe('b:latest');
  });

  const candidates = fc.uniqueArray(
    fc.record({
      name: fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}:[a-z0-9.]{1,6}$/),
      family: fc.option(fc.constantFrom('llama', 'qwen3', 'gemma3', 'bert', 'nomic-bert', 'exotic'), { nil: null }),
      parameterSize: fc.option(fc.constantFrom('137M', '268M', '1.5B', '3.2B', '4.0B', '8.0B', '14B', '32B', '70.6B'), { nil: null }),
      modifiedAt: fc.option(fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }).map((t) => new Date(t).toISOString()), { nil: null }),
      capabilities: fc.option(fc.subarray(['completion', 'tools', 'thinking', 'insert', 'vision', 'embedding']), { nil: null }),
    }),
    { maxLength: 8, selector: (m) => m.name },
  );

  it('property: the pick does not depend on the order Ollama lists models in, and is a chat-capable installed model', () => {
    const listings = candidates.chain((models) => fc.tuple(fc.constant(models), fc.shuffledSubarray(models, { minLength: models.length })));
    fc.assert(
      fc.property(listings, ([models, shuffled]) => {
        const pick = pickChatModel(models);
        expect(pickChatModel(shuffled)).toBe(pick);
        if (pick === null) expect(models.some(canChat)).toBe(false);
        else expect(canChat(models.find((m) => m.name === pick)!)).toBe(true);
      }),
    );
  });
});
