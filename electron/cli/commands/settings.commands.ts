/**
 * Settings from the terminal: `settings get [key]`, `settings set <key> <value>`, `settings reset <key>`, and the
 * model server's API key, which is not a setting: `settings api-key set` reads it from stdin (an argument would stay
 * in the shell's history and show in the process list), `settings api-key clear` forgets it.
 * Keys are the contract's own (shared/contract/settings.contract.ts), groups joined by dots (`retrieval.limit`):
 * the list is derived from the Settings schema, so a setting added there is reachable here without a change. The
 * value is read as the schema's type (a number, true/false, or text) and then validated by `settings.update`, the
 * same rule as in the app; an unknown key is refused with the nearest known one. A model server address on another
 * machine needs its confirmation (shared/model-server-address.ts): `--confirm-remote` stores the address's confirmation
 * with it, in the same update, as the Settings checkbox does; `settings set ollamaRemoteConfirmed ADDRESS` confirms an
 * OLLAMA_HOST from the environment.
 */
import { z } from 'zod';
import { Settings } from '../../../shared/contract';
import { ADDRESS_SETTING, remoteAddressOf, REMOTE_CONFIRMATION_SETTING, urlOf, type ModelServerApi } from '../../../shared/model-server-address';
import { flag } from '../options';
import type { CliCommand } from '../cli-command';
import { nearest } from '../nearest';
import { UsageError } from '../parse';

type ValueKind = 'number' | 'boolean' | 'text';

interface SettingKey {
  key: string;
  kind: ValueKind;
  /** The schema's default: what `settings reset` writes. */
  fallback: unknown;
}

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional) return unwrap(schema.unwrap() as z.ZodType);
  return schema;
}

function kindOf(schema: z.ZodType): ValueKind {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodNumber) return 'number';
  if (inner instanceof z.ZodBoolean) return 'boolean';
  return 'text';
}

/** Every leaf of the Settings schema, as a dotted key with its value kind and default. */
export function settingKeys(): SettingKey[] {
  const defaults = Settings.parse({}) as Record<string, unknown>;
  const keys: SettingKey[] = [];
  const walk = (shape: Record<string, z.ZodType>, prefix: string, fallbacks: Record<string, unknown>) => {
    for (const [name, schema] of Object.entries(shape)) {
      const inner = unwrap(schema);
      if (inner instanceof z.ZodObject) walk(inner.shape as Record<string, z.ZodType>, `${prefix}${name}.`, fallbacks[name] as Record<string, unknown>);
      else keys.push({ key: `${prefix}${name}`, kind: kindOf(schema), fallback: fallbacks[name] });
    }
  };
  walk(Settings.shape as Record<string, z.ZodType>, '', defaults);
  return keys;
}

function valueAt(settings: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((v, part) => (v as Record<string, unknown> | undefined)?.[part], settings);
}

function patchFor(key: string, value: unknown): Record<string, unknown> {
  return key
    .split('.')
    .reverse()
    .reduce<unknown>((inner, part) => ({ [part]: inner }), value) as Record<string, unknown>;
}

function findKey(key: string | undefined): SettingKey {
  const keys = settingKeys();
  if (!key) return usageError('Name a setting, e.g. "settings get retrieval.limit". "settings get" lists them all.');
  const found = keys.find((k) => k.key === key) ?? keys.find((k) => k.key.toLowerCase() === key.toLowerCase());
  if (found) return found;
  const near = nearest(key, keys.map((k) => k.key), true);
  return usageError(`There is no setting "${key}". Did you mean "${near}"? "settings get" lists them all.`);
}

/** A key or value the command line got wrong: exit 2, like any other usage error. */
function usageError(message: string): never {
  throw new UsageError(message);
}

function parseValue(setting: SettingKey, raw: string): unknown {
  if (setting.kind === 'number') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) usageError(`${setting.key} takes a number; "${raw}" is not one.`);
    return value;
  }
  if (setting.kind === 'boolean') {
    if (raw !== 'true' && raw !== 'false') usageError(`${setting.key} takes true or false; "${raw}" is neither.`);
    return raw === 'true';
  }
  return raw;
}

function show(value: unknown): string {
  return typeof value === 'string' ? (value === '' ? '(empty)' : value) : JSON.stringify(value);
}

export const settingsCommands: CliCommand[] = [
  {
    words: ['settings', 'get'],
    synopsis: 'settings get [KEY]        every setting (or one, e.g. retrieval.limit) with its value',
    async run({ client, args }) {
      const r = await client.call('settings.get', {});
      if (!r.ok) return r;
      if (args.length > 0) {
        const setting = findKey(args[0]);
        const value = valueAt(r.value, setting.key);
        return { ok: true, value, text: show(value) };
      }
      const keys = settingKeys();
      const width = Math.max(...keys.map((k) => k.key.length));
      const lines = keys.map((k) => {
        const value = valueAt(r.value, k.key);
        const changed = JSON.stringify(value) !== JSON.stringify(k.fallback) ? '' : '  (default)';
        return `${k.key.padEnd(width)}  ${show(value)}${changed}`;
      });
      lines.push(`${'API key'.padEnd(width)}  ${r.value.openaiApiKeySet ? 'set' : 'not set'}  ("settings api-key set" reads one from stdin)`);
      return { ok: true, value: r.value, text: lines.join('\n') };
    },
  },
  {
    words: ['settings', 'set'],
    synopsis: 'settings set KEY VALUE    change one setting (validated as in the app), e.g. contextWindowTokens 16384',
    options: { 'confirm-remote': flag('with ollamaHost or openaiBaseUrl: agree to send conversations and memories to that address on another machine') },
    async run({ client, args, flags }) {
      if (args.length !== 2) usageError('Give a setting and its value, e.g. "settings set retrieval.limit 8". Quote a value with spaces.');
      const setting = findKey(args[0]);
      const given = parseValue(setting, args[1]!);
      const confirmation = isAddressSetting(setting.key) ? confirmationFor(setting.key, String(given)) : {};
      if (flags['confirm-remote'] && !isAddressSetting(setting.key)) usageError(`--confirm-remote goes with ${Object.values(ADDRESS_SETTING).join(' or ')}, not ${setting.key}.`);
      const r = await client.call('settings.update', { patch: { ...patchFor(setting.key, given), ...(flags['confirm-remote'] ? confirmation : {}) } });
      if (!r.ok) {
        // Refused for want of a confirmation: the flag that gives it, in the terminal's words.
        const unconfirmed = !flags['confirm-remote'] && Object.keys(confirmation).length > 0 && r.error.path === `patch.${setting.key}`;
        return unconfirmed ? { ok: false, error: { ...r.error, message: `${r.error.message} To agree, run it again with --confirm-remote.` } } : r;
      }
      const confirmed = flags['confirm-remote'] ? Object.keys(confirmation).map((key) => `\n${key} = ${show(valueAt(r.value, key))}`).join('') : '';
      return { ok: true, value: r.value, text: `${setting.key} = ${show(valueAt(r.value, setting.key))}${confirmed}` };
    },
  },
  {
    words: ['settings', 'reset'],
    synopsis: 'settings reset KEY        put one setting back to its default',
    async run({ client, args }) {
      if (args.length !== 1) usageError('Name the setting to reset, e.g. "settings reset retrieval.limit".');
      const setting = findKey(args[0]);
      const r = await client.call('settings.update', { patch: patchFor(setting.key, setting.fallback) });
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: `${setting.key} = ${show(valueAt(r.value, setting.key))} (default)` };
    },
  },
  {
    words: ['settings', 'api-key', 'set'],
    synopsis: "settings api-key set      reads the model server's API key from stdin, e.g. printf %s \"$KEY\" | … settings api-key set",
    async run({ client, args, note, io }) {
      if (args.length > 0) usageError('Give the key on stdin, not as an argument (arguments stay in the shell history): printf %s "$KEY" | npm run -s cli -- settings api-key set');
      if (io.stdin.isTTY) note('Paste the API key, then press Enter.');
      const r = await client.call('settings.setApiKey', { key: await firstLine(io.stdin) });
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: 'API key saved, outside the database. Requests to the OpenAI-compatible server now send it.' };
    },
  },
  {
    words: ['settings', 'api-key', 'clear'],
    synopsis: 'settings api-key clear    forgets the API key: requests go without one',
    async run({ client }) {
      const r = await client.call('settings.clearApiKey', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: 'API key forgotten.' };
    },
  },
];

function isAddressSetting(key: string): boolean {
  return (Object.values(ADDRESS_SETTING) as string[]).includes(key);
}

/** The confirmation `--confirm-remote` adds for a model server address: its "scheme://host:port", or none on this computer. */
function confirmationFor(key: string, value: string): Record<string, string> {
  const api = (Object.keys(ADDRESS_SETTING) as ModelServerApi[]).find((a) => ADDRESS_SETTING[a] === key)!;
  const address = value.trim() === '' ? null : remoteAddressOf(urlOf(api, value.trim()));
  return address === null ? {} : { [REMOTE_CONFIRMATION_SETTING[api]]: address };
}

/** The first line of a stream (all of it when it has no line break): what a pasted or piped key is. */
async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}
