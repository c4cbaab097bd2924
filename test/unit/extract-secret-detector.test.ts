import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSecret, type SecretKind } from '../../electron/core/safety/secret-detector';

const SECRETS: Array<[SecretKind, string]> = [
  ['api_key', 'my key is sk-proj-abcDEF1234567890abcdEFGH5678ijkl'],
  ['api_key', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345'],
  ['api_key', 'aws id AKIAIOSFODNN7EXAMPLE in the config'],
  ['api_key', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['api_key', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
  ['api_key', 'slack bot xoxb-1234567890-abcdefghij'],
  ['api_key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
  ['api_key', 'hf_abcdefghijklmnopqrstuvwxyz012345'],
  ['api_key', 'stripe sk_live_abcdefghijklmnop1234'],
  ['api_key', 'api_key=9f8e7d6c5b4a39281706'],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA'],
  ['private_key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
  ['password', 'my password is hunter2'],
  ['password', 'My gmail password is swordfish'],
  ['password', 'password: Tr0ub4dor&3'],
  ['password', 'the wifi password is maple-leaf-77'],
  ['password', '密码是123456'],
  ['password', '我的银行卡密码：abc123'],
  ['password', '口令为 open-sesame-42'],
  ['pin', 'my PIN is 4821'],
  ['pin', 'PIN码是 9021'],
  ['token', 'Authorization: Bearer abcdef1234567890ghijklmnop'],
  ['token', 'my token is ab12cd34ef56gh78'],
  ['token', 'session aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 expired'],
  ['card_number', 'card 4111 1111 1111 1111'],
  ['card_number', '4111-1111-1111-1111'],
  ['card_number', 'Amex 3782 822463 10005'],
  ['card_number', '5500005555555559'],
  ['iban', 'IBAN DE89 3704 0044 0532 0130 00'],
  ['iban', 'send it to GB82WEST12345698765432'],
];

const ORDINARY = [
  'Prefers tea over coffee',
  'call me at +1 415 555 2671',
  'phone 138-1234-5678',
  'my number is 0086 138 1234 5678',
  'born on 1990-05-12',
  'uses Node 20.11.1 and TypeScript 5.4.2',
  'Pneumonoultramicroscopicsilicovolcanoconiosis is a long word',
  'AbstractSingletonProxyFactoryBean2024Version',
  'commit 3f2a9c1d4e5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f',
  'uses scikit-learn and sk-learn-compat',
  'my password is weak',
  'my password manager is 1Password',
  'I forgot my password again',
  'the password is the same as before',
  '我喜欢喝茶，每天早上都喝',
  '密码学是一门学科',
  '密码是什么',
  'I work at task-management-service-v2',
  'timestamp 1700000000000',
  'order 20240115 shipped',
  'https://github.com/SomeOrg/SomeRepo/blob/main/src/SomeFile2.ts',
  'I live at 221B Baker Street',
  'price 1,234,567,890,123',
  'a bearer of bad news',
  'my token is expired',
  'ISBN 978-3-16-148410-0',
  'I use a YubiKey for 2FA',
  'DE is Germany and 2024 was a good year',
];

describe('detectSecret', () => {
  for (const [kind, text] of SECRETS) {
    it(`finds ${kind}: ${text.slice(0, 40)}`, () => expect(detectSecret(text)).toEqual({ kind }));
  }
  for (const text of ORDINARY) {
    it(`ignores: ${text.slice(0, 50)}`, () => expect(detectSecret(text)).toBeNull());
  }
});

function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));

describe('detectSecret: properties', () => {
  it('finds every Luhn-valid 16-digit card number from the usual issuers, however grouped', () => {
    fc.assert(
      fc.property(fc.constantFrom('4', '51', '52', '55', '6011', '2221'), digits(15), fc.constantFrom(' ', '-', ''), (prefix, rest, sep) => {
        const body = (prefix + rest).slice(0, 15);
        const card = body + luhnCheckDigit(body);
        const formatted = card.match(/.{4}/g)!.join(sep);
        fc.pre(!/^(\d)\1+$/.test(card));
        expect(detectSecret(`my card is ${formatted}, expires soon`)).toEqual({ kind: 'card_number' });
      }),
    );
  });

  it('ignores numbers that fail Luhn', () => {
    fc.assert(
      fc.property(digits(15), fc.integer({ min: 1, max: 9 }), (rest, offset) => {
        const body = `4${rest.slice(1)}`;
        const wrong = String((Number(luhnCheckDigit(body)) + offset) % 10);
        expect(detectSecret(`order ${(body + wrong).match(/.{4}/g)!.join(' ')}`)).toBeNull();
      }),
    );
  });

  it('ignores international phone numbers, dates and version numbers', () => {
    const phone = fc.tuple(fc.integer({ min: 1, max: 999 }), digits(3), digits(3), digits(4)).map(([cc, a, b, c]) => `+${cc} ${a} ${b} ${c}`);
    const date = fc.date({ min: new Date(1900, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    const version = fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 2, maxLength: 4 }).map((a) => `v${a.join('.')}`);
    fc.assert(
      fc.property(fc.oneof(phone, date, version), (text) => {
        expect(detectSecret(`call ${text} today`)).toBeNull();
      }),
    );
  });

  it('ignores Chinese text without credentials', () => {
    const han = fc.integer({ min: 0x4e00, max: 0x9fa5 }).map((cp) => String.fromCodePoint(cp));
    fc.assert(
      fc.property(fc.array(fc.oneof(han, fc.constantFrom('，', '。', ' ', '我', '是')), { maxLength: 60 }), (chars) => {
        expect(detectSecret(chars.join(''))).toBeNull();
      }),
    );
  });

  // "password is X" is deliberately flagged for any plausible X, so the word list leaves out "password".
  it('ignores sentences of ordinary words, even long ones', () => {
    const word = fc.constantFrom('tea', 'coffee', 'internationalization', 'Counterrevolutionaries', 'Rust', 'TypeScript', 'Lisbon', 'is', 'my', 'favorite', 'manager', 'token', 'bucket', 'AWS', 'GitHub');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 20 }), (words) => {
        expect(detectSecret(words.join(' '))).toBeNull();
      }),
    );
  });

  it('finds random 40-character tokens mixing cases and digits', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    // noBias: uniform characters, as in a real key (fast-check otherwise favours small values).
    const token = fc.array(fc.noBias(fc.integer({ min: 0, max: alphabet.length - 1 })), { minLength: 40, maxLength: 40 }).map((a) => a.map((i) => alphabet[i]).join(''));
    fc.assert(
      fc.property(token, (t) => {
        fc.pre(/[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t));
        expect(detectSecret(`here: ${t}`)).not.toBeNull();
      }),
    );
  });
});
