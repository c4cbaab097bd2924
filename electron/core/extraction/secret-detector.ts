/**
 * A local secret detector (no LLM, no network): Mnemo must never store a credential the user pasted or mentioned,
 * whatever the extraction model wrote. It errs on the side of flagging: a false positive costs one memory, a false
 * negative puts a secret in the database, in prompts and in backups.
 *
 * What counts: provider key shapes (OpenAI, Anthropic, AWS, GitHub, Slack, Google, Hugging Face, Stripe, GitLab, npm),
 * JWTs, PEM private keys, bearer tokens, "password/密码 is X" with a plausible X, PINs stated as such, key/token
 * assignments, card numbers (13-19 digits passing Luhn), IBANs (mod-97), and long high-entropy strings mixing
 * upper case, lower case and digits.
 * What must not count: phone numbers, dates, version numbers, ordinary long words and identifiers, hex hashes,
 * Chinese text.
 */

export type SecretKind = 'api_key' | 'password' | 'pin' | 'token' | 'card_number' | 'private_key' | 'jwt' | 'iban';

export interface SecretMatch {
  kind: SecretKind;
}

// Not preceded by a token character, so "task-" never reads as "sk-".
const B = String.raw`(?<![A-Za-z0-9_-])`;

const KEY_SHAPES: RegExp[] = [
  new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{20,}`),
  new RegExp(`${B}AKIA[0-9A-Z]{16}(?![0-9A-Z])`),
  new RegExp(`${B}ASIA[0-9A-Z]{16}(?![0-9A-Z])`),
  new RegExp(`${B}gh[pousr]_[A-Za-z0-9]{30,}`),
  new RegExp(`${B}github_pat_[A-Za-z0-9_]{22,}`),
  new RegExp(`${B}xox[abposr]-[A-Za-z0-9-]{10,}`),
  new RegExp(`${B}AIza[0-9A-Za-z_-]{35}`),
  new RegExp(`${B}hf_[A-Za-z0-9]{30,}`),
  new RegExp(`${B}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`),
  new RegExp(`${B}glpat-[A-Za-z0-9_-]{20,}`),
  new RegExp(`${B}npm_[A-Za-z0-9]{36}`),
  /hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/,
];

// OpenAI-style sk-... : the body must look random (a long alphanumeric run with digits), or "sk-learn-..." would match.
const SK_KEY = new RegExp(`${B}sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})`, 'g');

const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const BEARER = /\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*/i;

// "<keyword> [a few words] is|:|=|是 <value>". The value is checked separately (see plausibleSecretValue).
const PASSWORD = /(?:\b(?:password|passwd|pwd|passcode|passphrase|pass phrase|wifi key)s?\b(?!\s*(?:managers?|policy|policies|hints?|reset|rules|requirements?|strength|protected|field)\b)|密码|口令)(?:[^\n.:=是为：]{0,40}?)(?:\s+is\s+|\s*[:=：]\s*|\s*(?:是|为)\s*)[“"'‘「]?([^\s“”"'‘’「」,，。;；]+)/gi;
const PIN = /(?:\bpin(?:\s*(?:code|number))?\b|pin码|PIN码)[^\n.\d]{0,30}?(?:\s+is\s+|\s*[:=：]\s*|\s*(?:是|为)\s*)[“"'‘]?(\d{4,8})(?!\d)/gi;
const KEY_ASSIGNMENT = /\b(api[\s_-]?key|apikey|access[\s_-]?key|secret(?:[\s_-]?key)?|client[\s_-]?secret|access[\s_-]?token|auth[\s_-]?token|refresh[\s_-]?token|token)\b[^\n.:=]{0,20}?(?:\s+is\s+|\s*[:=：]\s*)[“"'‘]?([A-Za-z0-9._~+/=-]{12,})/gi;

// Words that follow "password is" without being a password.
const NOT_A_VALUE = new Set([
  'a', 'an', 'the', 'my', 'your', 'his', 'her', 'their', 'our', 'its', 'this', 'that', 'same', 'different', 'not',
  'too', 'very', 'so', 'quite', 'really', 'weak', 'strong', 'long', 'short', 'secure', 'insecure', 'safe', 'unsafe',
  'easy', 'hard', 'simple', 'complex', 'complicated', 'changed', 'expired', 'wrong', 'correct', 'incorrect', 'invalid',
  'required', 'needed', 'missing', 'empty', 'blank', 'saved', 'stored', 'encrypted', 'hashed', 'forgotten', 'lost',
  'reset', 'set', 'case', 'sensitive', 'protected', 'only', 'just', 'still', 'also', 'now', 'always', 'never', 'in',
  'on', 'at', 'for', 'of', 'to', 'from', 'with', 'and', 'or', 'but', 'if', 'it', 'what', 'which', 'where', 'how', 'why',
  'when', 'something', 'nothing', 'anything', 'everything', 'stolen', 'leaked', 'compromised', 'manager', 'managers',
  'hint', 'policy', 'policies', 'rules', 'characters', 'chars', 'letters', 'digits', 'numbers', 'unknown', 'none', 'n/a',
]);

function plausibleSecretValue(value: string): boolean {
  const v = value.replace(/[)\]}>.!?]+$/u, '');
  if (v.length < 3 || v.length > 128) return false;
  if (NOT_A_VALUE.has(v.toLowerCase())) return false;
  // Chinese words after 密码是 ("密码是什么", "密码是我的生日") are descriptions, not the password itself.
  if (/^\p{scx=Han}/u.test(v)) return false;
  return true;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Digit groups joined by single spaces or dashes; not part of a longer number, not a "+" phone number, not a decimal.
const CARD_CANDIDATE = /(?<![\d+.,/:])\d(?:[ -]?\d){12,18}(?!\d)(?![.,/:]\d)/g;

function hasCardNumber(text: string): boolean {
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const raw = m[0];
    const digits = raw.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) continue;
    // Issuer ranges: 2 and 5 (Mastercard), 3 (Amex, Diners, JCB), 4 (Visa), 6 (Discover, UnionPay). Rules out most
    // timestamps (1...), phone numbers with country codes starting 7-9, and zero-padded ids.
    if (!/^[2-6]/.test(digits)) continue;
    // Mixed separators ("2024-01-15 12 34") are dates and lists, not one card number.
    if (/ /.test(raw) && /-/.test(raw)) continue;
    if (/^(\d)\1+$/.test(digits)) continue;
    if (luhnValid(digits)) return true;
  }
  return false;
}

const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27,
  GB: 22, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18,
  NO: 15, PL: 28, PT: 25, RO: 24, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26, UA: 29,
};

function ibanValid(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '');
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected === undefined || iban.length !== expected) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function charClass(ch: string): number {
  if (ch >= 'a' && ch <= 'z') return 0;
  if (ch >= 'A' && ch <= 'Z') return 1;
  if (ch >= '0' && ch <= '9') return 2;
  return 3;
}

/**
 * A random-looking token: upper, lower and digits all present, frequent switches between those classes (an identifier
 * like "AbstractSingletonProxyFactoryBean2" switches rarely) and high entropy. Hex hashes (one letter case) pass.
 */
function looksRandom(token: string): boolean {
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/\d/.test(token)) return false;
  let switches = 0;
  for (let i = 1; i < token.length; i++) if (charClass(token[i]!) !== charClass(token[i - 1]!)) switches++;
  if (switches / (token.length - 1) < 0.3) return false;
  return shannonEntropy(token) >= 4;
}

const LONG_TOKEN = /[A-Za-z0-9+/_=-]{32,}/g;

function hasRandomKeyBody(body: string): boolean {
  return /\d/.test(body) && /[A-Za-z]/.test(body) && body.split(/[_-]/).some((part) => part.length >= 16);
}

/** The kind of the first secret found in `text`, or null. */
export function detectSecret(text: string): SecretMatch | null {
  if (PRIVATE_KEY.test(text)) return { kind: 'private_key' };
  if (JWT.test(text)) return { kind: 'jwt' };
  if (KEY_SHAPES.some((re) => re.test(text))) return { kind: 'api_key' };
  for (const m of text.matchAll(SK_KEY)) if (hasRandomKeyBody(m[1]!)) return { kind: 'api_key' };
  if (BEARER.test(text)) return { kind: 'token' };
  for (const m of text.matchAll(PASSWORD)) if (plausibleSecretValue(m[1]!)) return { kind: 'password' };
  if ([...text.matchAll(PIN)].length > 0) return { kind: 'pin' };
  for (const m of text.matchAll(KEY_ASSIGNMENT)) {
    const value = m[2]!;
    if (/\d/.test(value) && /[A-Za-z]/.test(value)) return { kind: /key|secret/i.test(m[1]!) ? 'api_key' : 'token' };
  }
  if (hasCardNumber(text)) return { kind: 'card_number' };
  for (const m of text.toUpperCase().matchAll(IBAN_CANDIDATE)) if (ibanValid(m[0])) return { kind: 'iban' };
  for (const m of text.matchAll(LONG_TOKEN)) if (looksRandom(m[0])) return { kind: 'token' };
  return null;
}
