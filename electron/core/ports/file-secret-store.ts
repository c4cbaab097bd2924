/**
 * The secret store as a small file in the data folder, outside the database (so outside backups and exports),
 * readable by the user only (0600 where the platform has modes). Read on every get(): the file is tiny, and another
 * process on the same data folder (the CLI beside the app) may have changed it.
 *
 * Two forms, two files, so neither host can overwrite the other's:
 * - plain (CLI, web host): secrets.json, the secrets as JSON, protected by the file's permissions;
 * - sealed (the desktop app): secrets.sealed.json, the same JSON encrypted with AES-256-GCM under a key the Electron
 *   host keeps in the OS keychain (electron/main/secret-sealing-key.ts) and hands to the core at start.
 * A file that cannot be read or decrypted any more (edited by hand, keychain reset) reads as "no secret": the server
 * then refuses the request and the user sets the key again, which replaces the file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MnemoError } from '../../../shared/errors';
import type { SecretName, SecretStore } from './secret-store.port';

export const PLAIN_SECRETS_FILE = 'secrets.json';
export const SEALED_SECRETS_FILE = 'secrets.sealed.json';

type Secrets = Partial<Record<SecretName, string>>;
interface SealedFile {
  version: 1;
  iv: string;
  tag: string;
  data: string;
}

export function createFileSecretStore(options: { dataDir: string; /** 32 bytes, base64: seal the file with it. */ sealingKey?: string }): SecretStore {
  const key = options.sealingKey === undefined ? null : Buffer.from(options.sealingKey, 'base64');
  if (key !== null && key.length !== 32) throw new MnemoError('INTERNAL', 'The key sealing the secrets file must be 32 bytes.');
  const file = path.join(options.dataDir, key === null ? PLAIN_SECRETS_FILE : SEALED_SECRETS_FILE);

  function read(): Secrets {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = JSON.parse(key === null ? text : unseal(JSON.parse(text) as SealedFile, key)) as unknown;
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Secrets) : {};
    } catch {
      return {};
    }
  }

  function write(secrets: Secrets): void {
    const json = JSON.stringify(secrets);
    const body = key === null ? json : JSON.stringify(seal(json, key));
    const temp = `${file}.${process.pid}.tmp`;
    try {
      // Created 0600 and renamed over the old file: the secret is never readable by others, not even half-written.
      fs.writeFileSync(temp, body, { mode: 0o600 });
      fs.renameSync(temp, file);
    } catch (e) {
      fs.rmSync(temp, { force: true });
      const code = (e as NodeJS.ErrnoException).code ?? 'an error';
      throw new MnemoError('INTERNAL', `The API key could not be saved in ${file} (${code}). Check that the data folder is writable and has space.`, {
        details: { code },
      });
    }
  }

  return {
    get: (name) => {
      const value = read()[name];
      return typeof value === 'string' && value !== '' ? value : null;
    },
    set: (name, value) => write({ ...read(), [name]: value }),
    delete: (name) => {
      const secrets = read();
      if (!(name in secrets)) return;
      delete secrets[name];
      write(secrets);
    },
  };
}

function seal(plain: string, key: Buffer): SealedFile {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { version: 1, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

function unseal(sealed: SealedFile, key: Buffer): string {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
}
