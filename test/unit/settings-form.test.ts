import { describe, expect, it } from 'vitest';
import { Settings } from '../../shared/contract';
import { buildPatch, changesServer, confirmationValue, isDirty, remoteServer, validateDraft } from '../../renderer/src/settings/settings-form';
import { StorableSettings } from '../../shared/contract/settings.contract';

const defaults = Settings.parse({});

describe('settings form', () => {
  it('accepts the defaults (their shares add up to 1 within floating point)', () => {
    expect(validateDraft(defaults, {})).toMatchObject({ valid: true, budgetError: null });
  });

  it('explains ranges, whole numbers and a bad host next to the field', () => {
    const v = validateDraft(defaults, {
      'retrieval.limit': '2.5',
      'summary.minNewMessages': '1',
      'retrieval.recencyHalfLifeDays': '0',
      trashRetentionDays: 'abc',
      ollamaHost: 'ftp://host',
      chatModel: '  ',
    });
    expect(v.valid).toBe(false);
    expect(v.errors['retrieval.limit']?.key).toBe('settings.error.integer');
    expect(v.errors['summary.minNewMessages']).toEqual({ key: 'settings.error.range', params: { min: 2, max: 1000 } });
    expect(v.errors['retrieval.recencyHalfLifeDays']?.key).toBe('settings.error.rangeAbove');
    expect(v.errors.trashRetentionDays?.key).toBe('settings.error.number');
    expect(v.errors.ollamaHost?.key).toBe('settings.error.host');
    expect(v.errors.chatModel?.key).toBe('settings.error.required');
    expect(validateDraft(defaults, { ollamaHost: '' }).valid).toBe(true);
  });

  it('checks the episodes’ quiet time with the contract’s own range (Settings › Memory and the Episodes tab)', () => {
    expect(validateDraft(defaults, { episodeQuietMinutes: '0' }).errors.episodeQuietMinutes).toEqual({ key: 'settings.error.range', params: { min: 1, max: 10_080 } });
    expect(validateDraft(defaults, { episodeQuietMinutes: '45.5' }).errors.episodeQuietMinutes?.key).toBe('settings.error.integer');
    expect(buildPatch(defaults, { episodeQuietMinutes: '45' })).toEqual({ episodeQuietMinutes: 45 });
    for (const [value, ok] of [[0, false], [1, true], [10_080, true], [10_081, false]] as const) {
      expect(validateDraft(defaults, { episodeQuietMinutes: String(value) }).valid).toBe(ok);
      expect(Settings.safeParse({ episodeQuietMinutes: value }).success).toBe(ok);
    }
  });

  it('checks the context window with the contract’s own range', () => {
    expect(validateDraft(defaults, { contextWindowTokens: '1024' }).errors.contextWindowTokens).toEqual({ key: 'settings.error.range', params: { min: 2048, max: 1_048_576 } });
    expect(validateDraft(defaults, { contextWindowTokens: '8192.5' }).errors.contextWindowTokens?.key).toBe('settings.error.integer');
    expect(buildPatch(defaults, { contextWindowTokens: '16384' })).toEqual({ contextWindowTokens: 16384 });
    for (const [value, ok] of [[2047, false], [2048, true], [1_048_576, true], [1_048_577, false]] as const) {
      expect(validateDraft(defaults, { contextWindowTokens: String(value) }).valid).toBe(ok);
      expect(Settings.safeParse({ contextWindowTokens: value }).success).toBe(ok);
    }
  });

  it('refuses context shares that add up to more than 1, with the total', () => {
    const v = validateDraft(defaults, { 'budget.memories': '0.4' });
    expect(v.valid).toBe(false);
    expect(v.budgetError).toEqual({ key: 'settings.error.budget', params: { total: 1.25 } });
    expect(validateDraft(defaults, { 'budget.memories': '0.1' }).budgetTotal).toBeCloseTo(0.95);
  });

  it('has no total while a share is empty, negative or not a number: any figure would be made up', () => {
    for (const draft of [{ 'budget.memories': '' }, { 'budget.system': '-0.5' }, { 'budget.reply': 'x' }, { 'budget.memories': '', 'budget.system': '-0.5' }]) {
      const v = validateDraft(defaults, draft);
      expect(v.budgetTotal).toBeNull();
      expect(v.budgetError).toBeNull();
      expect(v.valid).toBe(false);
    }
  });

  it('sends a changed group whole, so its other members are not reset to defaults', () => {
    const current = Settings.parse({ retrieval: { similarityWeight: 0.5, limit: 20 } });
    const patch = buildPatch(current, { 'retrieval.limit': '8', memoryMode: 'ask', 'budget.reply': '0.2' });
    expect(patch).toEqual({ memoryMode: 'ask', retrieval: { ...current.retrieval, limit: 8 } });
    // The patch passes the contract and changes only what the user changed.
    const next = Settings.parse({ ...current, ...patch });
    expect(next.retrieval).toEqual({ ...current.retrieval, limit: 8 });
  });

  it('is dirty only when a value differs from what is stored', () => {
    expect(isDirty(defaults, { 'retrieval.limit': '12' })).toBe(false);
    expect(isDirty(defaults, { 'retrieval.limit': '12.0' })).toBe(false);
    expect(isDirty(defaults, { 'retrieval.limit': '13' })).toBe(true);
    expect(isDirty(defaults, { chatModel: 'llama3.2' })).toBe(false);
  });

  describe('the model server', () => {
    const openai = Settings.parse({ llmProvider: 'openai' });

    it('checks the base URL of an OpenAI-compatible server, and sends it as the contract stores it', () => {
      expect(validateDraft(openai, { openaiBaseUrl: '127.0.0.1:1234/v1' }).errors.openaiBaseUrl).toEqual({ key: 'settings.error.baseUrl' });
      expect(validateDraft(openai, { openaiBaseUrl: '' }).errors.openaiBaseUrl).toEqual({ key: 'settings.error.baseUrl' });
      expect(validateDraft(openai, { openaiBaseUrl: 'ftp://127.0.0.1/v1' }).errors.openaiBaseUrl).toEqual({ key: 'settings.error.baseUrl' });
      expect(buildPatch(openai, { openaiBaseUrl: ' http://127.0.0.1:8080/v1/ ' })).toEqual({ openaiBaseUrl: 'http://127.0.0.1:8080/v1' });
      // The default with a trailing slash is what is stored already.
      expect(isDirty(openai, { openaiBaseUrl: 'http://127.0.0.1:1234/v1/' })).toBe(false);
    });

    it('switches provider and base URL in one patch the contract accepts', () => {
      const draft = { llmProvider: 'openai', openaiBaseUrl: 'http://localhost:8080/v1' };
      expect(validateDraft(defaults, draft).valid).toBe(true);
      const patch = buildPatch(defaults, draft);
      expect(patch).toEqual({ llmProvider: 'openai', openaiBaseUrl: 'http://localhost:8080/v1' });
      expect(StorableSettings.safeParse({ ...defaults, ...patch }).success).toBe(true);
      expect(changesServer(defaults, draft)).toBe(true);
    });

    it('asks for a confirmation before a server on another machine, as the contract does, and not for one on this computer', () => {
      for (const url of ['http://127.0.0.1:1234/v1', 'http://localhost:1234/v1', 'http://[::1]:8080/v1', 'http://127.0.0.2/v1']) {
        expect(remoteServer(openai, { openaiBaseUrl: url }), url).toBeNull();
        expect(validateDraft(openai, { openaiBaseUrl: url }).valid, url).toBe(true);
      }
      const draft = { openaiBaseUrl: 'http://192.168.1.20:1234/v1' };
      expect(remoteServer(openai, draft)).toEqual({ address: 'http://192.168.1.20:1234', confirmed: false });
      const refused = validateDraft(openai, draft);
      expect(refused.valid).toBe(false);
      expect(refused.errors.openaiBaseUrl).toEqual({ key: 'settings.error.remoteUnconfirmed', params: { address: 'http://192.168.1.20:1234' } });
      // The contract refuses the same patch: the form says so before sending it.
      expect(StorableSettings.safeParse({ ...openai, ...buildPatch(openai, draft) }).success).toBe(false);

      // Ticking the confirmation stores that address; the patch then passes the contract.
      const confirmed = { ...draft, openaiRemoteConfirmed: confirmationValue(openai, draft, true) };
      expect(confirmed.openaiRemoteConfirmed).toBe('http://192.168.1.20:1234');
      expect(remoteServer(openai, confirmed)).toEqual({ address: 'http://192.168.1.20:1234', confirmed: true });
      expect(validateDraft(openai, confirmed).valid).toBe(true);
      expect(StorableSettings.safeParse({ ...openai, ...buildPatch(openai, confirmed) }).success).toBe(true);

      // Another path on the confirmed machine stays confirmed; another machine, or another port, does not.
      expect(validateDraft(openai, { ...confirmed, openaiBaseUrl: 'http://192.168.1.20:1234/api/v1' }).valid).toBe(true);
      expect(validateDraft(openai, { ...confirmed, openaiBaseUrl: 'http://192.168.1.21:1234/v1' }).errors.openaiBaseUrl?.key).toBe('settings.error.remoteUnconfirmed');
      expect(validateDraft(openai, { ...confirmed, openaiBaseUrl: 'http://192.168.1.20:8080/v1' }).errors.openaiBaseUrl?.key).toBe('settings.error.remoteUnconfirmed');
      // A confirmation goes only with the machine it confirms: replaced by a local address, nothing of it is stored.
      const local = { ...confirmed, openaiBaseUrl: 'http://127.0.0.1:1234/v1' };
      expect(buildPatch(openai, local)).toEqual({});
      expect(isDirty(openai, local)).toBe(false);
      // Unticking takes it back.
      expect(confirmationValue(openai, confirmed, false)).toBe('');
      expect(validateDraft(openai, { ...confirmed, openaiRemoteConfirmed: '' }).valid).toBe(false);
    });

    it('asks the same for an Ollama host on another machine (0.0.0.0 is this computer, as Ollama reads it)', () => {
      for (const host of ['', 'http://127.0.0.1:11434', 'http://0.0.0.0:11434', 'http://[::1]:11434']) {
        expect(remoteServer(defaults, { ollamaHost: host }), host).toBeNull();
        expect(validateDraft(defaults, { ollamaHost: host }).valid, host).toBe(true);
      }
      const draft = { ollamaHost: 'http://192.168.1.20:11434' };
      expect(validateDraft(defaults, draft).errors).toEqual({ ollamaHost: { key: 'settings.error.remoteUnconfirmed', params: { address: 'http://192.168.1.20:11434' } } });
      expect(StorableSettings.safeParse({ ...defaults, ...buildPatch(defaults, draft) }).success).toBe(false);
      const confirmed = { ...draft, ollamaRemoteConfirmed: confirmationValue(defaults, draft, true) };
      expect(buildPatch(defaults, confirmed)).toEqual({ ollamaHost: 'http://192.168.1.20:11434', ollamaRemoteConfirmed: 'http://192.168.1.20:11434' });
      expect(StorableSettings.safeParse({ ...defaults, ...buildPatch(defaults, confirmed) }).success).toBe(true);
      // The other server's confirmation is never sent with it.
      expect(buildPatch(defaults, { ...confirmed, openaiRemoteConfirmed: 'http://192.168.1.20:11434' })).not.toHaveProperty('openaiRemoteConfirmed');
    });

    it('refuses credentials, a query or a fragment in either address, pointing to the API key field', () => {
      expect(validateDraft(defaults, { ollamaHost: 'http://me:pw@127.0.0.1:11434' }).errors).toEqual({ ollamaHost: { key: 'settings.error.credentials' } });
      expect(validateDraft(openai, { openaiBaseUrl: 'http://127.0.0.1:1234/v1?key=1' }).errors).toEqual({ openaiBaseUrl: { key: 'settings.error.credentials' } });
      expect(validateDraft(openai, { openaiBaseUrl: 'http://127.0.0.1:1234/v1#k' }).valid).toBe(false);
    });

    it('neither checks nor sends the fields of the provider not chosen, and keeps them in the draft', () => {
      const draft = { llmProvider: 'openai', openaiBaseUrl: 'http://10.0.0.9:1234/v1', ollamaHost: 'not a url' };
      // Set to OpenAI-compatible: the Ollama host is left out; the remote base URL needs its confirmation.
      expect(validateDraft(defaults, draft).errors).toEqual({ openaiBaseUrl: { key: 'settings.error.remoteUnconfirmed', params: { address: 'http://10.0.0.9:1234' } } });
      // Back to Ollama: the base URL is left out, the Ollama host is checked.
      const back = { ...draft, llmProvider: 'ollama' };
      expect(validateDraft(defaults, back).errors).toEqual({ ollamaHost: { key: 'settings.error.host' } });
      expect(isDirty(defaults, { llmProvider: 'ollama', openaiBaseUrl: 'http://127.0.0.1:8080/v1' })).toBe(false);
      expect(buildPatch(defaults, { llmProvider: 'ollama', openaiBaseUrl: 'http://127.0.0.1:8080/v1', ollamaHost: 'http://127.0.0.1:9999' })).toEqual({ ollamaHost: 'http://127.0.0.1:9999' });
    });

    it('tells when the draft changes which server answers (the model lists are the saved server’s until then)', () => {
      expect(changesServer(defaults, {})).toBe(false);
      expect(changesServer(defaults, { chatModel: 'qwen3:4b' })).toBe(false);
      expect(changesServer(defaults, { ollamaHost: 'http://127.0.0.1:9999' })).toBe(true);
      expect(changesServer(defaults, { llmProvider: 'ollama' })).toBe(false);
      expect(changesServer(openai, { openaiBaseUrl: 'http://127.0.0.1:1234/v1/' })).toBe(false);
      expect(changesServer(openai, { openaiBaseUrl: 'http://127.0.0.1:8080/v1' })).toBe(true);
      // The other provider's fields do not count.
      expect(changesServer(openai, { ollamaHost: 'http://127.0.0.1:9999' })).toBe(false);
    });
  });
});
