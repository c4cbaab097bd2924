/**
 * The one settings form model (renderer/src/settings/settings.store.ts): the draft, its validation by the contract's
 * schema, one settings.update for a save, the core's refusal kept for the form, and each instant setting's refusal
 * kept beside it. The core is a fake client that answers settings.update as the contract would (or refuses).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Settings, type OpInput } from '../../shared/contract';
import type { Client } from '../../shared/client';
import type { ErrorInfo } from '../../shared/errors';
import { fieldOf, isNumberPath, validateDraft, type NumberPath } from '../../renderer/src/settings/settings-form';
import { useSettingsStore } from '../../renderer/src/settings/settings.store';

const stored = { ...Settings.parse({}), openaiApiKeySet: false };
type Update = OpInput<'settings.update'>;

/** A client whose settings.update answers with the patch applied, or with `refusal` when one is set. */
function fakeCore(refusal: ErrorInfo | null = null) {
  const updates: Update[] = [];
  const client = {
    on: () => () => {},
    call: async (name: string, input: unknown) => {
      if (name === 'settings.get') return { ok: true, value: stored };
      if (name !== 'settings.update') throw new Error(`unexpected ${name}`);
      updates.push(input as Update);
      return refusal ? { ok: false, error: refusal } : { ok: true, value: { ...stored, ...((input as Update).patch as object) } };
    },
  } as unknown as Client;
  return { client, updates };
}

async function start(refusal: ErrorInfo | null = null) {
  const core = fakeCore(refusal);
  useSettingsStore.setState({ settings: null, draft: {}, save: { kind: 'idle' }, instantErrors: {} });
  await useSettingsStore.getState().init(core.client);
  return core;
}

const store = () => useSettingsStore.getState();

describe('the settings form model', () => {
  beforeEach(() => useSettingsStore.setState({ client: null }));

  it('sends nothing for a draft the contract refuses, and says why at the field', async () => {
    const { updates } = await start();
    store().edit('retrieval.limit', '1000');
    await store().submit();
    expect(updates).toEqual([]);
    expect(validateDraft(store().settings!, store().draft).errors['retrieval.limit']).toEqual({ key: 'settings.error.range', params: { min: 1, max: 100 } });
    expect(store().save).toEqual({ kind: 'idle' });
  });

  it('saves a valid draft as one settings.update (a group sent whole), then clears the draft and says saved', async () => {
    const { updates } = await start();
    store().edit('retrieval.limit', '20');
    store().edit('memoryMode', 'ask');
    await store().submit();
    expect(updates).toEqual([{ patch: { retrieval: { ...stored.retrieval, limit: 20 }, memoryMode: 'ask' } }]);
    expect(store().draft).toEqual({});
    expect(store().save).toEqual({ kind: 'saved' });
    expect(store().settings?.retrieval.limit).toBe(20);
    store().settleSaved();
    expect(store().save).toEqual({ kind: 'idle' });
  });

  it('keeps the draft and the core’s refusal (with the field it names) when the save is refused', async () => {
    const refusal: ErrorInfo = { code: 'INVALID_INPUT', message: 'no', path: 'patch.chatModel' };
    await start(refusal);
    store().edit('chatModel', 'other');
    await store().submit();
    expect(store().draft).toEqual({ chatModel: 'other' });
    expect(store().save).toEqual({ kind: 'error', error: refusal, path: 'patch.chatModel' });
    // Editing again clears the refusal; leaving the form drops the draft.
    store().edit('chatModel', 'other2');
    expect(store().save).toEqual({ kind: 'idle' });
    store().closeForm();
    expect(store().draft).toEqual({});
  });

  it('keeps an instant setting’s refusal beside that setting only, until it is changed again', async () => {
    const refusal: ErrorInfo = { code: 'STORAGE_FULL', message: 'full' };
    await start(refusal);
    await store().saveNow({ episodesEnabled: false });
    expect(store().instantErrors).toEqual({ episodesEnabled: refusal });
    useSettingsStore.setState({ client: fakeCore().client });
    await store().saveNow({ learningSchedule: 'away' });
    expect(store().instantErrors).toEqual({ episodesEnabled: refusal });
    await store().saveNow({ episodesEnabled: true });
    expect(store().instantErrors).toEqual({});
  });

  it('takes every number field’s range from the contract: the form refuses exactly what the schema refuses', () => {
    const paths = Object.keys(Settings.parse({}).retrieval).map((k) => `retrieval.${k}`).concat(['summary.minNewTokens', 'contextWindowTokens', 'episodeQuietMinutes', 'activeMemoryCap']);
    for (const path of paths.filter(isNumberPath) as NumberPath[]) {
      const { min, max } = fieldOf(path);
      expect(Number.isFinite(min) && Number.isFinite(max), path).toBe(true);
      for (const value of [min - 1, min, (min + max) / 2, max, max + 1, min + 0.5]) {
        const [group, key] = path.split('.') as [keyof Settings, string | undefined];
        const candidate = key ? { [group]: { ...(stored[group] as object), [key]: value } } : { [group]: value };
        const contract = Settings.safeParse({ ...stored, ...candidate }).success;
        expect(validateDraft(stored, { [path]: String(value) }).errors[path] === undefined, `${path} = ${value}`).toBe(contract);
      }
    }
  });
});
