/**
 * Where Mnemo may send a conversation when it talks to an OpenAI-compatible model server: to one on this computer,
 * or to one on another machine only when the user confirmed that machine's address (the offline promise). One rule,
 * checked before a base URL is stored (settings.contract.ts), again before any request leaves
 * (electron/core/llm/llm-provider.ts), and by the settings form to ask for the confirmation. Plain URL parsing.
 *
 * "On this computer": the name localhost (and *.localhost, which resolvers keep on loopback by RFC 6761), IPv4
 * 127.0.0.0/8, IPv6 ::1 and the IPv4-mapped form of 127.x. Anything else, a LAN address included, is another machine.
 */

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

/**
 * Why requests must not go to `baseUrl`, or null when they may: it is on this computer, or its address is the one the
 * user confirmed (`confirmed`, compared by scheme, host and port).
 */
export function unconfirmedRemoteAddress(baseUrl: string, confirmed: string): string | null {
  if (isLoopbackUrl(baseUrl)) return null;
  const address = addressOf(baseUrl);
  if (address !== null && confirmed !== '' && addressOf(confirmed) === address) return null;
  return (
    `${baseUrl} is not on this computer: your conversations and memories would be sent to ${address ?? baseUrl}. ` +
    `If you run the model server there and trust that machine, confirm its address first (setting openaiRemoteConfirmed = "${address ?? baseUrl}"); ` +
    'otherwise use a server on this computer, such as http://127.0.0.1:1234/v1.'
  );
}
