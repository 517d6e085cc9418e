// Writes .br and .gz beside every text asset of the build, so the server
// (@fastify/static preCompressed) sends compressed bytes without compressing
// on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '..', process.argv[2] ?? 'dist');
const TEXT = /\.(js|css|svg|html|json|webmanifest|txt)$/;

let files = 0;
let before = 0;
let after = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (TEXT.test(name) && statSync(file).size > 1024) {
      const raw = readFileSync(file);
      const br = brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      files++;
      before += raw.length;
      after += br.length;
    }
  }
};
walk(dist);
console.log(
  `precompressed ${files} files: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB brotli`,
);
