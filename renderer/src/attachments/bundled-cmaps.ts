/**
 * The predefined CMaps PDF.js needs for CJK fonts (pdf-text.ts), shipped with the app: Vite copies pdfjs-dist's packed
 * CMaps into the build and this map gives each its URL there, on the app's own origin, so reading one is a fetch the
 * CSP allows ('self') and never a request to the network. Only the few a PDF names are read. A build that inlines
 * small assets (electron-vite's default below 4 kB, e.g. the vertical UniGB-UCS2-V) gives a data: URL instead, which
 * the CSP's connect-src refuses to fetch: that one is decoded here.
 */
import type { CMapSource } from './pdf-text';

const CMAP_DIR = '../../../node_modules/pdfjs-dist/cmaps/';
const urls = import.meta.glob<string>('../../../node_modules/pdfjs-dist/cmaps/*.bcmap', { eager: true, query: '?url', import: 'default' });

export const bundledCMaps: CMapSource = async (fileName) => {
  const url = urls[`${CMAP_DIR}${fileName}`];
  if (url === undefined) throw new Error(`No bundled CMap ${fileName}`);
  const inline = /^data:[^,]*;base64,(.*)$/s.exec(url);
  if (inline) return Uint8Array.from(atob(inline[1]!), (c) => c.charCodeAt(0));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Bundled CMap ${fileName}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
};
