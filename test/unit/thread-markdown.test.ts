import { describe, expect, it } from 'vitest';
import { fileSlug, localDateTime, renderThreadMarkdown } from '../../electron/core/threads/thread-export';
import type { ExportedThread } from '../../shared/contract';

const at = Date.UTC(2026, 10, 24, 23, 30);
const thread: ExportedThread = {
  title: '  搬家\n计划 ',
  incognito: true,
  model: 'qwen2.5:7b',
  instructions: null,
  createdAt: at,
  lastActivityAt: at,
  summary: { content: '用户在波尔图。\n他要搬家。', coveredMessages: 2, editedByUser: false },
  messages: [
    { role: 'user', content: '下个月搬家', thinking: '', status: 'complete', model: null, createdAt: at, memoriesUsed: [], attachments: [] },
    {
      role: 'assistant',
      content: '好的',
      thinking: 'hmm',
      status: 'stopped',
      model: 'qwen2.5:7b',
      createdAt: at + 60_000,
      memoriesUsed: [
        { memoryId: 1, score: 0.9, reason: 'semantic', content: 'Lives\nin Porto' },
        { memoryId: 2, score: 0.2, reason: 'keyword', content: null },
      ],
      attachments: [],
    },
  ],
};

describe('a thread as Markdown', () => {
  it('writes the title, meta, summary as a quote, each message under who said it and when, in the user’s time zone and language', () => {
    const md = renderThreadMarkdown(thread, { language: 'zh-CN', timeZone: 'Asia/Shanghai' });
    expect(md).toBe(
      [
        '# 搬家 计划',
        '',
        '_开始于 2026-11-25 07:30 · qwen2.5:7b · 无痕_',
        '',
        '> **前文摘要:** 用户在波尔图。',
        '> 他要搬家。',
        '',
        '## 你 · 2026-11-25 07:30',
        '',
        '下个月搬家',
        '',
        '## Mnemo · qwen2.5:7b · 2026-11-25 07:31',
        '',
        '好的',
        '',
        '_(已停止)_',
        '',
        '_用到的记忆: “Lives in Porto” (意思相近); 一条已删除的记忆 (关键词匹配)_',
        '',
      ].join('\n'),
    );
  });

  it('names an untitled thread and leaves out an empty summary', () => {
    const md = renderThreadMarkdown({ ...thread, title: '', summary: { content: ' ', coveredMessages: 0, editedByUser: false }, incognito: false }, { language: 'en', timeZone: 'UTC' });
    expect(md.split('\n').slice(0, 3)).toEqual(['# Untitled conversation', '', '_started 2026-11-24 23:30 · qwen2.5:7b_']);
    expect(md).not.toContain('> ');
  });

  it('file names keep letters of every script and nothing a file system minds', () => {
    expect(fileSlug('Tea: 茶 / "plans"?')).toBe('tea-茶-plans');
    expect(fileSlug('../..')).toBe('');
    expect(fileSlug('x'.repeat(39) + ' yz')).toBe('x'.repeat(39));
  });

  it('local times cross midnight with the zone', () => {
    expect(localDateTime(at, 'UTC')).toBe('2026-11-24 23:30');
    expect(localDateTime(at, 'Asia/Shanghai')).toBe('2026-11-25 07:30');
  });

  it('says how many messages of other versions it leaves out (the JSON export keeps them), in the user’s language', () => {
    const user = thread.messages[0]!;
    // Two versions of the question; the second, with its answer, is shown.
    const branched: ExportedThread = {
      ...thread,
      summary: null,
      messages: [{ ...user, parent: null }, { ...user, content: '下周搬家', parent: null }, { ...thread.messages[1]!, parent: 1 }],
      active: 2,
    };
    const zh = renderThreadMarkdown(branched, { language: 'zh-CN', timeZone: 'UTC' });
    expect(zh).toContain('_这里是对话的当前版本。另有 1 条其他版本的消息（改过的提问、重新生成的回答）保留在 JSON 导出中。_');
    expect(zh).toContain('下周搬家');
    expect(zh).not.toContain('下个月搬家');
    expect(renderThreadMarkdown(branched, { language: 'en', timeZone: 'UTC' })).toContain('1 message of other versions (edited questions, regenerated answers) is kept in the JSON export.');
    expect(renderThreadMarkdown(thread, { language: 'en', timeZone: 'UTC' })).not.toContain('other versions');
  });
});
