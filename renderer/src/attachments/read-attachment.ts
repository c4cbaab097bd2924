/**
 * Turns a file the user picked or dropped into an attachment's text, on the user's side: the core never parses
 * files, and the text leaves this machine only in the request to the user's own model server. Plain text, Markdown
 * and code are read as UTF-8; anything that is not text (a NUL byte, or bytes that are not UTF-8) is refused with a
 * reason rather than sent as noise. A PDF's text is read with PDF.js (pdf-text.ts), loaded only when a PDF is picked;
 * `cMaps` is where its CJK CMaps come from (bundled-cmaps.ts in the page).
 */
import { ATTACHMENT_LIMITS } from '../../../shared/contract';
import type { CMapSource, PdfRefusal } from './pdf-text';

/** Larger files are refused before they are read: a text file this big would be cut to a sliver anyway. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;

/**
 * A PDF with more pages than this is refused before its pages are read: reading runs in the page's own thread, and
 * within the size limit a PDF of thousands of near-empty pages would freeze the window for long.
 */
export const MAX_PDF_PAGES = 2_000;

export type AttachmentRefusal = 'empty' | 'tooLarge' | 'binary' | 'tooLong' | PdfRefusal;

export type ReadAttachment =
  | { ok: true; attachment: { name: string; text: string; size: number } }
  | { ok: false; name: string; reason: AttachmentRefusal };

/** The bytes as text, or why they are not text. A BOM is dropped; line endings are kept as written. */
export function decodeText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; reason: 'binary' | 'empty' } {
  if (bytes.includes(0)) return { ok: false, reason: 'binary' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, reason: 'binary' };
  }
  return text.trim() === '' ? { ok: false, reason: 'empty' } : { ok: true, text };
}

function isPdf(file: { name: string; type: string }, head: Uint8Array): boolean {
  return file.type === 'application/pdf' || /\.pdf$/i.test(file.name) || new TextDecoder().decode(head.subarray(0, 5)) === '%PDF-';
}

export async function readAttachment(file: File, cMaps: CMapSource): Promise<ReadAttachment> {
  const name = file.name.slice(0, ATTACHMENT_LIMITS.maxNameChars) || 'file';
  if (file.size === 0) return { ok: false, name, reason: 'empty' };
  if (file.size > MAX_ATTACHMENT_BYTES) return { ok: false, name, reason: 'tooLarge' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isPdf(file, bytes)) {
    const { pdfText } = await import('./pdf-text');
    const read = await pdfText(bytes, { cMaps, maxChars: ATTACHMENT_LIMITS.maxTextChars, maxPages: MAX_PDF_PAGES });
    return read.ok ? { ok: true, attachment: { name, text: read.text, size: file.size } } : { ok: false, name, reason: read.reason };
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, name, reason: decoded.reason };
  if (decoded.text.length > ATTACHMENT_LIMITS.maxTextChars) return { ok: false, name, reason: 'tooLong' };
  return { ok: true, attachment: { name, text: decoded.text, size: file.size } };
}
