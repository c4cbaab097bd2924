import { describe, expect, it } from 'vitest';
import { credentialsInAddress, isLoopbackUrl, machineOf, remoteAddressOf, unconfirmedRemoteAddress, urlOf } from '../../shared/model-server-address';
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
    expect(unconfirmedRemoteAddress('http://127.0.0.1:1234/v1', '', 'openai')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:1234', 'openai')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:1234/v1', 'openai')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', 'http://192.168.1.20:8080', 'openai')).toContain('http://192.168.1.20:1234');
    expect(unconfirmedRemoteAddress('https://192.168.1.20:1234/v1', 'http://192.168.1.20:1234', 'openai')).not.toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:1234/v1', '', 'openai')).toMatch(/not on this computer.*openaiRemoteConfirmed = "http:\/\/192\.168\.1\.20:1234"/);
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

describe('the same rule for every model server', () => {
  it.each([
    ['http://127.0.0.1:11434', null],
    ['http://127.8.9.10:11434', null],
    ['http://localhost:11434', null],
    ['http://[::1]:11434', null],
    ['http://192.168.1.20:11434', 'http://192.168.1.20:11434'],
    ['http://ollama-box.lan:11434', 'http://ollama-box.lan:11434'],
    ['http://[fd00::5]:11434', 'http://[fd00::5]:11434'],
    // Ollama's own reading: 0.0.0.0 (every interface, for `ollama serve`) is where a client reaches this computer.
    ['http://0.0.0.0:11434', null],
  ])('an Ollama host %s: address to confirm %s', (host, address) => {
    expect(remoteAddressOf(urlOf('ollama', host))).toBe(address);
    expect(unconfirmedRemoteAddress(urlOf('ollama', host), '', 'ollama') === null).toBe(address === null);
  });

  it('an OpenAI-compatible base URL is taken as written: 0.0.0.0 is not loopback there', () => {
    expect(remoteAddressOf(urlOf('openai', 'http://0.0.0.0:1234/v1'))).toBe('http://0.0.0.0:1234');
  });

  it('names the server\'s own confirmation setting and, for OLLAMA_HOST, where the address came from', () => {
    expect(unconfirmedRemoteAddress('http://192.168.1.20:11434', '', 'ollama')).toContain('ollamaRemoteConfirmed = "http://192.168.1.20:11434"');
    expect(unconfirmedRemoteAddress('http://192.168.1.20:11434', 'http://192.168.1.20:11434', 'ollama')).toBeNull();
    expect(unconfirmedRemoteAddress('http://192.168.1.20:11434', '', 'ollama', 'OLLAMA_HOST in the environment')).toMatch(
      /^OLLAMA_HOST in the environment points at http:\/\/192\.168\.1\.20:11434, which is not on this computer/,
    );
  });

  it('the status bar names the machine alone', () => {
    expect(machineOf('http://192.168.1.20:11434')).toBe('192.168.1.20');
    expect(machineOf('http://[fd00::5]:11434')).toBe('[fd00::5]');
  });
});

describe('credentials never in an address', () => {
  it.each([
    ['http://user:secret@192.168.1.20:1234/v1', 'user name or password'],
    ['http://user@127.0.0.1:1234/v1', 'user name or password'],
    ['http://127.0.0.1:1234/v1?api_key=sk-1', 'query'],
    ['http://127.0.0.1:1234/v1#key', 'fragment'],
  ])('%s is refused (%s), pointing to the API key field', (url, what) => {
    const problem = credentialsInAddress(url, 'openaiBaseUrl');
    expect(problem).toContain(what);
    expect(problem).toContain('API key field');
    // The message never repeats the secret it refuses.
    expect(problem).not.toMatch(/secret|sk-1|#key/);
  });

  it('a plain address passes', () => {
    expect(credentialsInAddress('http://127.0.0.1:1234/v1', 'openaiBaseUrl')).toBeNull();
    expect(credentialsInAddress('https://[::1]/', 'ollamaHost')).toBeNull();
  });

  it('the contract refuses to store one, for either server and either confirmation; reading never fails on it', () => {
    for (const patch of [
      { openaiBaseUrl: 'http://user:secret@127.0.0.1:1234/v1' },
      { ollamaHost: 'http://user:secret@127.0.0.1:11434' },
      { ollamaHost: 'http://127.0.0.1:11434/?token=1' },
      { openaiRemoteConfirmed: 'http://user:secret@192.168.1.20:1234' },
    ]) {
      const refused = StorableSettings.safeParse(patch);
      expect(refused.success, JSON.stringify(patch)).toBe(false);
      expect(refused.error?.issues[0]?.path).toEqual([Object.keys(patch)[0]]);
      expect(Settings.safeParse(patch).success).toBe(true);
    }
  });

  it('an Ollama host on another machine needs ollamaRemoteConfirmed to be stored', () => {
    const remote = { ollamaHost: 'http://192.168.1.20:11434' };
    expect(StorableSettings.safeParse(remote).error?.issues[0]).toMatchObject({ path: ['ollamaHost'] });
    expect(StorableSettings.safeParse({ ...remote, ollamaRemoteConfirmed: 'http://192.168.1.20:11434' }).success).toBe(true);
    expect(StorableSettings.safeParse({ ollamaHost: 'http://0.0.0.0:11434' }).success).toBe(true);
  });
});
