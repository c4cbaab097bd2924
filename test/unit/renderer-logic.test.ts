/** The renderer's pure logic: how streamed messages merge, which URLs may become links, search text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract';
import { safeLinkUrl, displayUrl } from '../../renderer/src/markdown/safe-url';
import { codeLanguage, hastText } from '../../renderer/src/markdown/hast-text';
import { applyDelta, mergeOlder, replyState, retryableReply, upsertMessage } from '../../renderer/src/chat/chat-merge';
import { matchTitle, snippet } from '../../renderer/src/threads/search-text';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

function message(id: number, patch: Partial<Message> = {}): Message {
  return {
    id,
    threadId: 1,
    role: 'assistant',
    content: '',
    thinking: '',
    status: 'complete',
    errorCode: null,
    model: 'llama3.2',
    promptTokens: null,
    completionTokens: null,
    totalDurationMs: null,
    loadDurationMs: null,
    evalDurationMs: null,
    createdAt: 1000 + id,
    ...patch,
  };
}

describe('chat merge', () => {
  it('inserts in id order and replaces by id', () => {
    const list = upsertMessage(upsertMessage([message(3)], message(1)), message(2));
    expect(list.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(upsertMessage(list, message(2, { content: 'new' }))[1]!.content).toBe('new');
  });

  it('never lets a late "created" (streaming) overwrite a finished reply', () => {
    const done = [message(5, { status: 'complete', content: 'final' })];
    expect(upsertMessage(done, message(5, { status: 'streaming', content: '' }))).toBe(done);
  });

  it('appends deltas only to a reply that is still streaming', () => {
    const streaming = [message(5, { status: 'streaming', content: 'Hel' })];
    expect(applyDelta(streaming, 5, 'lo', '')[0]!.content).toBe('Hello');
    const done = [message(5, { status: 'stopped', content: 'Hel' })];
    expect(applyDelta(done, 5, 'lo', '')).toBe(done);
    expect(applyDelta(streaming, 99, 'x', '')).toBe(streaming);
  });

  it('deltas in any split give the same text, and the completed message wins over late deltas', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), fc.array(fc.string(), { maxLength: 5 }), (pieces, late) => {
        let list = [message(7, { status: 'streaming' })];
        for (const p of pieces) list = applyDelta(list, 7, p, '');
        expect(list[0]!.content).toBe(pieces.join(''));
        list = upsertMessage(list, message(7, { status: 'complete', content: 'FINAL' }));
        for (const p of late) list = applyDelta(list, 7, p, '');
        expect(list[0]!.content).toBe('FINAL');
      }),
    );
  });

  it('merges an older page in front, tolerating overlap', () => {
    const merged = mergeOlder([message(1), message(2), message(3)], [message(3), message(4)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('tells loading-model from streaming from idle', () => {
    expect(replyState([message(1, { status: 'streaming' })], true)).toBe('loading-model');
    expect(replyState([message(1, { status: 'streaming', thinking: 'hmm' })], true)).toBe('streaming');
    expect(replyState([message(1)], true)).toBe('waiting');
    expect(replyState([message(1)], false)).toBe('idle');
  });

  it('offers a retry only for a last answer that did not complete', () => {
    expect(retryableReply([message(1, { status: 'error' })])?.id).toBe(1);
    expect(retryableReply([message(1, { status: 'truncated' })])?.id).toBe(1);
    expect(retryableReply([message(1)])).toBeNull();
    expect(retryableReply([message(1, { status: 'error' }), message(2, { role: 'user' })])).toBeNull();
  });
});

describe('links in model output', () => {
  it('allows http, https and mailto; refuses scripts, data, files and relative URLs', () => {
    expect(safeLinkUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeLinkUrl('mailto:me@example.com')).toBe('mailto:me@example.com');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:x', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'vbscript:x', '/settings', '#top', '//evil.example', 'relative/path']) {
      expect(safeLinkUrl(bad), bad).toBeNull();
    }
  });

  it('whatever the input, the result is null or an http(s)/mailto URL', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.string().map((s) => `javascript:${s}`)), (raw) => {
        const safe = safeLinkUrl(raw);
        if (safe !== null) expect(new URL(safe).protocol).toMatch(/^(https?|mailto):$/);
      }),
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('shortens long URLs for display', () => {
    expect(displayUrl(`data:image/png;base64,${'A'.repeat(5000)}`).length).toBeLessThanOrEqual(120);
    expect(displayUrl('http://x.example/a b')).toBe('http://x.example/a b');
  });

  it('reads a code block’s text and language from its syntax tree', () => {
    const pre = {
      type: 'element',
      children: [
        {
          type: 'element',
          properties: { className: ['hljs', 'language-ts'] },
          children: [{ type: 'element', children: [{ type: 'text', value: 'const' }] }, { type: 'text', value: ' x = 1;\n' }],
        },
      ],
    };
    expect(hastText(pre)).toBe('const x = 1;\n');
    expect(codeLanguage(pre)).toBe('ts');
    expect(codeLanguage({ type: 'element', children: [{ type: 'element', properties: {}, children: [] }] })).toBeNull();
  });
});

describe('search text', () => {
  it('matches every word of the query in a title, in any order', () => {
    expect(matchTitle('Trip to Kyoto in spring', 'kyoto TRIP')).toBe(true);
    expect(matchTitle('Trip to Kyoto', 'kyoto paris')).toBe(false);
    expect(matchTitle('Anything', '   ')).toBe(false);
    expect(matchTitle('周末去京都旅行', '京都')).toBe(true);
  });

  it('excerpts around the first matching word, within the length', () => {
    const text = `${'a '.repeat(200)}needle ${'b '.repeat(200)}`;
    const excerpt = snippet(text, 'needle', 60);
    expect(excerpt).toContain('needle');
    expect(excerpt.length).toBeLessThanOrEqual(62);
    expect(snippet('short text', 'x')).toBe('short text');
  });
});
