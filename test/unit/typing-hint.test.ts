import { describe, expect, it } from 'vitest';
import { createTypingHint } from '../../renderer/src/chat/typing-hint';

function hint() {
  let t = 0;
  let sent = 0;
  const type = createTypingHint(() => sent++, { intervalMs: 1000, now: () => t });
  return { type, at: (ms: number) => (t = ms), sent: () => sent };
}

describe('typing hint (chat.typing from the composer)', () => {
  it('the first keystroke hints at once, then at most once a second while the draft changes', () => {
    const h = hint();
    h.type('H');
    expect(h.sent()).toBe(1);
    h.at(300);
    h.type('He');
    h.at(900);
    h.type('Hel');
    expect(h.sent()).toBe(1);
    h.at(1000);
    h.type('Hell');
    expect(h.sent()).toBe(2);
    h.at(5000);
    h.type('Hello');
    expect(h.sent()).toBe(3);
  });

  it('an unchanged or empty draft is not typing (a caret moved, the draft sent and emptied)', () => {
    const h = hint();
    h.type('Hi');
    h.at(2000);
    h.type('Hi');
    h.type('');
    h.type('   ');
    expect(h.sent()).toBe(1);
    h.at(4000);
    h.type('Hi!');
    expect(h.sent()).toBe(2);
  });
});
