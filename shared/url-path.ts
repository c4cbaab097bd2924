/**
 * Percent-decoding of a request path, for both hosts that serve the renderer (the web host and Electron's app://).
 * A malformed escape ("%zz", a lone "%", a cut or overlong UTF-8 sequence such as "%E0%A4%A" or "%c0%af") is the
 * client's mistake, not ours: callers answer 400 with MALFORMED_PATH_MESSAGE, never 500 and never a guessed file.
 */
export const MALFORMED_PATH_MESSAGE = 'Bad request: the URL path has a malformed percent-escape (such as "%zz" or a lone "%").';

/** The decoded path, or null when an escape in it is malformed. */
export function decodeUrlPath(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}
