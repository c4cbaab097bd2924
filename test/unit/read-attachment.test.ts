import { describe, expect, it } from 'vitest';
import { decodeText, MAX_ATTACHMENT_BYTES, readAttachment as readWithCMaps } from '../../renderer/src/attachments/read-attachment';
import { cMapsFromPdfjsDist, pdfBytes } from '../support/pdf-bytes';

const readAttachment = (f: File) => readWithCMaps(f, cMapsFromPdfjsDist);

const file = (parts: ConstructorParameters<typeof File>[0], name: string, type = '') => new File(parts, name, { type });

describe('reading a picked or dropped file as an attachment', () => {
  it('reads Markdown, code and Chinese text as UTF-8, BOM dropped', async () => {
    const md = await readAttachment(file(['# Notes\n\n- one\n'], 'notes.md', 'text/markdown'));
    expect(md).toEqual({ ok: true, attachment: { name: 'notes.md', text: '# Notes\n\n- one\n', size: 15 } });
    const zh = await readAttachment(file([new Uint8Array([0xef, 0xbb, 0xbf]), '会议纪要：下周发布。'], '纪要.txt'));
    expect(zh.ok && zh.attachment.text).toBe('会议纪要：下周发布。');
    const code = await readAttachment(file(['export const a = 1;\n'], 'a.ts'));
    expect(code.ok).toBe(true);
  });

  it('refuses binary content: a NUL byte, or bytes that are not UTF-8', async () => {
    expect(await readAttachment(file([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], 'photo.txt'))).toEqual({ ok: false, name: 'photo.txt', reason: 'binary' });
    expect(decodeText(new Uint8Array([0x61, 0xff, 0xfe, 0x62]))).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(new Uint8Array([0xe4, 0xbc]))).toEqual({ ok: false, reason: 'binary' }); // a cut multi-byte character
  });

  it('refuses empty and whitespace-only files, huge files before reading them, and a PDF it cannot read', async () => {
    expect(await readAttachment(file([], 'empty.md'))).toMatchObject({ ok: false, reason: 'empty' });
    expect(await readAttachment(file(['  \n\n'], 'blank.md'))).toMatchObject({ ok: false, reason: 'empty' });
    expect(await readAttachment(file([new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x61)], 'huge.log'))).toMatchObject({ ok: false, reason: 'tooLarge' });
    expect(await readAttachment(file(['%PDF-1.4\n%âãÏÓ\n'], 'paper.bin'))).toMatchObject({ ok: false, name: 'paper.bin', reason: 'pdfBroken' });
    const hugePdf = new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x20);
    hugePdf.set(pdfBytes([{ lines: ['big'] }]));
    expect(await readAttachment(file([hugePdf], 'huge.pdf', 'application/pdf'))).toMatchObject({ ok: false, reason: 'tooLarge' });
  }, 30_000);

  it('reads a PDF (by its type, its name or its first bytes) as its text, Chinese included', async () => {
    const bytes = pdfBytes([{ lines: ['Trip plan'], chineseLines: ['周六去杭州'] }]);
    for (const f of [file([bytes], 'plan.pdf'), file([bytes], 'plan', 'application/pdf'), file([bytes], 'download.bin')]) {
      const read = await readAttachment(f);
      expect(read).toEqual({ ok: true, attachment: { name: f.name, text: expect.stringContaining('Trip plan'), size: bytes.length } });
      expect(read.ok && read.attachment.text).toContain('周六去杭州');
    }
  }, 30_000);

  it('refuses text longer than an attachment may hold', async () => {
    expect(await readAttachment(file(['ab'.repeat(250_001)], 'long.txt'))).toMatchObject({ ok: false, reason: 'tooLong' });
  });
});
