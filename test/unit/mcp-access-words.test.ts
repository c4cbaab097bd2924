/**
 * Other apps' use of the memory in words (renderer/src/connected-apps/mcp-access-words.ts): a memory's access log line in
 * both languages, its time in the user's zone (the setting, not the machine's), the timeline's sentence for each read
 * tool and the app named on what it wrote.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpMemoryAccess, TimelineEvent } from '../../shared/contract';
import { translate, type Language } from '../../renderer/src/i18n/i18n';
import { accessLine, mcpReadMemoryIds, mcpReadText, mcpWriteAttribution } from '../../renderer/src/connected-apps/mcp-access-words';
import { useSettingsStore } from '../../renderer/src/settings/settings.store';

type SettingsState = ReturnType<typeof useSettingsStore.getState>;

const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour, minute);
const tFor = (language: Language) => (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate(language, key, params);
/** ICU writes narrow spaces before AM/PM; compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ');
const line = (entry: Partial<McpMemoryAccess>, now: number, language: Language = 'en') =>
  plain(accessLine({ client: 'LM Studio', reads: 0, writes: 0, lastAt: at(28, 10, 2), ...entry }, now, tFor(language), language));

const before = useSettingsStore.getState().settings;
const inZone = (timeZone: string) => useSettingsStore.setState({ settings: { timeZone } as SettingsState['settings'] });
afterEach(() => useSettingsStore.setState({ settings: before }));

function event(kind: string, data: Record<string, unknown>): TimelineEvent {
  return { id: 1, kind, memoryId: null, threadId: null, messageId: null, category: null, data, createdAt: at(28, 10) } as TimelineEvent;
}

describe("a memory's access log line", () => {
  it('says who read it, how often and when last: the time alone today, the date on another day', () => {
    inZone('UTC');
    expect(line({ reads: 3 }, at(28, 12))).toBe('LM Studio read this 3 times, last at 10:02 AM');
    expect(line({ reads: 1 }, at(29, 12))).toBe('LM Studio read this once, last on Nov 28, 2026, 10:02 AM');
  });

  it('joins reads and writes as the language lists them, and says writes alone', () => {
    inZone('UTC');
    expect(line({ client: 'Jan', reads: 1, writes: 2 }, at(28, 12))).toBe('Jan read this once and wrote it twice, last at 10:02 AM');
    expect(line({ writes: 5 }, at(28, 12))).toBe('LM Studio wrote it 5 times, last at 10:02 AM');
  });

  it("reads the day and the time in the user's zone, not the machine's", () => {
    const late = { reads: 2, lastAt: at(27, 23, 30) };
    inZone('UTC');
    expect(line(late, at(28, 1))).toBe('LM Studio read this twice, last on Nov 27, 2026, 11:30 PM');
    // 07:30 and 09:00 on the 28th in Shanghai: the same day there.
    inZone('Asia/Shanghai');
    expect(line(late, at(28, 1))).toBe('LM Studio read this twice, last at 7:30 AM');
  });

  it('says the same in Chinese', () => {
    inZone('UTC');
    expect(line({ reads: 3 }, at(28, 12), 'zh-CN')).toBe('LM Studio 读取了 3 次，最近一次在 10:02');
    expect(line({ reads: 3, writes: 1 }, at(28, 12), 'zh-CN')).toBe('LM Studio 读取了 3 次和写入了 1 次，最近一次在 10:02');
  });
});

describe("the timeline's words for an app's read", () => {
  const t = tFor('en');
  const read = (tool: string, items: number, memoryIds: number[] = []) => event('mcp_read', { client: 'Cursor', tool, items, memoryIds });

  it('names the app, what it asked and how much it was given, for each tool', () => {
    expect(mcpReadText(read('search_memory', 3, [4, 5, 6]), t)).toBe('Cursor searched your memories and was given 3');
    expect(mcpReadText(read('search_memory', 0), t)).toBe('Cursor searched your memories and found nothing');
    expect(mcpReadText(read('list_recent_memories', 1, [9]), t)).toBe('Cursor was given your most recent memory');
    expect(mcpReadText(read('get_profile', 1), t)).toBe('Cursor read your profile');
    expect(mcpReadText(read('get_profile', 0), t)).toBe('Cursor asked for your profile; there is none yet');
    expect(mcpReadText(read('search_conversations', 2), t)).toBe('Cursor searched your past conversations and was given 2 messages');
    expect(mcpReadText(read('search_conversations', 2), tFor('zh-CN'))).toBe('Cursor 搜索了你过去的对话，得到 2 条消息');
  });

  it("still reads as a read when a newer core's tool is unknown here", () => {
    expect(mcpReadText(read('search_everything', 2), t)).toBe('Cursor read from your memory');
  });

  it('lists the memories given, ids only, ignoring anything else', () => {
    expect(mcpReadMemoryIds(read('search_memory', 2, [4, 5]))).toEqual([4, 5]);
    expect(mcpReadMemoryIds(event('mcp_read', { client: 'Cursor', memoryIds: [4, 'x', null] }))).toEqual([4]);
    expect(mcpReadMemoryIds(event('mcp_read', { client: 'Cursor' }))).toEqual([]);
  });
});

describe('the app named on what it wrote', () => {
  const t = tFor('en');
  it('names the app on a learned or proposed memory it wrote, and nothing otherwise', () => {
    expect(mcpWriteAttribution(event('learned', { origin: 'extraction', mcpClient: 'Jan' }), t)).toBe('written by Jan (connected app)');
    expect(mcpWriteAttribution(event('proposed', { origin: 'extraction', mcpClient: 'Jan' }), t)).toBe('proposed by Jan (connected app), waiting for your review');
    expect(mcpWriteAttribution(event('learned', { origin: 'extraction' }), t)).toBeNull();
  });
});
