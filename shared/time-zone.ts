/**
 * The user's time zone: the one named in settings (an IANA name such as "Asia/Shanghai"), else the system's.
 * Every "today", "this week", day grouping and end-of-day expiry in Mnemo is computed in this zone
 * (shared/calendar-day.ts), in the core and in the renderer alike.
 *
 * The zone rules are the platform's (Intl and its ICU data), so a name is known exactly when Intl accepts it.
 * UTC offsets ("+08:00") are refused although newer engines accept them: an offset has no daylight saving, so
 * "Los Angeles" written as "-07:00" would put every winter day an hour off.
 */

const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * Known names and their canonical spelling. Asking Intl costs a formatter (a fifth of a millisecond), and the
 * settings are validated on every read; a name's answer never changes while the process runs. Bounded: names come
 * from user input.
 */
const canonicalNames = new Map<string, string | null>();
const MAX_REMEMBERED_NAMES = 64;

/** The zone's canonical spelling ("asia/shanghai" -> "Asia/Shanghai"), or null when the platform does not know it. */
export function canonicalTimeZone(name: string): string | null {
  const known = canonicalNames.get(name);
  if (known !== undefined) return known;
  let canonical: string | null = null;
  if (name.length <= 100 && IANA_NAME.test(name)) {
    try {
      canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {}
  }
  if (canonicalNames.size >= MAX_REMEMBERED_NAMES) canonicalNames.clear();
  canonicalNames.set(name, canonical);
  return canonical;
}

/**
 * The zone this process runs in (Node: the TZ variable, else the operating system's; a browser: the machine's).
 * UTC when the platform reports none or one it cannot use (a container without zone data). Read afresh each call
 * (a fifth of a millisecond): a caller on a hot path keeps the answer (renderer/src/settings/settings.store.ts).
 */
export function systemTimeZone(): string {
  const reported = new Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined;
  return (reported && canonicalTimeZone(reported)) || 'UTC';
}

/**
 * The zone days are counted in: the setting when it names a known zone, else the system's (`system`, read when not
 * given). An empty setting means "follow the system", so a laptop that travels keeps the user's local days without
 * a settings change.
 */
export function userTimeZone(setting: string, system?: string): string {
  return (setting !== '' && canonicalTimeZone(setting)) || system || systemTimeZone();
}
