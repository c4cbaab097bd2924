/**
 * Which Ollama address is in use and where it comes from (the setting, then OLLAMA_HOST, then the default), and every
 * form of OLLAMA_HOST that Ollama's own envconfig.Host() accepts, read the way Ollama reads it.
 */
import { describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { ollamaHostInUse } from '../../electron/core/llm/llm-provider';
import { normalizeHost } from '../../shared/ollama-host';

describe('Ollama address in use', () => {
  it('names the source that won, with the address as Mnemo uses it', () => {
    expect(ollamaHostInUse('http://10.0.0.2:11434', { OLLAMA_HOST: 'http://127.0.0.1:9999' })).toEqual({ url: 'http://10.0.0.2:11434', source: 'settings' });
    expect(ollamaHostInUse('', { OLLAMA_HOST: '127.0.0.1:9999' })).toEqual({ url: 'http://127.0.0.1:9999', source: 'environment' });
    expect(ollamaHostInUse('', {})).toEqual({ url: 'http://127.0.0.1:11434', source: 'default' });
  });

  it('counts an OLLAMA_HOST of spaces or quotes as not set, as Ollama does', () => {
    expect(ollamaHostInUse('', { OLLAMA_HOST: '  ' })).toEqual({ url: 'http://127.0.0.1:11434', source: 'default' });
    expect(ollamaHostInUse('', { OLLAMA_HOST: '""' })).toEqual({ url: 'http://127.0.0.1:11434', source: 'default' });
    expect(ollamaHostInUse('', { OLLAMA_HOST: '0.0.0.0' })).toEqual({ url: 'http://127.0.0.1:11434', source: 'environment' });
  });
});

describe('OLLAMA_HOST forms (as envconfig.Host() reads them)', () => {
  it.each([
    // [value, what Mnemo connects to]
    ['', 'http://127.0.0.1:11434'],
    ['localhost', 'http://localhost:11434'],
    ['example.com', 'http://example.com:11434'],
    ['example.com:1234', 'http://example.com:1234'],
    ['10.0.0.5', 'http://10.0.0.5:11434'],
    ['10.0.0.5:8080', 'http://10.0.0.5:8080'],
    [':9999', 'http://127.0.0.1:9999'],
    // A scheme without a port means the scheme's own port, not 11434.
    ['http://example.com', 'http://example.com'],
    ['https://example.com', 'https://example.com'],
    ['http://example.com:11434', 'http://example.com:11434'],
    ['https://example.com:8443', 'https://example.com:8443'],
    ['HTTP://Example.COM:80', 'http://example.com'],
    ['http://127.0.0.1:11434/', 'http://127.0.0.1:11434'],
    // A path after the address (a reverse proxy's prefix) is kept, trailing slashes dropped.
    ['example.com/ollama', 'http://example.com:11434/ollama'],
    ['https://example.com:443/ollama/', 'https://example.com/ollama'],
    // The unspecified addresses a server listens on mean this computer for a client.
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['0.0.0.0:8080', 'http://127.0.0.1:8080'],
    ['http://0.0.0.0:11434', 'http://127.0.0.1:11434'],
    ['::', 'http://[::1]:11434'],
    ['[::]', 'http://[::1]:11434'],
    ['[::]:8080', 'http://[::1]:8080'],
    // IPv6, bare or bracketed, with or without a port.
    ['::1', 'http://[::1]:11434'],
    ['[::1]', 'http://[::1]:11434'],
    ['[::1]:11434', 'http://[::1]:11434'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['fe80::1', 'http://[fe80::1]:11434'],
    ['[2001:db8::5]:9000', 'http://[2001:db8::5]:9000'],
    // Spaces and quotes around the value are dropped (envconfig.Var), as a shell or a .env file may leave them.
    ['  127.0.0.1:9999  ', 'http://127.0.0.1:9999'],
    ['"127.0.0.1:9999"', 'http://127.0.0.1:9999'],
    ["'http://localhost:1234'", 'http://localhost:1234'],
    [' " 0.0.0.0 " ', 'http://127.0.0.1:11434'],
    // A port that is not a port is replaced by the default, as Ollama does (it logs "invalid port, using default").
    ['example.com:99999', 'http://example.com:11434'],
    ['example.com:abc', 'http://example.com:11434'],
    ['https://example.com:-1', 'https://example.com'],
    ['example.com:', 'http://example.com:11434'],
    // Ollama's own shorthand for its cloud.
    ['ollama.com', 'https://ollama.com'],
  ])('%j -> %s', (value, expected) => {
    expect(normalizeHost(value)).toBe(expected);
  });

  it.each([['ftp://example.com'], ['unix:///var/run/ollama.sock'], ['exa mple.com']])('refuses %j with a typed error naming the forms', (value) => {
    let thrown: unknown;
    try {
      normalizeHost(value);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MnemoError);
    expect(thrown).toMatchObject({ code: 'INVALID_INPUT' });
    expect((thrown as Error).message).toContain('host:port');
  });
});
