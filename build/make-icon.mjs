#!/usr/bin/env node
// Draws build/icon.png (1024x1024 RGBA), the source electron-builder turns into the .icns, .ico and Linux icon
// set: an indigo rounded square with a ring and a node on it (a remembered thing on the thread of a conversation).
// Pure Node (zlib), deterministic: `node build/make-icon.mjs` rewrites the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const SIZE = 1024;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'icon.png');

const clamp01 = (v) => Math.min(1, Math.max(0, v));
const coverage = (signedDistance) => clamp01(0.5 - signedDistance); // 1 px of anti-aliasing

function roundedSquare(px, py, center, half, radius) {
  const qx = Math.abs(px - center) - (half - radius);
  const qy = Math.abs(py - center) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

const c = SIZE / 2;
const top = [99, 102, 241];
const bottom = [49, 46, 129];
const ringRadius = SIZE * 0.25;
const ringWidth = SIZE * 0.07;
const angle = (-40 * Math.PI) / 180;
const dot = { x: c + ringRadius * Math.cos(angle), y: c + ringRadius * Math.sin(angle), r: SIZE * 0.09 };
const gap = SIZE * 0.035;

const rows = [];
for (let y = 0; y < SIZE; y++) {
  const row = Buffer.alloc(1 + SIZE * 4);
  for (let x = 0; x < SIZE; x++) {
    const px = x + 0.5;
    const py = y + 0.5;
    const bg = coverage(roundedSquare(px, py, c, SIZE * 0.42, SIZE * 0.1));
    const toDot = Math.hypot(px - dot.x, py - dot.y);
    const ring = coverage(Math.abs(Math.hypot(px - c, py - c) - ringRadius) - ringWidth / 2) * clamp01(toDot - dot.r - gap);
    const fg = Math.max(ring, coverage(toDot - dot.r), coverage(Math.hypot(px - c, py - c) - SIZE * 0.045));
    const t = y / (SIZE - 1);
    const o = 1 + x * 4;
    for (let i = 0; i < 3; i++) row[o + i] = Math.round((top[i] * (1 - t) + bottom[i] * t) * (1 - fg) + 255 * fg);
    row[o + 3] = Math.round(255 * bg);
  }
  rows.push(row);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let v = n;
  for (let k = 0; k < 8; k++) v = v & 1 ? 0xedb88320 ^ (v >>> 1) : v >>> 1;
  return v >>> 0;
});
function crc32(buffer) {
  let v = 0xffffffff;
  for (const byte of buffer) v = CRC_TABLE[(v ^ byte) & 0xff] ^ (v >>> 8);
  return (v ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.writeFileSync(out, png);
console.log(`Wrote ${path.relative(process.cwd(), out)} (${SIZE}x${SIZE}, ${(png.length / 1024).toFixed(0)} KB).`);
