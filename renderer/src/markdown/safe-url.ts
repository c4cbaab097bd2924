/**
 * Which URLs in model output may become clickable. Model output is untrusted: a link may only leave the app for the
 * web or mail, and only when the user clicks it. Relative URLs are refused because they would navigate inside the
 * app; javascript:, data:, file: and every other scheme are refused outright.
 */
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function safeLinkUrl(raw: string): string | null {
  let url: URL;
  try {
    // No base URL: anything relative throws and is refused.
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : null;
}

/** A URL shortened for display in an inert placeholder (a data: URL can be megabytes long). */
export function displayUrl(raw: string, max = 120): string {
  const oneLine = raw.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
