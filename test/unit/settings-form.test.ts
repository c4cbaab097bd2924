import { describe, expect, it } from 'vitest';
import { Settings } from '../../shared/contract';
import { buildPatch, isDirty, validateDraft } from '../../renderer/src/settings/settings-form';

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
});
