import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, unconfirmedRemoteAddress } from '../../shared/model-server-address';
import { Settings, StorableSettings } from '../../shared/contract';

describe('isLoopbackUrl', () => {
  it.each(['http://127.0.0.1:1234/v1', 'http://localhost:8080/v1', 'http://LOCALHOST/v1', 'http://lmstudio.localhost/v1', 'http://127.1:1234', 'http://127.255.0.9', 'http://[::1]:1234/v1', 'http://[::ffff:127.0.0.1]:1/'])(
    '%s is on this computer',
    (url) => expect(isLoopbackUrl(url)).toBe(true),
  );

  it.each(['http://192.168.1.20:1234/v1', 'http://10.0.0.5', 'https://api.openai.com/v1', 'http://localhost.example.com', 'http://128.0.0.1', 'http://[::2]', 'http://0.0.0.0:1234', 'not a url'])(
    '%s is not',
    (url) => expect(isLoopbackUrl(url)).toBe(false),
  );
});

describe('unconfirmedRemoteAddress', () => {
  it('lets loopback through, and a remote only at the confirmed scheme, host and port', () => {
    expect(unconfirmedRemoteAddress('http://127.0.0.1:1234/v1', '')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:1234')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:1234/v1')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:8080')).toContain('http://192.168.1.20:1234');
    expect(unconfirmedRemoteAddress('https://192.168.1.20:1234/v1', 'http://192.168.1.20:1234')).not.toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', '')).toMatch(/not on this computer.*openaiRemoteConfirmed = "http:\/\/192\.168\.1\.20:1234"/);
  });

  it('is the rule settings must pass to be stored, while reading them never fails on it', () => {
    const remote = { llmProvider: 'openai', openaiBaseUrl: 'http://192.168.1.20:1234/v1' };
    const refused = StorableSettings.safeParse(remote);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['openaiBaseUrl']);
    expect(StorableSettings.safeParse({ ...remote, openaiRemoteConfirmed: 'http://192.168.1.20:1234' }).success).toBe(true);
    expect(Settings.safeParse(remote).success).toBe(true);
    expect(Settings.parse({ openaiBaseUrl: 'http://127.0.0.1:1234/v1/' }).openaiBaseUrl).toBe('http://127.0.0.1:1234/v1');
  });
});
