import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS, REQUEST_BODY_MAX_BYTES, THREAD_EXPORT_FORMAT, THREAD_EXPORT_VERSION, operationNames } from '../../shared/contract';
import { unwrap } from '../../shared/client';
import type { CoreOptions } from '../../electron/core/create-core';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { startFakeOllama } from '../fakes/fake-ollama';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { startTestWebHost } from '../support/web-host';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(tempDir: () => string, options: Partial<CoreOptions> = {}) {
  const dir = tempDir();
  const { core, client: local } = createTestCore(path.join(dir, 'data'), options);
  const { host, client: remote, transport } = await startTestWebHost(core, path.join(dir, 'static'));
  cleanups.push(() => core.dispose(), () => host.close(), () => transport.close());
  return { core, host, local, remote };
}

function post(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * One request with the path sent exactly as written: fetch and new URL() would normalise or refuse the malformed
 * targets these tests are about. An upgrade request is answered like any other here (the socket is not opened).
 */
function rawRequest(port: number, target: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } });
    const answer = (res: http.IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    };
    req.on('response', answer);
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, type: '', body: '' });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Sends thread.import's body in 1 MB pieces (a string of spaces inside the content: valid JSON so far) until the host
 * answers, then stops: the body is never held here, whatever its size.
 */
function postOversized(host: { port: number; url: string; token: string }, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: host.port,
      path: '/rpc/thread.import',
      method: 'POST',
      headers: { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}`, origin: host.url, 'content-type': 'application/json', ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
      });
    });
    req.on('error', (e) => !answered && reject(e));
    const piece = Buffer.alloc(1024 * 1024, ' ');
    const write = () => {
      while (!answered && !req.destroyed) if (!req.write(piece)) return void req.once('drain', write);
    };
    req.write('{"content":"');
    write();
  });
}

const MALFORMED_PATHS = ['/%zz', '/%', '/%E0%A4%A', '/assets/%c0%af', '/threads/%ff', '/index.html%'];

function openSocket(url: string, protocols: string[], headers: Record<string, string>): Promise<{ opened: true; ws: WebSocket } | { opened: false; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => resolve({ opened: true, ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ opened: false, status: 0 }));
  });
}

describe('web host', () => {
  const tempDir = useTempDirs();

  it('binds 127.0.0.1 only', async () => {
    const { host } = await setup(tempDir);
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.appUrl).toBe(`${host.url}/#token=${host.token}`);
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses /rpc without the token (401), with a wrong token (401), from another origin or host (403)', async () => {
    const { host } = await setup(tempDir);
    const url = `${host.url}/rpc/app.info`;
    const good = { authorization: `Bearer ${host.token}`, origin: host.url };
    expect((await post(url, '{}', good)).status).toBe(200);
    const noToken = await post(url, '{}', { origin: host.url });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    expect((await post(url, '{}', { ...good, authorization: `Bearer ${'0'.repeat(64)}` })).status).toBe(401);
    expect((await post(url, '{}', { ...good, authorization: host.token })).status).toBe(401);
    expect((await post(url, '{}', { ...good, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(url, '{}', { authorization: good.authorization })).status).toBe(403); // no Origin at all
    // A DNS-rebinding page reaches us with its own Host header.
    const rebinding = await new Promise<number>((resolve) => {
      void import('node:http').then(({ request }) => {
        const req = request(url, { method: 'POST', headers: { ...good, host: `evil.example:${host.port}` } }, (res) => resolve(res.statusCode ?? 0));
        req.end('{}');
      });
    });
    expect(rebinding).toBe(403);
  });

  it('refuses the /events socket without the token or from another origin, and streams events with it', async () => {
    const { host, remote } = await setup(tempDir);
    const wsUrl = host.url.replace('http', 'ws') + '/events';
    expect(await openSocket(wsUrl, ['mnemo'], { origin: host.url })).toEqual({ opened: false, status: 401 });
    expect(await openSocket(wsUrl, ['mnemo', 'mnemo.bearer.wrong'], { origin: host.url })).toEqual({ opened: false, status: 401 });
    expect(await openSocket(wsUrl, ['mnemo', `mnemo.bearer.${host.token}`], { origin: 'http://evil.example' })).toEqual({ opened: false, status: 403 });

    const ok = await openSocket(wsUrl, ['mnemo', `mnemo.bearer.${host.token}`], { origin: host.url });
    expect(ok.opened).toBe(true);
    if (!ok.opened) return;
    cleanups.push(() => ok.ws.terminate());
    const received = new Promise<unknown>((resolve) => ok.ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    const created = unwrap(await remote.call('thread.create', { title: 'over the wire' }));
    expect(await received).toEqual({ event: 'thread.created', payload: { thread: created } });
  });

  it('gives the same results over the web transport as in-process', async () => {
    const { local, remote } = await setup(tempDir);
    unwrap(await local.call('thread.create', { title: 'first' }));
    unwrap(await remote.call('thread.create', { title: '第二个对话', incognito: true }));
    const calls = [
      ['app.info', {}],
      ['thread.list', {}],
      ['thread.get', { threadId: 2 }],
      ['thread.get', { threadId: 999 }],
      ['thread.rename', { threadId: 1, title: '' }],
      ['settings.get', {}],
      ['settings.update', { patch: { budget: { system: 0.5, memories: 0.5, conversation: 0.5, reply: 0.2 } } }],
      ['nope.nothing', {}],
    ] as const;
    for (const [name, input] of calls) {
      const a = await (local.call as (n: string, i: unknown) => Promise<unknown>)(name, input);
      const b = await (remote.call as (n: string, i: unknown) => Promise<unknown>)(name, input);
      expect(b, name).toEqual(a);
    }
  });

  it('answers bad JSON with a typed error, and does not serve files outside the renderer', async () => {
    const { host } = await setup(tempDir);
    const headers = { authorization: `Bearer ${host.token}`, origin: host.url };
    const bad = await post(`${host.url}/rpc/thread.list`, '{"limit":', headers);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json']) {
      const res = await fetch(host.url + p);
      expect(await res.text()).not.toContain('"name": "mnemo"');
    }
    const index = await fetch(host.url + '/');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(index.headers.get('content-security-policy')).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
  });

  it('takes what the contract takes: a 5 MB thread import, a message with five full attachments', async () => {
    const fake = await startFakeOllama();
    cleanups.push(() => fake.close());
    const { remote } = await setup(tempDir, { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url } });

    // A conversation export of more than 5 MB as a request body (the old 4 MB cap refused it).
    const long = (i: number) => `${i}: 绿茶还是红茶？Green or black tea? `.repeat(6_000);
    const messages = Array.from({ length: 24 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: long(i), createdAt: 1_700_000_000_000 + i }));
    const thread = { title: 'Tea, at length', createdAt: 1_700_000_000_000, lastActivityAt: 1_700_000_000_023, messages };
    const content = JSON.stringify({ format: THREAD_EXPORT_FORMAT, version: THREAD_EXPORT_VERSION, exportedAt: '2024-01-01T00:00:00.000Z', app: { name: 'Mnemo', version: '1', schemaVersion: '1' }, count: 1, threads: [thread] });
    expect(Buffer.byteLength(JSON.stringify({ content }))).toBeGreaterThan(5 * 1024 * 1024);
    const imported = unwrap(await remote.call('thread.import', { content }));
    expect(imported).toMatchObject({ written: 1, invalid: 0 });
    expect(unwrap(await remote.call('thread.get', { threadId: imported.items[0]!.threadId! }))).toMatchObject({ title: 'Tea, at length', messageCount: 24 });

    // Five attachments of the most text one may hold, in a script of three bytes a character (7.5 MB).
    const attachments = Array.from({ length: ATTACHMENT_LIMITS.maxFiles }, (_, i) => ({ name: `notes-${i}.txt`, text: '茶'.repeat(ATTACHMENT_LIMITS.maxTextChars) }));
    fake.script({ content: 'That is a lot of tea.' });
    const sent = unwrap(await remote.call('chat.send', { text: 'What do my notes say?', attachments }));
    expect(sent.assistantMessage).toMatchObject({ content: 'That is a lot of tea.', status: 'complete' });
    expect(sent.userMessage.attachments).toHaveLength(ATTACHMENT_LIMITS.maxFiles);
  });

  it('refuses a body past the contract\'s largest input with a 413 saying what to do, announced or streamed', async () => {
    const { host } = await setup(tempDir);
    const said = { code: 'INVALID_INPUT', message: expect.stringMatching(/^This request is too large for Mnemo \(more than 300 MB\).* split it into smaller files and import them one by one\.$/) };
    // Announced: refused before any of it is read.
    const announced = await postOversized(host, { 'content-length': String(REQUEST_BODY_MAX_BYTES + 1) });
    expect(announced).toEqual({ status: 413, body: { ok: false, error: said } });
    // Streamed without a length: refused once the bytes counted pass the limit.
    const streamed = await postOversized(host, {});
    expect(streamed).toEqual({ status: 413, body: { ok: false, error: said } });
    expect((await post(`${host.url}/rpc/app.info`, '{}', { authorization: `Bearer ${host.token}`, origin: host.url })).status).toBe(200);
  });

  it('answers a static path with a malformed percent-escape 400 with a plain message, token or not', async () => {
    const { host } = await setup(tempDir);
    for (const target of MALFORMED_PATHS) {
      const withToken: Record<string, string> = { authorization: `Bearer ${host.token}`, origin: host.url };
      for (const headers of [{}, withToken]) {
        const res = await rawRequest(host.port, target, { headers });
        expect(res.status, target).toBe(400);
        expect(res.type, target).toBe('text/plain; charset=utf-8');
        expect(res.body, target).toMatch(/malformed percent-escape/);
      }
      // The Host check still comes first: a rebinding page learns nothing new.
      expect((await rawRequest(host.port, target, { headers: { host: `evil.example:${host.port}` } })).status, target).toBe(403);
    }
    expect((await rawRequest(host.port, '/index.html')).status).toBe(200);
  });

  it('answers /rpc/ with a malformed operation name 400 INVALID_INPUT, after the token and origin checks', async () => {
    const { host } = await setup(tempDir);
    const good = { authorization: `Bearer ${host.token}`, origin: host.url };
    for (const target of ['/rpc/%zz', '/rpc/%', '/rpc/app.info%E0%A4%A', '/rpc/%c0%af']) {
      const noToken = await rawRequest(host.port, target, { method: 'POST', headers: { origin: host.url }, body: '{}' });
      expect(noToken.status, target).toBe(401);
      expect(JSON.parse(noToken.body), target).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
      expect((await rawRequest(host.port, target, { method: 'POST', headers: { ...good, origin: 'http://evil.example' }, body: '{}' })).status, target).toBe(403);
      const authorised = await rawRequest(host.port, target, { method: 'POST', headers: good, body: '{}' });
      expect(authorised.status, target).toBe(400);
      expect(JSON.parse(authorised.body), target).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/malformed percent-escape/) } });
    }
    expect((await rawRequest(host.port, '/rpc/app.info', { method: 'POST', headers: good, body: '{}' })).status).toBe(200);
  });

  it('answers a request target that is not a URL at all 400, sockets included, and keeps serving', async () => {
    const { host } = await setup(tempDir);
    const socketHeaders = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    for (const target of ['http://[', '//%zz', '//[/events']) {
      expect((await rawRequest(host.port, target)).status, target).toBe(400);
      expect((await rawRequest(host.port, target, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, origin: host.url }, body: '{}' })).status, target).toBe(400);
      // Before the fix this one threw inside the 'upgrade' listener and took the whole process down.
      expect((await rawRequest(host.port, target, { headers: socketHeaders })).status, target).toBe(400);
    }
    expect((await rawRequest(host.port, '/events%zz', { headers: socketHeaders })).status).toBe(404);
    expect((await rawRequest(host.port, '/rpc/app.info', { method: 'POST', headers: { authorization: `Bearer ${host.token}`, origin: host.url }, body: '{}' })).status).toBe(200);
  });

  it('survives any payload: every answer is an envelope and the host keeps serving (property)', async () => {
    const { host } = await setup(tempDir);
    const headers = { authorization: `Bearer ${host.token}`, origin: host.url };
    const name = fc.oneof(fc.constantFrom(...operationNames), fc.string({ maxLength: 30 }));
    await fc.assert(
      fc.asyncProperty(name, fc.jsonValue({ maxDepth: 4 }), async (op, payload) => {
        const res = await post(`${host.url}/rpc/${encodeURIComponent(op)}`, JSON.stringify(payload) ?? 'null', headers);
        expect([200, 400]).toContain(res.status);
        const body = (await res.json()) as { ok: boolean; error?: { code: string; message: string } };
        expect(typeof body.ok).toBe('boolean');
        if (!body.ok) {
          expect(body.error?.code).toMatch(/^[A-Z_]+$/);
          expect(body.error?.code).not.toBe('INTERNAL');
        }
      }),
      { numRuns: 300 },
    );
    expect((await post(`${host.url}/rpc/app.info`, '{}', headers)).status).toBe(200);
  });
});
