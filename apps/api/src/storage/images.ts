import sharp from 'sharp';
import { MAX_UPLOAD_IMAGE_BYTES } from '@proam/contract';
import { ApiError } from '../lib/api-error.js';

export type ImageKind = 'jpg' | 'png' | 'webp' | 'gif';

/** Decoded bytes; above it 413 PayloadTooLarge (the contract shares it with the web client). */
export const MAX_IMAGE_BYTES = MAX_UPLOAD_IMAGE_BYTES;

export const CONTENT_TYPES: Record<ImageKind, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** What the bytes are, whatever the name or declared type says (docs/security.md FU-02). */
export function sniffImage(buf: Buffer): ImageKind | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff)
    return 'jpg';
  if (
    buf.length >= 8 &&
    buf
      .subarray(0, 8)
      .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    buf.length >= 6 &&
    /^GIF8[79]a$/.test(buf.subarray(0, 6).toString('latin1'))
  )
    return 'gif';
  if (
    buf.length >= 12 &&
    buf.subarray(0, 4).toString('latin1') === 'RIFF' &&
    buf.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Decodes base64 (a `data:` URL prefix is allowed); bad characters are a ValidationError. */
export function decodeBase64(data: string): Buffer {
  const raw = data.replace(/^data:[\w/+.-]+;base64,/, '');
  if (!/^[A-Za-z0-9+/\r\n]*={0,2}$/.test(raw))
    throw new ApiError('ValidationError', 'data');
  const buf = Buffer.from(raw, 'base64');
  if (buf.length === 0) throw new ApiError('ValidationError', 'data');
  if (buf.length > MAX_IMAGE_BYTES) throw new ApiError('PayloadTooLarge');
  return buf;
}

/**
 * The largest canvas we decode, in pixels. The cost of an image is
 * its canvas, not its file: a 27 KB GIF can declare 2000×20000 and a 70 KB
 * WebP 6300×6300, each seconds of CPU and hundreds of MB once decoded. 25 MP
 * still takes a 12 MP phone photo (4032×3024) and a 24 MP camera photo
 * (6000×4000).
 *
 * Above it the answer is 413 PayloadTooLarge, not 415: the file is a well-formed
 * image of a kind we accept, only too large once decoded (RFC 9110 §15.5.14:
 * content larger than the server is willing to process), and the member's
 * message (ファイルサイズが大きすぎます) tells them what to do, a smaller
 * picture; 415 (このファイル形式には対応していません) would send them looking
 * for another format that would fail the same way.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** Long edge of what is stored: the app never shows a photo larger. */
export const MAX_IMAGE_EDGE = 2048;

/**
 * A bound on one job's libvips time. A 25 MP image takes about a second here;
 * ten times that means a pathological file, refused like an oversize one.
 */
const JOB_TIMEOUT_SECONDS = 10;

// One libvips worker thread per image and no operation cache: with the job
// queue (image-queue.ts) image work holds at most one core and one image's
// buffers, and leaves libuv's pool to argon2, fs and the rest.
sharp.concurrency(1);
sharp.cache(false);

const VIPS_FORMAT: Record<ImageKind, string> = {
  jpg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
};

/** Bytes that passed `inspectImage`: a known kind with a canvas we will decode. */
export type InspectedImage = {
  readonly kind: ImageKind;
  readonly buf: Buffer;
  readonly width: number;
  readonly height: number;
};

/**
 * The cheap part, before any queue: the kind by the bytes, and the canvas
 * size from the header alone (nothing is decoded). Not an image of an
 * accepted kind: 415. A canvas over MAX_IMAGE_PIXELS: 413.
 */
export async function inspectImage(buf: Buffer): Promise<InspectedImage> {
  const kind = sniffImage(buf);
  if (!kind) throw new ApiError('UnsupportedMediaType');
  const meta = await sharp(buf)
    .metadata()
    .catch(() => {
      throw new ApiError('UnsupportedMediaType');
    });
  // The first frame is all we keep; `height` is one frame's (pages: 1).
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  if (meta.format !== VIPS_FORMAT[kind] || !width || !height)
    throw new ApiError('UnsupportedMediaType');
  if (width * height > MAX_IMAGE_PIXELS) throw new ApiError('PayloadTooLarge');
  return { kind, buf, width, height };
}

/**
 * The costly part, run through the image queue: decodes the first frame only
 * (an animation becomes its first picture), applies the EXIF orientation,
 * shrinks the long edge to MAX_IMAGE_EDGE in the same pipeline (JPEG and
 * WebP shrink while decoding), then writes the pixels only, so location and
 * camera metadata never leave the member's phone. A file that does not decode
 * as the image it claims to be is refused with 415; one that breaks the pixel
 * bound anyway (a header that lied) or the time bound, with 413.
 */
export async function cleanImage({
  kind,
  buf,
}: InspectedImage): Promise<{ kind: ImageKind; data: Buffer }> {
  try {
    const img = sharp(buf, {
      pages: 1,
      limitInputPixels: MAX_IMAGE_PIXELS,
    })
      .rotate()
      .resize({
        width: MAX_IMAGE_EDGE,
        height: MAX_IMAGE_EDGE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .timeout({ seconds: JOB_TIMEOUT_SECONDS });
    const data =
      kind === 'jpg'
        ? await img.jpeg({ quality: 85 }).toBuffer()
        : kind === 'png'
          ? await img.png().toBuffer()
          : kind === 'webp'
            ? await img.webp({ quality: 85 }).toBuffer()
            : await img.gif().toBuffer();
    return { kind, data };
  } catch (e) {
    const reason = e instanceof Error ? e.message : '';
    if (/pixel limit|timeout/i.test(reason))
      throw new ApiError('PayloadTooLarge');
    throw new ApiError('UnsupportedMediaType');
  }
}
