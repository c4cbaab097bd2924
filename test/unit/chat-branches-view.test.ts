import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract';
import { branchFrom, upsertMessage } from '../../renderer/src/chat/chat-merge';

function message(id: number, overrides: Partial<Message> = {}): Message {
  return {
    id,
    threadId: 1,
    role: id % 2 ? 'user' : 'assistant',
    content: `m${id}`,
    thinking: '',
    status: 'complete',
    errorCode: null,
    model: null,
    promptTokens: null,
    completionTokens: null,
    totalDurationMs: null,
    loadDurationMs: null,
    evalDurationMs: null,
    createdAt: id,
    ...overrides,
  };
}

describe('the view while a new version is written', () => {
  it('keeps what comes before the edited message; the new version and its reply then follow it', () => {
    const shown = [message(1), message(2), message(3), message(4)];
    const cut = branchFrom(shown, 3);
    expect(cut.map((m) => m.id)).toEqual([1, 2]);
    const after = upsertMessage(upsertMessage(cut, message(5, { role: 'user', version: { index: 2, count: 2 } })), message(6, { status: 'streaming' }));
    expect(after.map((m) => m.id)).toEqual([1, 2, 5, 6]);
    // Editing the first question leaves nothing before it.
    expect(branchFrom(shown, 1)).toEqual([]);
  });

  it('leaves the view alone for a message it does not show', () => {
    const shown = [message(1), message(2)];
    expect(branchFrom(shown, 9)).toBe(shown);
  });
});
