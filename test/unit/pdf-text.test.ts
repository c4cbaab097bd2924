import { describe, expect, it } from 'vitest';
import { pdfText } from '../../renderer/src/attachments/pdf-text';
import { MAX_PDF_PAGES } from '../../renderer/src/attachments/read-attachment';
import { cMapsFromPdfjsDist, lockedPdfBytes, pdfBytes } from '../support/pdf-bytes';

const read = (bytes: Uint8Array, maxChars = 500_000) => pdfText(bytes, { cMaps: cMapsFromPdfjsDist, maxChars, maxPages: MAX_PDF_PAGES });

describe('reading the text of a PDF in the page (PDF.js, nothing fetched)', () => {
  it('reads Helvetica text, page after page, lines kept', async () => {
    const result = await read(pdfBytes([{ lines: ['Quarterly report', 'Revenue grew (a lot).'] }, { lines: ['Page two: next steps'] }]));
    expect(result).toEqual({ ok: true, pages: 2, text: expect.stringMatching(/^Quarterly report\s+Revenue grew \(a lot\)\.\s+Page two: next steps$/) });
  }, 30_000);

  it('reads Chinese set in a Type0 font through the predefined CMap UniGB-UCS2-H (the bundled CMaps)', async () => {
    const bytes = pdfBytes([{ chineseLines: ['会议纪要：下周五发布新版本。'], lines: ['Mnemo'] }]);
    const result = await read(bytes);
    expect(result.ok && result.text).toContain('会议纪要：下周五发布新版本。');
    // The CMaps are what makes it readable: without them PDF.js has no way back from the codes to characters.
    const asked: string[] = [];
    const none = await pdfText(pdfBytes([{ chineseLines: ['会议纪要'] }]), {
      cMaps: async (name) => {
        asked.push(name);
        throw new Error('no CMaps here');
      },
      maxChars: 1000,
      maxPages: 1,
    });
    expect(asked).toContain('UniGB-UCS2-H.bcmap');
    expect(none).toEqual({ ok: false, reason: 'pdfNoText' });
  }, 30_000);

  it('refuses a scan (pages that are only images) as having no text layer', async () => {
    expect(await read(pdfBytes([{ image: true }, { image: true }]))).toEqual({ ok: false, reason: 'pdfNoText' });
  }, 30_000);

  it('refuses a password-protected PDF as locked, and a damaged one as broken', async () => {
    expect(await read(lockedPdfBytes())).toEqual({ ok: false, reason: 'pdfLocked' });
    const garbage = new TextEncoder().encode('%PDF-1.7\nthis is not a PDF at all, only its first line\n');
    expect(await read(garbage)).toEqual({ ok: false, reason: 'pdfBroken' });
    expect(await read(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]))).toEqual({ ok: false, reason: 'pdfBroken' });
  }, 30_000);

  it('refuses text longer than an attachment may hold, and more pages than are read', async () => {
    expect(await read(pdfBytes([{ lines: ['0123456789'] }, { lines: ['0123456789'] }]), 15)).toEqual({ ok: false, reason: 'tooLong' });
    const many = pdfBytes(Array.from({ length: MAX_PDF_PAGES + 1 }, () => ({ lines: ['x'] })));
    expect(await read(many)).toEqual({ ok: false, reason: 'pdfTooManyPages' });
  }, 60_000);
});
