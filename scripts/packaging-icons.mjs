#!/usr/bin/env node
/**
 * The app's icons for packaging, drawn from the geometry of resources/packaging/icon.svg (a clock
 * face on an indigo tile) with Node alone: no image library, no binaries in the repository.
 *
 *   build/icons/png/<n>x<n>.png   Linux (electron-builder's icon folder), 16 … 1024
 *   build/icons/icon.png          1024 × 1024
 *   build/icons/icon.icns         macOS (PNG entries icp4 … ic10)
 *   build/icons/icon.ico          Windows (PNG entries 16 … 256)
 *
 * `npm run dist` runs it first; it does nothing when the files are newer than this script.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

export const PNG_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];
const ICNS_TYPES = { 16: 'icp4', 32: 'icp5', 64: 'icp6', 128: 'ic07', 256: 'ic08', 512: 'ic09', 1024: 'ic10' };
const ICO_SIZES = [16, 32, 48, 64, 128, 256];

const TILE = { x: 64, y: 64, size: 896, radius: 200, color: [0x3b, 0x4b, 0xc8] };
const WHITE = [0xff, 0xff, 0xff];
const AMBER = [0xff, 0xd1, 0x66];
const STROKE = 28; // half of stroke-width 56
const RING = { cx: 512, cy: 512, r: 300 };
const HANDS = [
  { x1: 512, y1: 512, x2: 512, y2: 300, color: WHITE },
  { x1: 512, y1: 512, x2: 662, y2: 587, color: AMBER },
];

function insideRoundedTile(x, y) {
  const { x: left, y: top, size, radius } = TILE;
  const cx = Math.min(Math.max(x, left + radius), left + size - radius);
  const cy = Math.min(Math.max(y, top + radius), top + size - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius && x >= left && y >= top && x <= left + size && y <= top + size;
}

function nearSegment(x, y, { x1, y1, x2, y2 }) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return (x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2 <= STROKE * STROKE;
}

/** The colour at a point of the 1024-unit canvas, or null (transparent). Later shapes paint over. */
export function colourAt(x, y) {
  if (!insideRoundedTile(x, y)) return null;
  let colour = TILE.color;
  if (Math.abs(Math.hypot(x - RING.cx, y - RING.cy) - RING.r) <= STROKE) colour = WHITE;
  for (const hand of HANDS) if (nearSegment(x, y, hand)) colour = hand.color;
  return colour;
}

/** RGBA pixels of the icon at size × size, 4 × 4 samples a pixel. */
export function renderIcon(size, samples = 4) {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 1024 / size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt((px + (sx + 0.5) / samples) * scale, (py + (sy + 0.5) / samples) * scale);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const at = (py * size + px) * 4;
      if (a > 0) {
        pixels[at] = Math.round(r / a);
        pixels[at + 1] = Math.round(g / a);
        pixels[at + 2] = Math.round(b / a);
      }
      pixels[at + 3] = Math.round((255 * a) / (samples * samples));
    }
  }
  return pixels;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A PNG file (8-bit RGBA, no interlace) of size × size pixels. */
export function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An .icns file of PNG entries: { size: png }. */
export function encodeIcns(pngs) {
  const entries = Object.entries(ICNS_TYPES)
    .filter(([size]) => pngs[size])
    .map(([size, type]) => {
      const head = Buffer.alloc(8);
      head.write(type, 0, 'ascii');
      head.writeUInt32BE(pngs[size].length + 8, 4);
      return Buffer.concat([head, pngs[size]]);
    });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + entries.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

/** An .ico file of PNG entries (Windows Vista and later): { size: png }. */
export function encodeIco(pngs) {
  const sizes = ICO_SIZES.filter((size) => pngs[size]);
  const dir = Buffer.alloc(6 + 16 * sizes.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(sizes.length, 4);
  let offset = dir.length;
  sizes.forEach((size, i) => {
    const at = 6 + 16 * i;
    dir.writeUInt8(size >= 256 ? 0 : size, at);
    dir.writeUInt8(size >= 256 ? 0 : size, at + 1);
    dir.writeUInt16LE(1, at + 4); // planes
    dir.writeUInt16LE(32, at + 6); // bits per pixel
    dir.writeUInt32LE(pngs[size].length, at + 8);
    dir.writeUInt32LE(offset, at + 12);
    offset += pngs[size].length;
  });
  return Buffer.concat([dir, ...sizes.map((size) => pngs[size])]);
}

/** Writes every icon under outDir (build/icons); returns the files written. */
export function writeIcons(outDir) {
  const pngs = {};
  for (const size of PNG_SIZES) pngs[size] = encodePng(size, renderIcon(size, size <= 64 ? 8 : 4));
  mkdirSync(join(outDir, 'png'), { recursive: true });
  const written = [];
  const write = (file, data) => {
    writeFileSync(file, data);
    written.push(file);
  };
  for (const size of PNG_SIZES) write(join(outDir, 'png', `${size}x${size}.png`), pngs[size]);
  write(join(outDir, 'icon.png'), pngs[1024]);
  write(join(outDir, 'icon.icns'), encodeIcns(pngs));
  write(join(outDir, 'icon.ico'), encodeIco(pngs));
  return written;
}

function main() {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const outDir = join(repoRoot, 'build', 'icons');
  const marker = join(outDir, 'icon.ico');
  const script = fileURLToPath(import.meta.url);
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(script).mtimeMs) {
    console.log('packaging-icons: build/icons is up to date.');
    return;
  }
  const written = writeIcons(outDir);
  console.log(`packaging-icons: wrote ${written.length} files to build/icons.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
