/**
 * Fonts for the test browser only (issue 29); the app keeps the system's fonts. Headless Chromium on a machine without
 * CJK fonts draws Chinese as boxes (the zh-CN screenshots did), and a fresh machine may have no fonts at all. So the
 * test browser gets a fontconfig file (`FONTCONFIG_FILE`) that keeps the system's configuration and adds:
 *   - Noto Sans SC from npm (`@fontsource/noto-sans-sc`), regular and bold, as TrueType: Chromium takes no WOFF from
 *     fontconfig, so each subset's WOFF 1.0 file is unpacked to the sfnt it wraps (below), once per package version,
 *     into `node_modules/.cache/mnemo-cjk-font-<version>/` (built aside, then renamed: never half-written);
 *   - the folders the browser brings (the npm Chromium's Open Sans, support/../../support/chromium-lookup.ts).
 * Being system fonts to the browser, they serve every element through fallback (buttons, inputs, monospace too),
 * where a web font would serve only what names it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

const WEIGHTS = [400, 700];

/** Writes `fonts.conf` into `folder` (the browser profile's) and returns its path for `FONTCONFIG_FILE`. */
export function testFontConfig(folder: string, browserFontDirs: readonly string[]): string {
  const cjk = cjkFontFolder();
  const file = path.join(folder, 'fonts.conf');
  fs.writeFileSync(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      ...[cjk, ...browserFontDirs].map((dir) => `  <dir>${dir}</dir>`),
      `  <cachedir>${path.join(path.dirname(cjk), 'mnemo-fontconfig-cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  return file;
}

function cjkFontFolder(): string {
  const files = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-sc/400.css')), 'files');
  const version = (JSON.parse(fs.readFileSync(path.join(files, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const cache = path.join(files, '..', '..', '..', '.cache');
  const folder = path.join(cache, `mnemo-cjk-font-${version}`);
  if (fs.existsSync(folder)) return folder;
  fs.mkdirSync(cache, { recursive: true });
  const staging = fs.mkdtempSync(`${folder}.tmp-`);
  try {
    const woffs = fs.readdirSync(files).filter((name) => WEIGHTS.some((weight) => name.endsWith(`-${weight}-normal.woff`)));
    if (woffs.length === 0) throw new Error('@fontsource/noto-sans-sc has no WOFF files: run npm install');
    for (const name of woffs) fs.writeFileSync(path.join(staging, name.replace(/\.woff$/, '.ttf')), sfntFromWoff(fs.readFileSync(path.join(files, name))));
    try {
      fs.renameSync(staging, folder);
    } catch (error) {
      if (!fs.existsSync(folder)) throw error; // another run finished first: its folder is whole
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

/** WOFF 1.0 (https://www.w3.org/TR/WOFF/) to the TrueType/OpenType file it wraps: each table inflated, same order. */
export function sfntFromWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const entry = 44 + i * 20;
    const [offset, compressed, length] = [woff.readUInt32BE(entry + 4), woff.readUInt32BE(entry + 8), woff.readUInt32BE(entry + 12)];
    const stored = woff.subarray(offset, offset + compressed);
    return { tag: woff.subarray(entry, entry + 4), checksum: woff.readUInt32BE(entry + 16), data: compressed < length ? zlib.inflateSync(stored) : stored };
  });
  const header = Buffer.alloc(12 + count * 16);
  const power = 2 ** Math.floor(Math.log2(count));
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const entry = 12 + i * 16;
    table.tag.copy(header, entry);
    header.writeUInt32BE(table.checksum, entry + 4);
    header.writeUInt32BE(offset, entry + 8);
    header.writeUInt32BE(table.data.length, entry + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}
