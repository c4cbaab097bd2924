/**
 * Where the API key lives: the secrets file beside the database (plain 0600 for the CLI and the web host, sealed for
 * the desktop app) and the desktop app's sealing key, kept by the OS keychain. The keychain here is a stand-in with
 * Electron's safeStorage interface: the real one needs Electron and a desktop session.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSecretStore, PLAIN_SECRETS_FILE, SEALED_SECRETS_FILE } from '../../electron/core/ports/file-secret-store';
import { SEALED_KEY_FILE, secretSealingKey, type Keychain } from '../../electron/main/secret-sealing-key';
import { useTempDirs } from '../support/temp-dir';

const KEY = 'sk-local-a1b2c3d4';

/** Encrypts with a key of its own, as the OS keychain would; `reset()` loses that key. */
function standInKeychain(usable = true): Keychain & { reset(): void } {
  let master = crypto.randomBytes(32);
  const cipher = (data: Buffer, decrypt: boolean) => {
    const iv = Buffer.alloc(16, 7);
    const c = decrypt ? crypto.createDecipheriv('aes-256-cbc', master, iv) : crypto.createCipheriv('aes-256-cbc', master, iv);
    return Buffer.concat([c.update(data), c.final()]);
  };
  return {
    usable: () => Promise.resolve(usable),
    encrypt: (plain) => Promise.resolve(cipher(Buffer.from(plain), false)),
    decrypt: (sealed) => Promise.resolve(cipher(sealed, true).toString()),
    reset: () => (master = crypto.randomBytes(32)),
  };
}

describe('the secrets file', () => {
  const tempDir = useTempDirs();

  it('plain: keeps a secret in a file only its owner can read, and forgets it on delete', () => {
    const dataDir = tempDir();
    const store = createFileSecretStore({ dataDir });
    expect(store.get('openaiApiKey')).toBeNull();
    store.set('openaiApiKey', KEY);
    expect(createFileSecretStore({ dataDir }).get('openaiApiKey')).toBe(KEY);
    const file = path.join(dataDir, PLAIN_SECRETS_FILE);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    store.delete('openaiApiKey');
    expect(store.get('openaiApiKey')).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(fs.readdirSync(dataDir)).toEqual([PLAIN_SECRETS_FILE]);
  });

  it('sealed: the key never appears in the file, another key cannot open it, and the plain file is not touched', () => {
    const dataDir = tempDir();
    const sealingKey = crypto.randomBytes(32).toString('base64');
    createFileSecretStore({ dataDir, sealingKey }).set('openaiApiKey', KEY);
    expect(fs.readFileSync(path.join(dataDir, SEALED_SECRETS_FILE), 'utf8')).not.toContain(KEY);
    expect(createFileSecretStore({ dataDir, sealingKey }).get('openaiApiKey')).toBe(KEY);
    expect(createFileSecretStore({ dataDir, sealingKey: crypto.randomBytes(32).toString('base64') }).get('openaiApiKey')).toBeNull();
    expect(createFileSecretStore({ dataDir }).get('openaiApiKey')).toBeNull();
  });

  it('a file that cannot be read reads as no secret, and setting one again replaces it', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, PLAIN_SECRETS_FILE), '{"openaiApiKey": ');
    const store = createFileSecretStore({ dataDir });
    expect(store.get('openaiApiKey')).toBeNull();
    store.set('openaiApiKey', KEY);
    expect(store.get('openaiApiKey')).toBe(KEY);
  });
});

describe('the desktop sealing key', () => {
  const tempDir = useTempDirs();

  it('is made once, kept sealed by the keychain, and the same at the next start', async () => {
    const dataDir = tempDir();
    const keychain = standInKeychain();
    const key = await secretSealingKey(dataDir, keychain);
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(fs.readFileSync(path.join(dataDir, SEALED_KEY_FILE)).includes(Buffer.from(key!))).toBe(false);
    expect(await secretSealingKey(dataDir, keychain)).toBe(key);
  });

  it('is not made when the keychain cannot protect it (the core then keeps the plain file)', async () => {
    const dataDir = tempDir();
    expect(await secretSealingKey(dataDir, standInKeychain(false))).toBeNull();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('is replaced when the keychain can no longer open it, the old one kept aside', async () => {
    const dataDir = tempDir();
    const keychain = standInKeychain();
    const first = await secretSealingKey(dataDir, keychain);
    keychain.reset();
    const second = await secretSealingKey(dataDir, keychain);
    expect(second).not.toBe(first);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(`${SEALED_KEY_FILE}.unreadable-`))).toHaveLength(1);
  });
});
