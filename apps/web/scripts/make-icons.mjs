// Writes the PWA icons (public/pwa-192.png, public/pwa-512.png) without any
// image library: the splash mark (green disc, flag, ball) drawn per pixel.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../public',
);

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const GREEN = hex('#0f4d32');
const LIGHT = hex('#3f8f5f');
const FLAG = hex('#e8a33d');
const WHITE = [255, 255, 255];

/** Colour at (x, y) in a 64×64 design space (the maskable safe zone is the middle 80 %). */
const paint = (x, y) => {
  if ((x - 32) ** 2 / 14 ** 2 + (y - 47) ** 2 / 3.5 ** 2 <= 1) {
    if ((x - 38) ** 2 + (y - 42) ** 2 <= 3.2 ** 2) return WHITE;
    return LIGHT;
  }
  if ((x - 38) ** 2 + (y - 42) ** 2 <= 3.2 ** 2) return WHITE;
  if (x >= 26.5 && x <= 28 && y >= 14 && y <= 46) return WHITE;
  // Flag: triangle (28,15) (43,21) (28,27).
  if (x >= 28 && y >= 15 + (x - 28) * (6 / 15) && y <= 27 - (x - 28) * (6 / 15))
    return FLAG;
  return GREEN;
};

const png = (size) => {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const [r, g, b] = paint(((x + 0.5) / size) * 64, ((y + 0.5) / size) * 64);
      row[1 + x * 3] = r;
      row[2 + x * 3] = g;
      row[3 + x * 3] = b;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

for (const size of [192, 512]) {
  writeFileSync(path.join(out, `pwa-${size}.png`), png(size));
  console.log(`public/pwa-${size}.png`);
}
