/**
 * A browser tab that stops reading its event socket (frozen, suspended, a stuck script) while Mnemo streams a long
 * answer: the web host closes that client once EVENTS_SEND_BUFFER_LIMIT_BYTES wait for it, instead of keeping every
 * later event in memory (issue 26 item 11: 134 MB in 15 s, never capped). The client that stalls is the renderer's
 * own transport (shared/transports/web.transport.ts) over a real socket whose reading is paused; when it reads again
 * it sees the close and its reason, reconnects, and gets events again, as after any disconnect (the renderer then
 * re-reads everything shown: stores/init-stores.ts). A second client that reads keeps its connection and every event.
 */
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import { createWebTransport } from '../../shared/transports/web.transport';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Logger } from '../../electron/core/ports/logger.port';
import { EVENTS_SEND_BUFFER_LIMIT_BYTES, NOT_READING, startWebHost } from '../../electron/server/web-host';
import { useStatusStore } from '../../renderer/src/status/status.store';
import { startFakeOllama } from '../fakes/fake-ollama';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

/** Generous: answers of many megabytes streamed through the real core, on a loaded 2-core machine. */
const WAIT = { timeout: 120_000, interval: 50 };
/**
 * 32 KB of answer per message.delta, ending in one space. Counted words, not one word again and again: the chat stops a
 * reply that repeats itself (text/repetition.ts), as a looping model's is.
 */
const CHUNK = `${Array.from({ length: 8 * 1024 }, (_, i) => `tea${i}`).join(' ').slice(0, 32 * 1024 - 1).trimEnd().padEnd(32 * 1024 - 1, 'x')} `;
/** 1 MB answers: each a stream of deltas, and each finished answer's own event well within the limit. */
const CHUNKS_PER_ANSWER = 32;
const ANSWER_BYTES = CHUNK.length * CHUNKS_PER_ANSWER;
/** A bound, never reached: the limit plus what the two sockets' kernel buffers can hold is far less. */
const MAX_ANSWERS = 4 * (EVENTS_SEND_BUFFER_LIMIT_BYTES / ANSWER_BYTES);
/** Answers streamed after the close, none of which may reach the closed client. */
const ANSWERS_AFTER_CLOSE = 8;

/** The `ws` client, counting what it receives; with `stall`, its first connection's reading is paused once open, as a frozen tab's. */
function countingSocket(stall: boolean) {
  const sockets: Array<{ ws: WebSocket; received: number; closed: { code: number; reason: string } | null }> = [];
  class CountingWebSocket extends WebSocket {
    constructor(url: string, protocols: string[], options?: WebSocket.ClientOptions) {
      super(url, protocols, options);
      const entry = { ws: this as WebSocket, received: 0, closed: null as { code: number; reason: string } | null };
      const first = stall && sockets.length === 0;
      sockets.push(entry);
      this.on('open', () => first && this.pause());
      this.on('message', (data: Buffer) => (entry.received += data.length));
      this.on('close', (code, reason) => (entry.closed = { code, reason: reason.toString() }));
    }
  }
  return { CountingWebSocket, sockets };
}

describe('an events client that stops reading', () => {
  const tempDir = useTempDirs();
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('is closed once the limit waits for it, the server holding no more; it reconnects; a reading client keeps everything', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const fake = await startFakeOllama();
    cleanups.push(() => fake.close());
    const { core, client } = createTestCore(path.join(dir, 'data'), { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
    cleanups.push(() => core.dispose());
    const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger: Logger = { debug() {}, info() {}, warn: (message, fields) => void warnings.push({ message, ...(fields ? { fields } : {}) }), error() {} };
    const staticDir = path.join(dir, 'static');
    fs.mkdirSync(staticDir);
    const host = await startWebHost({ core, port: 0, staticDir, logger });
    cleanups.push(() => host.close());

    // The renderer's transport, stalling; and a second one that reads.
    const { CountingWebSocket: StallingWebSocket, sockets } = countingSocket(true);
    const { CountingWebSocket: ReadingWebSocket, sockets: readingSockets } = countingSocket(false);
    const connection: boolean[] = [];
    const stalling = createWebTransport({
      baseUrl: host.url,
      token: host.token,
      origin: host.url,
      WebSocket: StallingWebSocket as never,
      onConnectionChange: (c) => {
        connection.push(c);
        useStatusStore.getState().setConnected(c);
      },
    });
    const readingConnection: boolean[] = [];
    const reading = createWebTransport({ baseUrl: host.url, token: host.token, origin: host.url, WebSocket: ReadingWebSocket as never, onConnectionChange: (c) => readingConnection.push(c) });
    cleanups.push(() => stalling.close(), () => reading.close());
    // The renderer's own wiring (main.tsx, app/init-stores.ts): after a reconnect, everything shown is read again.
    let resyncs = 0;
    useStatusStore.getState().init(createClient(stalling), () => resyncs++);
    const seenByStalling: EventMessage[] = [];
    stalling.subscribe((m) => seenByStalling.push(m));
    let deltasRead = 0;
    reading.subscribe((m) => m.event === 'message.delta' && deltasRead++);
    await vi.waitFor(() => expect([connection, readingConnection]).toEqual([[true], [true]]), WAIT);
    await vi.waitFor(() => expect(sockets[0]!.ws.readyState).toBe(WebSocket.OPEN), WAIT);

    const closedWarning = () => warnings.filter((w) => w.message === 'closed an events client that is not reading');
    // A pause between chunks, as a model's stream has: each delta goes out on its own turn of the event loop, which the
    // reading client (in this same process) also needs to read.
    const answer = async (i: number) => {
      fake.script({ chunks: Array.from({ length: CHUNKS_PER_ANSWER }, () => CHUNK), delayMsPerChunk: 2 });
      const sent = unwrap(await client.call('chat.send', { text: `Tell me about tea, part ${i}.`, incognito: true }));
      expect(sent.assistantMessage.content.length).toBe(ANSWER_BYTES - 1); // the reply is trimmed
      return sent.assistantMessage.id;
    };
    let answers = 0;
    while (closedWarning().length === 0 && answers < MAX_ANSWERS) await answer(answers++);
    // Closed once, with at most the limit waiting for it at that moment.
    expect(closedWarning()).toHaveLength(1);
    const { bufferedBytes, limitBytes } = closedWarning()[0]!.fields as { bufferedBytes: number; limitBytes: number };
    expect(limitBytes).toBe(EVENTS_SEND_BUFFER_LIMIT_BYTES);
    expect(bufferedBytes).toBeLessThanOrEqual(EVENTS_SEND_BUFFER_LIMIT_BYTES);
    // More events in volume: none of them is queued for the closed client.
    const afterClose: number[] = [];
    for (let i = 0; i < ANSWERS_AFTER_CLOSE; i++) afterClose.push(await answer(answers++));

    // The tab reads again: what was queued before the close, then the close with its reason; then it reconnects.
    sockets[0]!.ws.resume();
    await vi.waitFor(() => expect(sockets[0]!.closed).toEqual(NOT_READING), WAIT);
    await vi.waitFor(() => expect(connection).toEqual([true, false, true]), WAIT);
    expect(resyncs).toBe(1);
    const receivedBytes = sockets[0]!.received;
    const deltasOf = (messageIds: number[]) => seenByStalling.filter((m) => m.event === 'message.delta' && messageIds.includes(m.payload.messageId)).length;
    expect(deltasOf(afterClose)).toBe(0);
    // All it got is what was queued before the close (at most the limit in the server, the rest in the sockets' kernel
    // buffers); the client that reads got every event.
    await vi.waitFor(() => expect(deltasRead).toBe(answers * CHUNKS_PER_ANSWER), WAIT);
    const sentInAll = readingSockets[0]!.received;
    expect(receivedBytes).toBeLessThan(sentInAll - ANSWERS_AFTER_CLOSE * ANSWER_BYTES);
    // Events reach it again on the new connection.
    const after = unwrap(await client.call('thread.create', { title: 'after the reconnect' }));
    await vi.waitFor(() => expect(seenByStalling.some((m) => m.event === 'thread.created' && m.payload.thread.id === after.id)).toBe(true), WAIT);

    // The client that reads was never dropped; only the stalled one was closed.
    expect(readingConnection).toEqual([true]);
    expect(closedWarning()).toHaveLength(1);
    expect(sockets).toHaveLength(2);
  });
});
