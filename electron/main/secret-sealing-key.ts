/**
 * The key that seals the core's secrets file in the desktop app (electron/core/ports/file-secret-store.ts). Electron's
 * safeStorage, which puts a key in the OS keychain (macOS Keychain, Windows DPAPI, the Linux secret service), exists
 * only in this main process, while the core runs in a utility process; so this process keeps one random 32-byte key,
 * stored encrypted by safeStorage beside the data, and hands it to the core at start. The secrets never pass here.
 *
 * No key (null: the core keeps the plain 0600 file) when the keychain cannot protect it: safeStorage unavailable, or
 * Linux without a secret service, where safeStorage would "encrypt" with a fixed password. A sealed key the keychain
 * can no longer open (the keychain was reset) is moved aside, never deleted, and a new one is made; the secrets it
 * sealed are then set again by the user.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SEALED_KEY_FILE = 'secret-key.sealed';

/** What this needs of Electron's safeStorage (an interface, so it is tested without Electron). */
export interface Keychain {
  /** False when encryption is unavailable or would not really protect anything. */
  usable(): Promise<boolean>;
  encrypt(plain: string): Promise<Buffer>;
  decrypt(sealed: Buffer): Promise<string>;
}

/** The key as base64, or null when the keychain cannot protect it. */
export async function secretSealingKey(dataDir: string, keychain: Keychain): Promise<string | null> {
  if (!(await keychain.usable())) return null;
  const file = path.join(dataDir, SEALED_KEY_FILE);
  let sealed: Buffer | null = null;
  try {
    sealed = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  if (sealed !== null) {
    try {
      const key = await keychain.decrypt(sealed);
      if (Buffer.from(key, 'base64').length === 32) return key;
    } catch {}
    fs.renameSync(file, `${file}.unreadable-${Date.now()}`);
  }
  const key = crypto.randomBytes(32).toString('base64');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, await keychain.encrypt(key), { mode: 0o600 });
  return key;
}

/** safeStorage as a Keychain. */
export function electronKeychain(safeStorage: Electron.SafeStorage, platform: NodeJS.Platform = process.platform): Keychain {
  return {
    usable: async () => (await safeStorage.isAsyncEncryptionAvailable()) && !(platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'),
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (sealed) => (await safeStorage.decryptStringAsync(sealed)).result,
  };
}
