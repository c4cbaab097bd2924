/**
 * "New thread" and the words typed before the core has made it (renderer/src/app/new-thread.ts): the composer still
 * shows the old thread until thread.create answers, and what the user typed meanwhile moves to the new thread.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../shared/client';
import type { Thread } from '../../shared/contract';
import { startNewThread } from '../../renderer/src/app/new-thread';
import { useChatStore } from '../../renderer/src/chat/chat.store';
import { useThreadsStore } from '../../renderer/src/threads/threads.store';

function threadRow(id: number, messageCount: number): Thread {
  return { id, title: `Thread ${id}`, createdAt: 1, updatedAt: 1, messageCount, incognito: false } as unknown as Thread;
}

/** A core whose thread.create answers only when the test lets it. */
function slowCreate() {
  let answer: (thread: Thread) => void = () => {};
  const client = {
    on: () => () => {},
    call: (name: string) => {
      if (name !== 'thread.create') throw new Error(`unexpected ${name}`);
      return new Promise((resolve) => (answer = (thread) => resolve({ ok: true, value: thread })));
    },
  } as unknown as Client;
  return { client, answer: (thread: Thread) => answer(thread) };
}

const chat = () => useChatStore.getState();

describe('new thread', () => {
  let core: ReturnType<typeof slowCreate>;
  beforeEach(() => {
    core = slowCreate();
    useThreadsStore.setState({ client: core.client, threads: [threadRow(1, 4)], selectedId: 1 });
    useChatStore.setState({ drafts: { 1: 'A note for later' } });
  });

  it('words typed while the new thread is being created go to the new thread; the old draft stays as it was', async () => {
    const started = startNewThread();
    chat().setDraft(1, 'A note for later' + 'What should I cook');
    core.answer(threadRow(2, 0));
    await started;
    expect(useThreadsStore.getState().selectedId).toBe(2);
    expect(chat().drafts[2]).toBe('What should I cook');
    expect(chat().drafts[1]).toBe('A note for later');
  });

  it('nothing typed meanwhile: both drafts stay as they are', async () => {
    const started = startNewThread();
    core.answer(threadRow(2, 0));
    await started;
    expect(chat().drafts[1]).toBe('A note for later');
    expect(chat().drafts[2] ?? '').toBe('');
  });

  it('a draft changed otherwise meanwhile (not only added to) stays in its thread', async () => {
    const started = startNewThread();
    chat().setDraft(1, 'A different note');
    core.answer(threadRow(2, 0));
    await started;
    expect(chat().drafts[1]).toBe('A different note');
    expect(chat().drafts[2] ?? '').toBe('');
  });
});
