/**
 * The text of a PDF, read on the user's side with PDF.js (Mozilla's reader, through unpdf's build of it). That build
 * runs PDF.js in the calling thread, so no worker script is loaded; `isEvalSupported: false` keeps it from compiling
 * code (the CSP in shared/security.ts allows no eval), and it fetches nothing by itself: the predefined CMaps that
 * CJK fonts need (a font encoded UniGB-UCS2-H is read through UniGB-UCS2-H and Adobe-GB1-UCS2) are handed over by
 * `cMaps`, a port the page fills from the app's own bundled files (bundled-cmaps.ts) and Node tests from pdfjs-dist's
 * folder. Without them such text comes out empty, not wrong.
 *
 * A PDF that yields no text is refused with its reason rather than attached as nothing: a scan is pictures of pages
 * (it has no text layer), a locked one needs its password, a broken one cannot be read at all.
 */
import { getDocumentProxy } from 'unpdf';

/** Reads a predefined CMap by its file name ("UniGB-UCS2-H.bcmap"): packed (binary) CMaps, as pdfjs-dist ships them. */
export type CMapSource = (fileName: string) => Promise<Uint8Array>;

export type PdfRefusal = 'pdfNoText' | 'pdfLocked' | 'pdfBroken' | 'pdfTooManyPages' | 'tooLong';

export type PdfText = { ok: true; text: string; pages: number } | { ok: false; reason: PdfRefusal };

/** PDF.js's errors are told apart by name (PasswordException, InvalidPDFException, …), not by class. */
function refusalFor(error: unknown): PdfRefusal {
  return error instanceof Error && error.name === 'PasswordException' ? 'pdfLocked' : 'pdfBroken';
}

/** Runs of spaces become one; a page's lines stay lines; pages are separated by a blank line. */
function tidy(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The text of every page, in order, or why there is none. A PDF of more than `maxPages` is refused before any page
 * is read, and reading stops as soon as the text passes `maxChars` (the attachment limit): the rest would be refused.
 */
export async function pdfText(bytes: Uint8Array, options: { cMaps: CMapSource; maxChars: number; maxPages: number }): Promise<PdfText> {
  const { cMaps } = options;
  // PDF.js asks its BinaryDataFactory for CMaps when `useWorkerFetch` is off; anything else (standard font data,
  // wasm decoders) is refused here, and PDF.js reads text without them.
  class BundledData {
    async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
      if (kind !== 'cMapUrl') throw new Error(`${kind} is not bundled`);
      return cMaps(filename);
    }
  }
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, {
      useWorkerFetch: false,
      BinaryDataFactory: BundledData,
      cMapPacked: true,
      useWasm: false,
      disableFontFace: true,
      isEvalSupported: false,
      // Errors only: warnings name fonts and objects of the user's file, and the console is no place for them.
      verbosity: 0,
    });
  } catch (error) {
    return { ok: false, reason: refusalFor(error) };
  }
  try {
    if (pdf.numPages > options.maxPages) return { ok: false, reason: 'pdfTooManyPages' };
    const pages: string[] = [];
    let length = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      page.cleanup();
      pages.push(text);
      length += text.length;
      if (length > options.maxChars) return { ok: false, reason: 'tooLong' };
    }
    const text = tidy(pages.join('\n\n'));
    if (text === '') return { ok: false, reason: 'pdfNoText' };
    return text.length > options.maxChars ? { ok: false, reason: 'tooLong' } : { ok: true, text, pages: pdf.numPages };
  } catch (error) {
    return { ok: false, reason: refusalFor(error) };
  } finally {
    await pdf.destroy();
  }
}
