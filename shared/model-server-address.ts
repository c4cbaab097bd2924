/**
 * Where Mnemo may send a conversation when it talks to a model server, Ollama or OpenAI-compatible: to one on this
 * computer, or to one on another machine only when the user confirmed that machine's address (the offline promise).
 * One rule for both servers, checked before an address is stored (settings.contract.ts), again before any request
 * leaves (electron/core/llm/llm-provider.ts, which also sees OLLAMA_HOST), and by the settings form to ask for the
 * confirmation. Plain URL parsing.
 *
 * "On this computer": the name localhost (and *.localhost, which resolvers keep on loopback by RFC 6761), IPv4
 * 127.0.0.0/8, IPv6 ::1 and the IPv4-mapped form of 127.x. Anything else, a LAN address included, is another machine.
 * An unspecified address (0.0.0.0) is not loopback here: Ollama's address is read first (shared/ollama-host.ts turns
 * 0.0.0.0 into 127.0.0.1, the address it then connects to), and an OpenAI-compatible base URL is taken as written.
 *
 * An address never carries credentials, a query or a fragment: settings live in the database and in every backup,
 * so a password in a URL would be copied into each of them. A key goes in the API key field (settings.setApiKey),
 * which keeps it outside the database.
 */
import { normalizeHost } from './ollama-host';

/** The model servers Mnemo speaks to (settings.llmProvider). */
export type ModelServerApi = 'ollama' | 'openai';

/** The setting that holds each server's address (for Ollama, empty: OLLAMA_HOST, else the default). */
export const ADDRESS_SETTING = { ollama: 'ollamaHost', openai: 'openaiBaseUrl' } as const satisfies Record<ModelServerApi, string>;

/** The setting that holds each server's confirmed address. */
export const REMOTE_CONFIRMATION_SETTING = { ollama: 'ollamaRemoteConfirmed', openai: 'openaiRemoteConfirmed' } as const satisfies Record<ModelServerApi, string>;

/** True when the URL's host is a loopback address; false for anything else, an unparsable URL included. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // WHATWG URL parsing has already normalized the forms: "127.1" is "127.0.0.1", "[::ffff:127.0.0.1]" is "[::ffff:7f00:1]".
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/** "scheme://host:port" of a URL (what a confirmation names), or null when it does not parse. */
export function addressOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The address to confirm for `url`: its "scheme://host:port" when it is on another machine, else null. */
export function remoteAddressOf(url: string): string | null {
  return isLoopbackUrl(url) ? null : addressOf(url);
}

/** The machine alone, as the status bar names it ("192.168.1.20", "[fd00::5]"), or the URL when it does not parse. */
export function machineOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/**
 * Why `url` may not be a model server's address, or null when it may: it holds a user name or password, a query or a
 * fragment. `setting`: the setting that holds it, for the message.
 */
export function credentialsInAddress(url: string, setting: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const shown = `${setting} (${parsed.origin}${parsed.pathname === '/' ? '' : parsed.pathname})`;
  if (parsed.username !== '' || parsed.password !== '') {
    return (
      `The address in ${shown} holds a user name or password. Mnemo keeps no credentials in an address: settings are stored in the database and in every backup. ` +
      'Enter the address without them, and a key or password in the API key field (Settings → Model server, or "mnemo settings api-key set"), which keeps it outside the database.'
    );
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    return (
      `The address in ${shown} has a ${parsed.search !== '' ? 'query (?…)' : 'fragment (#…)'}. A model server's address is scheme, host, port and path only: ` +
      'remove it, and put a key in the API key field (Settings → Model server, or "mnemo settings api-key set"), which keeps it outside the database.'
    );
  }
  return null;
}

/**
 * Why requests must not go to `url`, or null when they may: it is on this computer, or its address is the one the
 * user confirmed (`confirmed`, compared by scheme, host and port) in the setting of `api`'s server. `from`: where the
 * address came from when not from settings (e.g. "OLLAMA_HOST in the environment"), for the message.
 */
export function unconfirmedRemoteAddress(url: string, confirmed: string, api: ModelServerApi, from?: string): string | null {
  if (isLoopbackUrl(url)) return null;
  const address = addressOf(url);
  if (address !== null && confirmed !== '' && addressOf(confirmed) === address) return null;
  const target = address ?? url;
  const where = from ? `${from} points at ${url}, which is` : `${url} is`;
  const local = api === 'ollama' ? 'http://127.0.0.1:11434' : 'http://127.0.0.1:1234/v1';
  return (
    `${where} not on this computer: your conversations and memories would be sent to ${target}. ` +
    `If you run the model server there and trust that machine, confirm its address first (setting ${REMOTE_CONFIRMATION_SETTING[api]} = "${target}"); ` +
    `otherwise use a server on this computer, such as ${local}.`
  );
}

/** What the rule needs to judge one address. */
export interface AddressToJudge {
  api: ModelServerApi;
  /** The address as the user wrote it (where credentials would be). */
  written: string;
  /** The URL requests would go to (for Ollama, `written` read as Ollama reads it). */
  url: string;
  /** The confirmed address in the server's confirmation setting ('' for none). */
  confirmed: string;
  /** The setting that holds `written`, or where it came from when not from settings (e.g. "OLLAMA_HOST in the environment"). */
  setting: string;
  from?: string;
}

/** The one check before anything goes to a model server, and before an address is stored: why not, or null. */
export function addressRefusal(a: AddressToJudge): string | null {
  return credentialsInAddress(a.written, a.setting) ?? unconfirmedRemoteAddress(a.url, a.confirmed, a.api, a.from);
}

/** The model server settings, as far as this rule reads them. */
export interface ServerSettings {
  ollamaHost: string;
  ollamaRemoteConfirmed: string;
  openaiBaseUrl: string;
  openaiRemoteConfirmed: string;
}

/**
 * The check before settings are stored: every address (an empty Ollama host means OLLAMA_HOST or the default, which
 * only the request-time check sees) and every confirmation, whichever server is chosen, since all of them are kept.
 */
export function settingsAddressProblems(s: ServerSettings): Array<{ setting: keyof ServerSettings; message: string }> {
  const problems: Array<{ setting: keyof ServerSettings; message: string }> = [];
  const add = (setting: keyof ServerSettings, message: string | null) => void (message !== null && problems.push({ setting, message }));
  for (const api of ['ollama', 'openai'] as const) {
    const setting = ADDRESS_SETTING[api];
    const written = s[setting];
    if (written !== '') add(setting, addressRefusal({ api, written, url: urlOf(api, written), confirmed: s[REMOTE_CONFIRMATION_SETTING[api]], setting }));
  }
  for (const setting of Object.values(REMOTE_CONFIRMATION_SETTING)) if (s[setting] !== '') add(setting, credentialsInAddress(s[setting], setting));
  return problems;
}

/**
 * The URL requests go to for an address written in `api`'s setting: Ollama's read as Ollama reads it (0.0.0.0 is
 * 127.0.0.1), the value itself when Ollama could not read it (then it is no loopback); a base URL as written.
 */
export function urlOf(api: ModelServerApi, written: string): string {
  if (api === 'openai') return written;
  try {
    return normalizeHost(written);
  } catch {
    return written;
  }
}
