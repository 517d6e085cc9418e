import sharp from 'sharp';
import { ApiError } from '../lib/api-error.js';

export type ImageKind = 'jpg' | 'png' | 'webp' | 'gif';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const CONTENT_TYPES: Record<ImageKind, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** What the bytes are, whatever the name or declared type says (SECURITY FU-02). */
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
 * Re-encodes the photo: applies the EXIF orientation, then writes the pixels
 * only, so location and camera metadata never leave the member's phone. A file
 * that does not decode as the image it claims to be is refused.
 */
export async function cleanImage(
  buf: Buffer,
): Promise<{ kind: ImageKind; data: Buffer }> {
  const kind = sniffImage(buf);
  if (!kind) throw new ApiError('UnsupportedMediaType');
  try {
    const img = sharp(buf, {
      animated: kind === 'gif' || kind === 'webp',
      limitInputPixels: 40_000_000,
    }).rotate();
    const data =
      kind === 'jpg'
        ? await img.jpeg({ quality: 85 }).toBuffer()
        : kind === 'png'
          ? await img.png().toBuffer()
          : kind === 'webp'
            ? await img.webp({ quality: 85 }).toBuffer()
            : await img.gif().toBuffer();
    return { kind, data };
  } catch {
    throw new ApiError('UnsupportedMediaType');
  }
}
