/**
 * A local secret detector (no LLM, no network): Mnemo must never store a credential or identity number the user
 * pasted or mentioned, whatever the extraction model wrote. It errs on the side of flagging: a false positive costs one
 * memory, a false negative puts a secret in the database, in every future prompt and in backups.
 *
 * The rules, each for a shape that was seen leaking (test/fixtures/detector-corpus.ts holds the cases):
 * - Provider key shapes (OpenAI, Anthropic, AWS, GitHub, Slack, Google, Hugging Face, Stripe, GitLab, npm), JWTs,
 *   PEM private keys, bearer tokens: unmistakable by their prefix or structure.
 * - A credential keyword with a value, in English and Chinese, however the sentence is built: "password is X",
 *   "password: X", "changed my password to X", "using X as my password", "密码是X", "把支付密码改成X"
 *   (改成/设成/设为/换成/更新为/...), "银行卡密码 930417". Small models rephrase in the third person ("The user's
 *   password is X", "用户的支付密码是X"), which is the same shape. The value must look like one (see plausibleValue):
 *   "my password is weak" or "密码是8位数字" describe a password without giving it.
 * - A passphrase of several plain words ("my passphrase is correct horse battery staple"): the first word alone
 *   ("correct") reads like a description, so the whole clause is judged.
 * - PINs and one-time codes: a code word (PIN, OTP, verification / door / unlock code, 验证码) with 4-8 digits, with or
 *   without "is" ("my bank PIN 4821"). Generic "code 1234" (error codes, zip codes) is not one.
 * - Credentials inside commands and configuration: URLs with user:password@, `mysql -pX`, `--password X`,
 *   `sshpass -p X`, `curl -u user:pass`, `redis-cli -a X`, `PGPASSWORD=X` and any identifier naming a password,
 *   secret, token or key assigned a value. References (process.env.X, $VAR, <password>) and type names are not values.
 * - Identity numbers: Chinese resident IDs by their ISO 7064 check digit (with or without a keyword), US SSNs in their
 *   dashed form or after a keyword, passport / ID / licence numbers after a keyword.
 * - Money: card numbers (13-19 digits passing Luhn), IBANs (mod 97), bank account numbers after a keyword
 *   ("account number", "银行账号", "卡号").
 * - Long high-entropy strings mixing upper case, lower case and digits: keys of providers not listed above.
 * What must not count: phone numbers, dates, version numbers, amounts, addresses, ordinary long words and identifiers,
 * hex hashes, Chinese text that talks about passwords without giving one.
 *
 * The values found never leave this module: callers get a kind, safe to log, and secretEchoCheck() compares other
 * text against a message's values without returning them.
 */

export type SecretKind =
  | 'api_key'
  | 'password'
  | 'pin'
  | 'one_time_code'
  | 'token'
  | 'connection_string'
  | 'card_number'
  | 'private_key'
  | 'jwt'
  | 'iban'
  | 'id_number'
  | 'account_number';

export interface SecretMatch {
  kind: SecretKind;
}

/** A secret found in a text: its kind and the sensitive characters themselves. Never log `value`. */
interface Finding {
  kind: SecretKind;
  value: string;
}

type Finder = (text: string) => Generator<Finding>;

// Not preceded by a token character, so "task-" never reads as "sk-".
const B = String.raw`(?<![A-Za-z0-9_-])`;

// ---------------------------------------------------------------------------------------------------------------
// Shapes that are secrets on their own

const KEY_SHAPES: RegExp[] = [
  new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'),
  new RegExp(`${B}AKIA[0-9A-Z]{16}(?![0-9A-Z])`, 'g'),
  new RegExp(`${B}ASIA[0-9A-Z]{16}(?![0-9A-Z])`, 'g'),
  new RegExp(`${B}gh[pousr]_[A-Za-z0-9]{30,}`, 'g'),
  new RegExp(`${B}github_pat_[A-Za-z0-9_]{22,}`, 'g'),
  new RegExp(`${B}xox[abposr]-[A-Za-z0-9-]{10,}`, 'g'),
  new RegExp(`${B}AIza[0-9A-Za-z_-]{35}`, 'g'),
  new RegExp(`${B}hf_[A-Za-z0-9]{30,}`, 'g'),
  new RegExp(`${B}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`, 'g'),
  new RegExp(`${B}glpat-[A-Za-z0-9_-]{20,}`, 'g'),
  new RegExp(`${B}npm_[A-Za-z0-9]{36}`, 'g'),
  /hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g,
];

// OpenAI-style sk-... : the body must look random (a long alphanumeric run with digits), or "sk-learn-..." would match.
const SK_KEY = new RegExp(`${B}sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})`, 'g');

const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
// The value is the key material: from the BEGIN line to the END line, or to the end of the text when cut off.
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*-----|$)/g;
const BEARER = /\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)/gi;

function hasRandomKeyBody(body: string): boolean {
  return /\d/.test(body) && /[A-Za-z]/.test(body) && body.split(/[_-]/).some((part) => part.length >= 16);
}

function* keyShapes(text: string): Generator<Finding> {
  for (const m of text.matchAll(PRIVATE_KEY)) {
    const body = m[0].replace(/-----(?:BEGIN|END)[^-]*-----/g, '').trim();
    yield { kind: 'private_key', value: body || m[0] };
  }
  for (const m of text.matchAll(JWT)) yield { kind: 'jwt', value: m[0] };
  for (const re of KEY_SHAPES) for (const m of text.matchAll(re)) yield { kind: 'api_key', value: m[0] };
  for (const m of text.matchAll(SK_KEY)) if (hasRandomKeyBody(m[1]!)) yield { kind: 'api_key', value: m[0] };
  for (const m of text.matchAll(BEARER)) yield { kind: 'token', value: m[1]! };
}

// ---------------------------------------------------------------------------------------------------------------
// Is this a value?

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
  'one', 'mine', 'yours', 'hers', 'theirs', 'ours', 'written', 'kept', 'shared', 'known', 'updated', 'working',
  'fine', 'ok', 'okay', 'good', 'bad', 'old', 'new', 'being', 'be', 'been', 'is', 'was', 'are', 'were', 'there', 'here',
  'then', 'than', 'enough', 'like', 'about', 'into', 'by', 'as', 'because', 'no', 'yes', 'all', 'some', 'any', 'default',
  'temporary', 'random', 'unique', 'generated', 'automatic', 'auto', 'see', 'deprecated', 'optional', 'ignored',
  'disabled', 'enabled', 'supported', 'accepted', 'rejected', 'sent', 'asked', 'prompted', 'shown', 'visible', 'masked',
  'hidden', 'removed', 'gone',
]);

// Placeholders and type names in code and docs: `password: string`, `postgres://user:password@host`.
const PLACEHOLDERS = new Set([
  'string', 'str', 'int', 'integer', 'number', 'boolean', 'bool', 'null', 'undefined', 'text', 'varchar', 'char',
  'bytes', 'optional', 'password', 'passwd', 'pass', 'pwd', 'secret', 'token', 'key', 'value', 'example', 'redacted',
  'hidden', 'placeholder', 'changeme_placeholder', 'your_password', 'yourpassword', 'mypassword', 'user', 'username',
]);

/** A reference to where a value lives (process.env.X, $VAR, ${x}, <password>, getpass()), or a masked one (****). */
function isReferenceOrMask(v: string): boolean {
  return (
    /^(?:process\.env|os\.environ|os\.getenv|env\.|import\.meta\.env|config\.|settings\.|self\.|this\.|args?\.|req\.|options?\.|secrets\.)/i.test(v) ||
    /^[$%{<[]/.test(v) ||
    /^[A-Za-z_][\w.]*\(/.test(v) ||
    /^[*•xX.#-]{3,}$/.test(v)
  );
}

const VALUE_TRAILING = /[)\]}>.!?:]+$/u;
const HAN = /\p{scx=Han}/u;

/**
 * The sensitive part of what follows a credential keyword, or null when it is a description ("weak", "什么"), a
 * placeholder or a reference. A value led by Chinese ("我的生日0312") counts when an ASCII run with a digit follows,
 * and only after an explicit linker (是/为/改成...), never right after the keyword.
 */
function plausibleValue(raw: string, opts: { hanLedAllowed: boolean }): string | null {
  const token = raw.replace(VALUE_TRAILING, '');
  if (HAN.test(token[0] ?? '')) {
    if (!opts.hanLedAllowed) return null;
    const embedded = /[A-Za-z0-9][\x21-\x7e]{3,}/.exec(token);
    return embedded && /\d/.test(embedded[0]) ? embedded[0].replace(VALUE_TRAILING, '') : null;
  }
  // The ASCII part before any Chinese: "8位数字" is "8", a length, not a password.
  const ascii = /^[\x21-\x7e]+/.exec(token)?.[0].replace(VALUE_TRAILING, '') ?? '';
  if (ascii.length < 3 || ascii.length > 128) return null;
  const lower = ascii.toLowerCase();
  if (NOT_A_VALUE.has(lower) || PLACEHOLDERS.has(lower) || isReferenceOrMask(ascii)) return null;
  return ascii;
}

// Words that make a clause a description rather than a passphrase ("too short for the new policy").
const FUNCTION_WORDS = new Set([...NOT_A_VALUE, 'which', 'who', 'will', 'would', 'can', 'could', 'should', 'must', 'may', 'might', 'do', 'does', 'did', 'has', 'have', 'had', 'these', 'those', 'again', 'already', 'remember', 'forget', 'change', 'use', 'used']);

const MAX_PASSPHRASE_CHARS = 100;

/** "correct horse battery staple": 3 to 8 plain words, none of them a function word or a description. */
function passphrase(clause: string): string | null {
  if (clause.length > MAX_PASSPHRASE_CHARS) return null;
  const words = clause.trim().split(/\s+/);
  if (words.length < 3 || words.length > 8) return null;
  if (!words.every((w) => /^[a-z][a-z'-]*$/i.test(w))) return null;
  // The first word may be an adjective that merely starts the phrase ("correct horse ..."); the rest may not.
  if (words.slice(1).some((w) => FUNCTION_WORDS.has(w.toLowerCase()))) return null;
  return words.join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Keyword + value, English

const PASSWORD_WORD = String.raw`(?:password|passwd|pwd|passcode|passphrase|pass\s?phrase|wi-?fi\s+key)s?`;
// "password manager", "password policy", ... are topics, not a password.
const NOT_ABOUT = String.raw`(?!\s*(?:managers?|policy|policies|hints?|reset|rules|requirements?|strength|protected|field|hygiene|length|changes?|prompt|screen|expir\w*|protection|generator|spray\w*|leak\w*)\b)`;
const VALUE_TOKEN = String.raw`[“"'‘「]?([^\s“”"'‘’「」,，。;；]+)`;

// "<keyword> [a few words] is|was|:|=|是|为 <value>"; the clause after the linker is kept for passphrases (read only
// so far: every scan in this file is bounded, as a pasted document may hold the keyword thousands of times).
const PASSWORD_IS = new RegExp(
  String.raw`\b${PASSWORD_WORD}\b${NOT_ABOUT}(?:[^\n.:=是为：]{0,40}?)(?:\s+(?:is|was|is\s+now)\s+|\s*[:=：]\s*|\s*(?:是|为)\s*)(?=([^\n,，。;；!?]{0,${MAX_PASSPHRASE_CHARS + 1}}))${VALUE_TOKEN}`,
  'gi',
);
// "changed my email password to X", "password was reset to X". A value of letters only must end the clause or be
// followed by when it happened: "set my password to expire yearly" is a setting, not a password.
const AFTER_WORD_VALUE = String.raw`(?=\s*(?:$|[,，.。;；!?)]|\s(?:yesterday|today|tonight|last|this|earlier|recently|again|now|because|and|but|so)\b))`;
const PASSWORD_CHANGED_TO = new RegExp(
  String.raw`\b(?:chang|set|reset|updat|switch)\w*\b[^\n.]{0,40}?\b(?:${PASSWORD_WORD}|pin(?:\s+code)?)\b\s+(?:to|into)\s+${VALUE_TOKEN}` +
    String.raw`|\b(?:${PASSWORD_WORD}|pin(?:\s+code)?)\b\s+(?:was\s+|has\s+been\s+|is\s+now\s+|got\s+)?(?:changed|set|reset|updated|switched)\s+to\s+${VALUE_TOKEN}`,
  'gi',
);
const WORD_VALUE_END = new RegExp(AFTER_WORD_VALUE, 'iy');
// "using hunter2 as my password": the value comes first.
const PASSWORD_USED_AS = new RegExp(
  String.raw`\b(?:use|uses|using|used|chose|chosen|picked|pick|have|has|had)\s+${VALUE_TOKEN}["”'’]?\s+as\s+(?:(?:my|the|a|an|his|her|their|our|your|its)\s+)?(?:[\w-]+\s+){0,2}?(?:${PASSWORD_WORD}|pin(?:\s+code)?)\b${NOT_ABOUT}`,
  'gi',
);

// "Wi-Fi password S3cr3tPass!", "router pwd Tr0ub4dor": the keyword right before a value, no linker. Only a token
// that reads as a password counts here (letters with digits or symbols, 6+ characters): "password manager 2" or
// "password reset" do not.
const PASSWORD_DIRECT = new RegExp(String.raw`\b${PASSWORD_WORD}\b${NOT_ABOUT}\s+${VALUE_TOKEN}`, 'gi');
const PASSWORD_SHAPED = /^(?=.*[A-Za-z])(?=.*[\d!@#$%^&*_+=?~-])[\x21-\x7e]{6,}$/;

function* passwordsEn(text: string): Generator<Finding> {
  for (const m of text.matchAll(PASSWORD_DIRECT)) {
    const value = m[1]!.replace(VALUE_TRAILING, '');
    if (PASSWORD_SHAPED.test(value)) yield { kind: 'password', value };
  }
  for (const m of text.matchAll(PASSWORD_IS)) {
    const value = plausibleValue(m[2]!, { hanLedAllowed: true }) ?? passphrase(m[1]!);
    if (value) yield { kind: 'password', value };
  }
  for (const m of text.matchAll(PASSWORD_CHANGED_TO)) {
    const value = plausibleValue(m[1] ?? m[2]!, { hanLedAllowed: false });
    WORD_VALUE_END.lastIndex = m.index + m[0].length;
    if (value && (!/^[a-z]+$/i.test(value) || WORD_VALUE_END.test(text))) yield { kind: 'password', value };
  }
  for (const m of text.matchAll(PASSWORD_USED_AS)) {
    const value = plausibleValue(m[1]!, { hanLedAllowed: false });
    if (value) yield { kind: 'password', value };
  }
}

// PINs, door and unlock codes, one-time codes: 4-8 digits, after "is"/":" or right after the code word.
const CODE_WORDS = String.raw`pin(?:\s*(?:code|number))?|otp|one-time\s+(?:code|password|passcode)|(?:unlock|door|gate|garage|alarm|lock|safe|locker|entry|access|verification|confirmation|2fa|two-factor|sms|login|auth|authentication|backup|recovery|security)\s+code`;
const CODE = new RegExp(
  String.raw`\b(${CODE_WORDS})\b(?:[^\n.\d]{0,30}?(?:\s+(?:is|was)\s+|\s*[:=：]\s*|\s*(?:是|为)\s*)|\s+)[“"'‘]?(\d{4,8})(?!\d)`,
  'gi',
);
const CARD_CODE = /\b(?:cvv2?|cvc2?|csc)\b[^\n.\d]{0,15}?(\d{3,4})(?!\d)/gi;
const ONE_TIME = /otp|one-time|verification|confirmation|2fa|two-factor|sms|login|auth|backup|recovery/i;

function* codesEn(text: string): Generator<Finding> {
  for (const m of text.matchAll(CODE)) yield { kind: ONE_TIME.test(m[1]!) ? 'one_time_code' : 'pin', value: m[2]! };
  for (const m of text.matchAll(CARD_CODE)) yield { kind: 'card_number', value: m[1]! };
}

// ---------------------------------------------------------------------------------------------------------------
// Keyword + value, Chinese

const ZH_KEYWORD = String.raw`(?:PIN|pin|Pin)码|验证码|校验码|动态码|动态口令|安全码|短信码|密码|口令|密钥|秘钥`;
// 是/为 and the verbs of setting and changing: 改成, 设成, 设为, 换成, 更新为, ...
const ZH_LINKER = String.raw`(?:是|为|改成|改为|设成|设为|设置为|设置成|设定为|设定成|换成|换为|变成|变为|更新为|更新成|更改为|更改成|修改为|修改成|重置为|重置成|定为|[:：=])了?`;
const ZH_WITH_LINKER = new RegExp(String.raw`(${ZH_KEYWORD})[^\n。，,；;:：=]{0,10}?${ZH_LINKER}\s*${VALUE_TOKEN}`, 'g');
// "银行卡密码 930417": the keyword right before the value; only a value starting in ASCII counts here.
const ZH_DIRECT = new RegExp(String.raw`(${ZH_KEYWORD})\s*${VALUE_TOKEN}`, 'g');

function zhKind(keyword: string): SecretKind {
  if (/pin码/i.test(keyword)) return 'pin';
  if (/验证码|校验码|动态码|动态口令|短信码/.test(keyword)) return 'one_time_code';
  return 'password';
}

function* passwordsZh(text: string): Generator<Finding> {
  for (const m of text.matchAll(ZH_WITH_LINKER)) {
    const value = plausibleValue(m[2]!, { hanLedAllowed: true });
    if (value) yield { kind: zhKind(m[1]!), value };
  }
  for (const m of text.matchAll(ZH_DIRECT)) {
    const value = plausibleValue(m[2]!, { hanLedAllowed: false });
    if (value) yield { kind: zhKind(m[1]!), value };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Credentials in commands, URLs and configuration

// scheme://user:password@host (the user may be empty: redis://:pass@host).
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]*:([^\s/@]+)@[^\s/@]/gi;
const CLI_PASSWORDS: RegExp[] = [
  // mysql and friends take the password glued to -p ("-p secret" would be a database name).
  /\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p([^\s-][^\s]*)/gi,
  /\bsshpass\s+-p\s*["']?([^\s"']+)/gi,
  /\bredis-cli\b[^\n|;&]{0,200}?\s-a\s+["']?([^\s"']+)/gi,
  // curl -u user:pass, --user user:pass
  /(?:^|\s)(?:-u|--user)\s+["']?[^\s:"']+:([^\s"'@]+)/gi,
  // --password X, --password=X, --db-pass X (not --password-stdin, which reads it safely)
  /(?:^|\s)--(?:[a-z]+-)*(?:password|passwd|pass|pwd)(?:=|\s+)["']?([^\s"'-][^\s"']*)/gi,
];
// An identifier naming a credential, assigned a value: PGPASSWORD=x, aws_secret_access_key = x, DB_PASS: x.
const IDENTIFIER_ASSIGNMENT = /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]*)\s*[=:]\s*["']?([^\s"',;]+)/g;
// Inside the identifier: "password" anywhere (PGPASSWORD), "pass"/"pwd" only as a whole part (DB_PASS, not "compass").
const PASSWORD_NAME = /password|passwd|(?:^|[_.-])(?:pass|pwd)(?:$|[_.-])/i;
const KEY_NAME = /secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential/i;
// "api key is X", "token: X": a key-like value (letters and digits, 12+).
const KEY_ASSIGNMENT =
  /\b(api[\s_-]?key|apikey|access[\s_-]?key|secret(?:[\s_-]?key)?|client[\s_-]?secret|access[\s_-]?token|auth[\s_-]?token|refresh[\s_-]?token|token)\b[^\n.:=]{0,20}?(?:\s+is\s+|\s*[:=：]\s*)[“"'‘]?([A-Za-z0-9._~+/=-]{12,})/gi;

function keyLike(value: string): boolean {
  return /\d/.test(value) && /[A-Za-z]/.test(value) && value.length >= 12 && !isReferenceOrMask(value);
}

function* configured(text: string): Generator<Finding> {
  for (const m of text.matchAll(URL_CREDENTIALS)) {
    const value = m[1]!;
    if (!PLACEHOLDERS.has(value.toLowerCase()) && !isReferenceOrMask(value)) yield { kind: 'connection_string', value };
  }
  for (const re of CLI_PASSWORDS) {
    for (const m of text.matchAll(re)) {
      const value = plausibleValue(m[1]!, { hanLedAllowed: false });
      if (value) yield { kind: 'password', value };
    }
  }
  for (const m of text.matchAll(IDENTIFIER_ASSIGNMENT)) {
    const name = m[1]!;
    const raw = m[2]!;
    if (PASSWORD_NAME.test(name)) {
      const value = plausibleValue(raw, { hanLedAllowed: false });
      if (value) yield { kind: 'password', value };
    } else if (KEY_NAME.test(name) && keyLike(raw)) {
      yield { kind: /token/i.test(name) ? 'token' : 'api_key', value: raw };
    }
  }
  for (const m of text.matchAll(KEY_ASSIGNMENT)) {
    const value = m[2]!;
    if (/\d/.test(value) && /[A-Za-z]/.test(value)) yield { kind: /key|secret/i.test(m[1]!) ? 'api_key' : 'token', value };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Identity numbers

const RESIDENT_ID = /(?<![0-9A-Za-z])([1-9]\d{5})\s?((?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))\s?(\d{3}[\dXx])(?![0-9A-Za-z])/g;
const RESIDENT_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const RESIDENT_ID_CHECK = '10X98765432';

/** GB 11643: the 18th character is an ISO 7064 MOD 11-2 check over the first 17 digits. */
function residentIdValid(id: string): boolean {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * RESIDENT_ID_WEIGHTS[i]!;
  return RESIDENT_ID_CHECK[sum % 11] === id[17]!.toUpperCase();
}

// Dashed SSN: area 001-899 except 666, group 01-99, serial 0001-9999.
const SSN_DASHED = /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g;
// After a keyword any ID-like value counts: "passport number 567123890", "SSN 536 22 1784", "护照号是 E12345678".
const ID_KEYWORD_EN = String.raw`\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?|passport(?:\s+(?:number|no\.?|#|id))?|driver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?|national\s+id(?:\s+(?:number|no\.?|#))?|tax\s+id(?:\s+(?:number|no\.?|#))?|id\s+card\s+(?:number|no\.?|#)|personal\s+id(?:\s+(?:number|no\.?))?)\b`;
const ID_KEYWORD_ZH = String.raw`(?:身份证|护照|驾驶证|驾照|社保卡|社保|医保卡|医保|居住证|港澳通行证|通行证|军官证)(?:号码|号|编号)?`;
const ID_VALUE = String.raw`[“"'‘]?([A-Za-z]{0,2}\d(?:[ -]?\d){5,17}[A-Za-z]?)(?![0-9A-Za-z])`;
const ID_AFTER_KEYWORD = new RegExp(
  String.raw`(?:${ID_KEYWORD_EN}|${ID_KEYWORD_ZH})(?:[^\n.\d]{0,20}?(?:\s+(?:is|was)\s+|\s*[:=：#]\s*|\s*(?:是|为)\s*)|\s*)${ID_VALUE}`,
  'gi',
);

function* identityNumbers(text: string): Generator<Finding> {
  for (const m of text.matchAll(RESIDENT_ID)) {
    const id = m[1]! + m[2]! + m[3]!;
    if (residentIdValid(id)) yield { kind: 'id_number', value: m[0] };
  }
  for (const m of text.matchAll(SSN_DASHED)) yield { kind: 'id_number', value: m[0] };
  for (const m of text.matchAll(ID_AFTER_KEYWORD)) yield { kind: 'id_number', value: m[1]! };
}

// ---------------------------------------------------------------------------------------------------------------
// Money: cards, IBANs, bank accounts

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

// Issuer ranges: Mastercard 51-55 and 2221-2720, Amex 34/37, Diners 30/36/38, JCB 3528-3589, Visa 4, Discover 6011/
// 644-649/65, UnionPay 62. Rules out timestamps (1...), order numbers that start with a date (2024...), phone numbers
// with country codes starting 7-9, and zero-padded ids.
const ISSUER = /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720|3[47]|3[068]|35(?:2[89]|[3-8]\d)|4|6011|64[4-9]|65|62)/;

// Digit groups joined by single spaces or dashes; not part of a longer number, not a "+" phone number, not a decimal.
const CARD_CANDIDATE = /(?<![\d+.,/:])\d(?:[ -]?\d){12,18}(?!\d)(?![.,/:]\d)/g;

function* cardNumbers(text: string): Generator<Finding> {
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const raw = m[0];
    const digits = raw.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) continue;
    if (!ISSUER.test(digits)) continue;
    // Mixed separators ("2024-01-15 12 34") are dates and lists, not one card number.
    if (/ /.test(raw) && /-/.test(raw)) continue;
    if (/^(\d)\1+$/.test(digits)) continue;
    if (luhnValid(digits)) yield { kind: 'card_number', value: raw };
  }
}

const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/gi;
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27,
  GB: 22, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18,
  NO: 15, PL: 28, PT: 25, RO: 24, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26, UA: 29,
};

function ibanValid(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '').toUpperCase();
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

// Bank accounts have no checksum to go by: the keyword decides. 8+ digits, so "account 12345" in a story passes.
const ACCOUNT_KEYWORD = String.raw`\b(?:(?:bank\s+)?account\s+(?:number|no\.?|#)|acct\.?(?:\s+(?:number|no\.?|#))?|routing\s+(?:number|no\.?)|sort\s+code|bsb)\b|银行卡号|银行卡账号|银行账号|银行帐号|银行账户|银行帐户|卡号|收款账号|收款帐号|开户账号|对公账号|账户号码|帐户号码`;
const ACCOUNT_AFTER_KEYWORD = new RegExp(
  String.raw`(?:${ACCOUNT_KEYWORD})(?:[^\n.\d]{0,20}?(?:\s+(?:is|was)\s+|\s*[:=：#]\s*|\s*(?:是|为)\s*)|\s*)[“"'‘]?(\d(?:[ -]?\d){7,33})(?!\d)`,
  'gi',
);

function* money(text: string): Generator<Finding> {
  yield* cardNumbers(text);
  for (const m of text.matchAll(IBAN_CANDIDATE)) if (ibanValid(m[0])) yield { kind: 'iban', value: m[0] };
  for (const m of text.matchAll(ACCOUNT_AFTER_KEYWORD)) yield { kind: 'account_number', value: m[1]! };
}

// ---------------------------------------------------------------------------------------------------------------
// High-entropy tokens

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

function* randomTokens(text: string): Generator<Finding> {
  for (const m of text.matchAll(LONG_TOKEN)) if (looksRandom(m[0])) yield { kind: 'token', value: m[0] };
}

// ---------------------------------------------------------------------------------------------------------------

// In order of certainty: the first finding names the kind.
const FINDERS: Finder[] = [keyShapes, passwordsEn, codesEn, passwordsZh, configured, identityNumbers, money, randomTokens];

function* findings(text: string): Generator<Finding> {
  for (const find of FINDERS) yield* find(text);
}

/** The kind of the first secret found in `text`, or null. */
export function detectSecret(text: string): SecretMatch | null {
  for (const f of findings(text)) return { kind: f.kind };
  return null;
}

const KIND_WORDS: Record<SecretKind, string> = {
  api_key: 'an API key',
  password: 'a password',
  pin: 'a PIN',
  one_time_code: 'a verification code',
  token: 'an access token',
  connection_string: 'a connection string with a password',
  card_number: 'a card number',
  private_key: 'a private key',
  jwt: 'an access token',
  iban: 'an IBAN',
  id_number: 'an ID number',
  account_number: 'an account number',
};

/**
 * Why `text` may not become a memory, whoever writes it (extraction drops such candidates; a memory the user adds,
 * edits or imports is refused with this reason), or null. Secrets never become memories: memories reach every
 * prompt, exports and backups.
 */
export function secretRefusal(text: string): string | null {
  const found = detectSecret(text);
  return found ? `it looks like ${KIND_WORDS[found.kind]}, and Mnemo never keeps secrets as memories (keep it in a password manager)` : null;
}

const ECHO_MIN_CHARS = 4;
const DIGIT_RUN = /\d(?:[\s-]?\d)*/g;

/**
 * A check for text that repeats a secret found in `source` (the user's message), even without the keyword that made
 * it one there: the user said "my bank PIN 4821" and the model wrote "Has a bank PIN (4821)". Numbers compare by
 * their digits, so "536-22-1784" also catches "536 22 1784". Values shorter than 4 characters are not compared.
 * The source is scanned on the first call only.
 */
export function secretEchoCheck(source: string): (text: string) => SecretMatch | null {
  let found: Array<{ kind: SecretKind; value: string; digits: string | null }> | null = null;
  return (text) => {
    found ??= [...findings(source.normalize('NFKC'))]
      .filter((f) => f.value.length >= ECHO_MIN_CHARS)
      .map((f) => ({ kind: f.kind, value: f.value, digits: /^[\d\s-]+$/.test(f.value) && f.value.replace(/\D/g, '').length >= 6 ? f.value.replace(/\D/g, '') : null }));
    if (found.length === 0) return null;
    const t = text.normalize('NFKC');
    const digitRuns = [...t.matchAll(DIGIT_RUN)].map((m) => m[0].replace(/\D/g, ''));
    const hit = found.find((f) => t.includes(f.value) || (f.digits !== null && digitRuns.some((run) => run.includes(f.digits!))));
    return hit ? { kind: hit.kind } : null;
  };
}

/**
 * The one guard for text a background model wrote from the user's messages (a title, a summary, an episode line, a
 * working-memory item): true when it looks like a secret, or repeats one found in `userText` (the user's own
 * messages the model read) without the keyword that made it one there.
 */
export function modelTextSecretCheck(userText: string): (text: string) => boolean {
  const echoes = secretEchoCheck(userText);
  return (text) => detectSecret(text) !== null || echoes(text) !== null;
}
