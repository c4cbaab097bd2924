import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sfntFromWoff } from '../e2e/support/test-fonts';

const fontFiles = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-sc/400.css')), 'files');

/** The OpenType checksum of a table: its 32-bit words summed (https://learn.microsoft.com/typography/opentype/spec/otff). */
function checksum(data: Buffer): number {
  const padded = Buffer.alloc((data.length + 3) & ~3);
  data.copy(padded);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

describe('the test browser’s Chinese font: WOFF unpacked to the font it wraps', () => {
  it('every table inflated whole: each matches the checksum the WOFF recorded for the original', () => {
    const woff = fs.readFileSync(path.join(fontFiles, 'noto-sans-sc-100-400-normal.woff'));
    const font = sfntFromWoff(woff);
    expect(font.readUInt32BE(0)).toBe(woff.readUInt32BE(4)); // the flavor: TrueType or CFF
    const count = font.readUInt16BE(4);
    expect(count).toBe(woff.readUInt16BE(12));
    const tags: string[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 12 + i * 16;
      const tag = font.toString('latin1', entry, entry + 4);
      tags.push(tag);
      const [offset, length] = [font.readUInt32BE(entry + 8), font.readUInt32BE(entry + 12)];
      expect(offset % 4).toBe(0);
      // head's checksum is taken with its checkSumAdjustment field as zero
      const data = Buffer.from(font.subarray(offset, offset + length));
      if (tag === 'head') data.writeUInt32BE(0, 8);
      expect(checksum(data), tag).toBe(font.readUInt32BE(entry + 4));
    }
    expect(tags).toContain('cmap');
    expect(font.length).toBe(woff.readUInt32BE(16)); // totalSfntSize
  });

  it('refuses what is not a WOFF 1.0 file', () => {
    expect(() => sfntFromWoff(fs.readFileSync(path.join(fontFiles, 'noto-sans-sc-100-400-normal.woff2')))).toThrow('not a WOFF 1.0 font');
  });
});
