import { describe, expect, it } from 'vitest';
import { translate, type Language } from '../../renderer/src/i18n/i18n';
import { queueLine } from '../../renderer/src/status/queue-line';
import type { QueueState } from '../../renderer/src/status/status.store';

const idle: QueueState = { queued: 0, running: null, runningElsewhere: 0, stalled: 0, dead: 0, paused: null, learning: { waitingFor: null, behind: 0 } };

function say(queue: Partial<QueueState>, language: Language = 'en'): string {
  const { head, parts } = queueLine({ ...idle, ...queue });
  const text = parts.map((p) => translate(language, p.key, p.params)).join(' · ');
  return head ? `${translate(language, head.key)}: ${text}` : text;
}

describe('the status bar line on background work', () => {
  it('names the running job and the queue when nothing holds learning', () => {
    expect(say({})).toBe('Background: idle');
    expect(say({ running: { id: 1, kind: 'title' }, queued: 2 })).toBe('Background: naming a thread · 2 queued');
  });

  it('while the chat holds the model, says so instead of naming the job that waits in the lane', () => {
    const held = { learning: { waitingFor: 'chat' as const, behind: 1 } };
    expect(say({ ...held, running: { id: 1, kind: 'extract' } })).toBe('Learning paused while you chat');
    expect(say({ ...held, queued: 1 })).toBe('Learning paused while you chat');
    // Nothing to hold: a chat is just a chat.
    expect(say(held)).toBe('Background: idle');
  });

  it('says why learning waits for each hold, and the paused schedule even with nothing queued', () => {
    const work = { queued: 1 };
    expect(say({ ...work, learning: { waitingFor: 'away', behind: 0 } })).toBe('Learning waits until you step away');
    expect(say({ ...work, learning: { waitingFor: 'battery', behind: 0 } })).toBe('Learning waits for mains power');
    expect(say({ learning: { waitingFor: 'paused', behind: 0 } })).toBe('Learning paused');
  });

  it('from two exchanges not yet learned from, says how far behind learning is', () => {
    expect(say({ queued: 3, learning: { waitingFor: 'paused', behind: 3 } })).toBe('Learning paused · about 3 exchanges behind');
    expect(say({ running: { id: 1, kind: 'extract' }, queued: 1, learning: { waitingFor: null, behind: 2 } })).toBe('Background: learning from a reply · about 2 exchanges behind · 1 queued');
    expect(say({ queued: 1, learning: { waitingFor: null, behind: 1 } })).toBe('Background: 1 queued');
  });

  it('a queue paused for a broken model server says that first; failures stay visible under a hold', () => {
    expect(say({ queued: 2, paused: { code: 'OLLAMA_UNREACHABLE', message: 'x' }, learning: { waitingFor: 'chat', behind: 2 } })).toBe('Background paused (2 waiting)');
    expect(say({ queued: 1, dead: 1, learning: { waitingFor: 'chat', behind: 0 } })).toBe('Learning paused while you chat · 1 failed');
  });

  it('speaks Chinese too', () => {
    expect(say({ queued: 3, learning: { waitingFor: 'chat', behind: 3 } }, 'zh-CN')).toBe('聊天期间暂停学习 · 约有 3 轮对话尚未学习');
  });
});
