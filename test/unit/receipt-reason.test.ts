import { describe, expect, it } from 'vitest';
import { receiptReason } from '../../renderer/src/chat/receipt-reason';

describe('receipt reason in words', () => {
  it('names the matched words of a keyword match, in both languages', () => {
    expect(receiptReason({ reason: 'keyword', matched: ['tea'] }, 'en')).toBe('matches “tea”');
    expect(receiptReason({ reason: 'keyword', matched: ['Porto', 'tea'] }, 'en')).toBe('matches “Porto” and “tea”');
    expect(receiptReason({ reason: 'keyword', matched: ['a', 'b', 'c'] }, 'en')).toBe('matches “a”, “b”, and “c”');
    expect(receiptReason({ reason: 'keyword', matched: ['咖啡'] }, 'zh-CN')).toBe('包含你提到的“咖啡”');
    expect(receiptReason({ reason: 'keyword', matched: ['咖啡', '绿茶'] }, 'zh-CN')).toBe('包含你提到的“咖啡”和“绿茶”');
  });

  it('falls back to the reason alone when no words were recorded (receipts from before they were)', () => {
    expect(receiptReason({ reason: 'keyword' }, 'en')).toBe('shares words with your message');
    expect(receiptReason({ reason: 'keyword', matched: [] }, 'zh-CN')).toBe('与你的消息有相同的词');
    expect(receiptReason({ reason: 'pinned', matched: ['tea'] }, 'en')).toBe('pinned: always used');
    expect(receiptReason({ reason: 'semantic' }, 'zh-CN')).toBe('与你的消息意思相近');
  });
});
