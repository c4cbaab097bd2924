/**
 * When the status store asks the model server again (renderer/src/status/status.store.ts): a reply that broke off or
 * failed for a model reason, and a queue that pauses for a new reason, turn the bar's model line fresh at once, not
 * at the next reload or message. The core is a fake client that counts models.list and lets the test send events.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import type { Message } from '../../shared/contract';
import { failureChangesModels, useStatusStore } from '../../renderer/src/status/status.store';

function fakeCore() {
  const listeners = new Map<string, Array<(payload: unknown) => void>>();
  let reachable = true;
  let asked = 0;
  const client = {
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () => {};
    },
    call: async (name: string) => {
      if (name === 'models.list') {
        asked++;
        return { ok: true, value: { reachable, api: 'ollama', host: 'http://127.0.0.1:11434', models: [], chatModel: { name: 'llama3.2', installed: reachable } } };
      }
      if (name === 'queue.status') return { ok: true, value: { paused: null, dead: 0 } };
      return { ok: false, error: { code: 'NOT_FOUND', message: name } };
    },
  } as unknown as Client;
  return {
    client,
    emit: (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload)),
    asked: () => asked,
    setReachable: (value: boolean) => void (reachable = value),
  };
}

/** Lets the store's pending calls (fake, already resolved) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const reply = (status: Message['status'], errorCode: string | null) => ({ message: { id: 2, threadId: 1, role: 'assistant', status, errorCode } as Message, memoriesUsed: [] });
const paused = (code: string) => ({ paused: { code, message: 'the core’s words' }, dead: 0 });

describe('the status store asks the model server again', () => {
  it('after a reply that failed for a model reason (a stream broken off too), not after others', async () => {
    const core = fakeCore();
    useStatusStore.getState().init(core.client, () => {});
    await settle();
    const atStart = core.asked();
    expect(atStart).toBe(1);

    core.setReachable(false);
    core.emit('message.completed', reply('error', 'LLM_STREAM_ERROR'));
    // The failed send's own envelope for the same failure: the check already under way answers for it.
    useStatusStore.getState().recheckAfterFailure('LLM_STREAM_ERROR');
    await settle();
    expect(core.asked()).toBe(atStart + 1);
    expect(useStatusStore.getState().models?.reachable).toBe(false);

    // Not after a failure of another kind, nor a reply the user stopped.
    core.emit('message.completed', reply('error', 'LLM_BAD_OUTPUT'));
    core.emit('message.completed', reply('stopped', null));
    await settle();
    expect(core.asked()).toBe(atStart + 1);

    // A reply that succeeds while the server is marked unreachable: the bar is stale, asked again.
    core.setReachable(true);
    core.emit('message.completed', reply('complete', null));
    await settle();
    expect(core.asked()).toBe(atStart + 2);
    expect(useStatusStore.getState().models?.reachable).toBe(true);
    core.emit('message.completed', reply('complete', null));
    await settle();
    expect(core.asked()).toBe(atStart + 2);

    // The queue pausing for a new reason, changing reason, and resuming; not a repeat of the same pause.
    core.emit('queue.changed', paused('OLLAMA_UNREACHABLE'));
    await settle();
    expect(core.asked()).toBe(atStart + 3);
    core.emit('queue.changed', paused('OLLAMA_UNREACHABLE'));
    await settle();
    expect(core.asked()).toBe(atStart + 3);
    core.emit('queue.changed', paused('MODEL_NOT_FOUND'));
    await settle();
    expect(core.asked()).toBe(atStart + 4);
    core.emit('queue.changed', { paused: null, dead: 0 });
    await settle();
    expect(core.asked()).toBe(atStart + 5);
  });

  it('the failures that change what models.list says', () => {
    for (const code of ['OLLAMA_UNREACHABLE', 'LLM_UNREACHABLE', 'MODEL_NOT_FOUND', 'MODEL_LOAD_TIMEOUT', 'LLM_STREAM_ERROR']) expect(failureChangesModels(code), code).toBe(true);
    for (const code of ['LLM_BAD_OUTPUT', 'CONFLICT', 'ABORTED', 'INTERNAL', '', null]) expect(failureChangesModels(code), String(code)).toBe(false);
  });
});
