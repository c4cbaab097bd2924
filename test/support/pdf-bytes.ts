/**
 * Small PDFs written byte by byte, for the attachment tests: the objects of a real file (catalog, page tree, pages,
 * fonts, content streams) with a correct cross-reference table, so PDF.js reads them as it reads any PDF and no file
 * has to be checked in. Latin text uses Helvetica (a standard font, nothing embedded); Chinese text a Type0 font with
 * the predefined CMap UniGB-UCS2-H and no ToUnicode map, the way Chinese office software writes STSong: the reader
 * needs the bundled CMaps to turn its codes back into characters.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A page's text: Latin lines (Helvetica) and Chinese lines (STSong through UniGB-UCS2-H). */
export interface PdfPage {
  lines?: string[];
  chineseLines?: string[];
  /** Draws a 1×1 grey image over the page: a scanned page is only this. */
  image?: boolean;
}

const latin = (s: string) => `(${s.replace(/([\\()])/g, '\\$1')})`;
/** UCS-2 big-endian hex: what UniGB-UCS2-H reads (BMP characters only, as the CMap's name says). */
const ucs2 = (s: string) => `<${[...s].map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join('')}>`;

function stream(body: string, dict = ''): string {
  return `<< ${dict}/Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`;
}

export function pdfBytes(pages: PdfPage[], options: { trailer?: string; extraObjects?: string[] } = {}): Uint8Array {
  // 1 catalog, 2 page tree, 3 Helvetica, 4 Type0 font, 5 its CIDFont, 6 its descriptor, 7 the image, then per page: page, content.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // page tree, once the page ids are known
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 6 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
    stream('\u0080', '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 '),
  ];
  const kids: number[] = [];
  for (const page of pages) {
    const ops: string[] = [];
    if (page.image) ops.push('q 612 0 0 792 0 0 cm /Im1 Do Q');
    let y = 740;
    for (const line of page.lines ?? []) ops.push(`BT /F1 12 Tf 72 ${(y -= 16)} Td ${latin(line)} Tj ET`);
    for (const line of page.chineseLines ?? []) ops.push(`BT /F2 12 Tf 72 ${(y -= 16)} Td ${ucs2(line)} Tj ET`);
    const pageId = objects.length + 1;
    kids.push(pageId);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> /XObject << /Im1 7 0 R >> >> /Contents ${pageId + 1} 0 R >>`,
      stream(ops.join('\n')),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  objects.push(...(options.extraObjects ?? []));

  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailer ?? ''}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/**
 * A PDF locked with a password (the standard security handler, RC4 40-bit): its /U entry matches no key made from
 * the empty password, so a reader must ask for one, as for any PDF protected by an open password.
 */
export function lockedPdfBytes(): Uint8Array {
  const hex32 = (byte: string) => `<${byte.repeat(32)}>`;
  const objectCount = 9; // pdfBytes' 7 fixed objects + one page (2 objects)
  return pdfBytes([{ lines: ['Secret plans'] }], {
    extraObjects: [`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O ${hex32('5a')} /U ${hex32('a5')} >>`],
    trailer: `/Encrypt ${objectCount + 1} 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] `,
  });
}

/** The packed CMaps shipped in pdfjs-dist, read from disk: what the page's bundled-cmaps.ts serves from the app. */
export async function cMapsFromPdfjsDist(fileName: string): Promise<Uint8Array> {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'cmaps');
  return new Uint8Array(await readFile(path.join(dir, fileName)));
}
