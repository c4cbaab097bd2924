/**
 * Ollama's address as its own tools read OLLAMA_HOST, so a value that works for `ollama run` works for Mnemo.
 * Mirrors envconfig.Host() in github.com/ollama/ollama (envconfig/config.go):
 * - quotes and spaces around the value are dropped (envconfig.Var);
 * - the scheme is optional (http when absent); the port defaults to 11434 without a scheme, and to the scheme's own
 *   port (80, 443) when a scheme is written without one; a port that is not a number from 0 to 65535 is replaced by
 *   that default, as Ollama does;
 * - `host`, `host:port`, `:port` (this computer), `[v6]`, `[v6]:port`, a bare IPv6 address, and a path after the
 *   address (a proxy prefix) are all accepted; a bare "ollama.com" means https://ollama.com:443.
 * One difference, on purpose: an unspecified address (0.0.0.0, ::) is what a *server* listens on ("every interface");
 * people set OLLAMA_HOST=0.0.0.0 for `ollama serve` and the client inherits it. Connecting to it works on some systems
 * only (not on Windows), so Mnemo connects to the loopback address of the same family instead.
 */
import { MnemoError } from './errors';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const OLLAMA_PORT = '11434';

/** The base URL Mnemo sends Ollama requests to, from any form OLLAMA_HOST accepts; '' gives the default. */
export function normalizeHost(value: string): string {
  const text = value.trim().replace(/^["']+|["']+$/g, '').trim();
  if (text === '') return DEFAULT_OLLAMA_HOST;

  let scheme = 'http';
  let rest = text;
  let defaultPort = OLLAMA_PORT;
  const cut = text.indexOf('://');
  if (cut >= 0) {
    scheme = text.slice(0, cut).toLowerCase();
    rest = text.slice(cut + 3);
    defaultPort = scheme === 'https' ? '443' : scheme === 'http' ? '80' : OLLAMA_PORT;
  } else if (text === 'ollama.com') {
    scheme = 'https';
    rest = 'ollama.com:443';
  }
  if (scheme !== 'http' && scheme !== 'https') throw notAnAddress(value, `Ollama speaks http or https, not "${scheme}"`);

  const slash = rest.indexOf('/');
  const hostport = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  let { host, port } = splitHostPort(hostport) ?? { host: hostport.replace(/^\[|\]$/g, ''), port: defaultPort };
  if (host === '') host = '127.0.0.1';
  if (!/^[+-]?\d+$/.test(port) || Number(port) < 0 || Number(port) > 65535) port = defaultPort;

  let url: URL;
  try {
    url = new URL(`${scheme}://${host.includes(':') ? `[${host}]` : host}:${Number(port)}/${path}`);
  } catch {
    throw notAnAddress(value, 'it does not parse as a host name or IP address');
  }
  // WHATWG parsing has already normalized the spellings ("0" is 0.0.0.0, "[0:0::0]" is "[::]").
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Go's net.SplitHostPort: "host:port" or "[host]:port" (the port may be empty); null where Go fails (no port, or a
 * bare IPv6 address), which Ollama then reads as a host alone.
 */
function splitHostPort(hostport: string): { host: string; port: string } | null {
  if (hostport.startsWith('[')) {
    const end = hostport.indexOf(']');
    if (end < 0 || hostport[end + 1] !== ':') return null;
    return { host: hostport.slice(1, end), port: hostport.slice(end + 2) };
  }
  const colon = hostport.lastIndexOf(':');
  if (colon < 0 || hostport.slice(0, colon).includes(':')) return null;
  return { host: hostport.slice(0, colon), port: hostport.slice(colon + 1) };
}

function notAnAddress(value: string, why: string): MnemoError {
  return new MnemoError(
    'INVALID_INPUT',
    `"${value}" is not an Ollama address (${why}). Set OLLAMA_HOST or the Ollama host in Settings to host, host:port or http://host:port, e.g. 127.0.0.1:11434.`,
    { details: { host: value } },
  );
}
