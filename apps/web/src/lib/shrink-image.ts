import { MAX_UPLOAD_IMAGE_BYTES } from '@proam/contract';

/**
 * Phone photos before upload. A 12-megapixel photo is 4–10 MB, more than the
 * server takes (5 MiB) and far more than the app shows (the server stores a
 * long edge of 2048 px), so the browser decodes it, draws it at most 2048 px
 * on its long edge and sends that as JPEG: a few hundred KB instead of
 * megabytes over a phone connection. The browser's own decoders are enough
 * (no library): HEIC reads where the browser reads it (Safari), and iOS hands
 * file inputs a JPEG anyway.
 */

/** The long edge the server stores (apps/api/src/storage/images.ts MAX_IMAGE_EDGE). */
export const MAX_EDGE = 2048;

/** Kinds the server stores as they are (docs/api.md, Storage). */
const SENDABLE_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
];

export const OUTPUT_TYPE = 'image/jpeg';

/** Tried in turn until the picture fits; the first is enough for any photo at 2048 px. */
const QUALITIES = [0.85, 0.7, 0.55] as const;

export const UNREADABLE_IMAGE_MSG =
  'この画像は読み込めませんでした。JPEG・PNG・WebP の写真を選んでください。';
export const UNSHRINKABLE_IMAGE_MSG =
  'この画像は縮小できませんでした。別の写真を選んでください。';

/** A picture the browser cannot read or reduce; `message` is for the member. */
export class ImageShrinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageShrinkError';
  }
}

export type Size = { width: number; height: number };
export type Limits = { maxEdge: number; maxBytes: number };

const DEFAULT_LIMITS: Limits = {
  maxEdge: MAX_EDGE,
  maxBytes: MAX_UPLOAD_IMAGE_BYTES,
};

/** The size within `maxEdge` on the long edge, proportions kept, never enlarged. */
export const fitWithin = (size: Size, maxEdge: number = MAX_EDGE): Size => {
  const long = Math.max(size.width, size.height);
  if (long <= maxEdge) return { width: size.width, height: size.height };
  const scale = maxEdge / long;
  // A sliver (5000×1) keeps a pixel rather than vanishing.
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
};

/**
 * Whether the file can go untouched: a kind the server stores, within its
 * bytes, and no larger than what is stored. The server still re-encodes it
 * (and drops EXIF), so nothing is gained by encoding twice.
 */
export const canSendAsIs = (
  file: Pick<Blob, 'type' | 'size'>,
  size: Size,
  limits: Limits = DEFAULT_LIMITS,
): boolean =>
  SENDABLE_TYPES.includes(file.type) &&
  file.size <= limits.maxBytes &&
  Math.max(size.width, size.height) <= limits.maxEdge;

type Decoded = Size & { source: CanvasImageSource; release: () => void };

/**
 * `imageOrientation: 'from-image'` applies the EXIF orientation (a phone held
 * upright writes a landscape picture plus "rotate 90°"); it is the default
 * in current browsers and spelled out for older ones.
 */
const decodeAsBitmap = async (file: Blob): Promise<Decoded> => {
  const bitmap = await createImageBitmap(file, {
    imageOrientation: 'from-image',
  });
  return {
    source: bitmap,
    width: bitmap.width,
    height: bitmap.height,
    release: () => bitmap.close(),
  };
};

/** An `<img>` also applies EXIF orientation (CSS image-orientation: from-image). */
const decodeAsImg = async (file: Blob): Promise<Decoded> => {
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
  } catch (e) {
    URL.revokeObjectURL(url);
    throw e;
  }
  return {
    source: img,
    width: img.naturalWidth,
    height: img.naturalHeight,
    release: () => URL.revokeObjectURL(url),
  };
};

const decodeImage = async (file: Blob): Promise<Decoded> => {
  if (typeof createImageBitmap === 'function') {
    try {
      return await decodeAsBitmap(file);
    } catch {
      // Some browsers read a format (HEIC in Safari) in <img> only.
    }
  }
  try {
    return await decodeAsImg(file);
  } catch {
    throw new ImageShrinkError(UNREADABLE_IMAGE_MSG);
  }
};

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

const draw = (ctx: Context2D, source: CanvasImageSource, size: Size) => {
  // JPEG has no transparency: a transparent PNG goes on white, not black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, size.width, size.height);
};

/** OffscreenCanvas where there is one (no DOM needed), a <canvas> elsewhere. */
const encode = async (
  source: CanvasImageSource,
  size: Size,
  quality: number,
): Promise<Blob> => {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    draw(ctx, source, size);
    return canvas.convertToBlob({ type: OUTPUT_TYPE, quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  draw(ctx, source, size);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('toBlob gave null'))),
      OUTPUT_TYPE,
      quality,
    ),
  );
};

export type PreparedImage = Size & {
  blob: Blob;
  /** False when the file goes as it is. */
  resized: boolean;
};

/**
 * The picture to upload: the file itself when it is within the limits,
 * otherwise a JPEG at most `maxEdge` on its long edge and at most `maxBytes`.
 * Throws ImageShrinkError with a Japanese message when the browser cannot
 * read the file (HEIC outside Safari, a broken file) or cannot reduce it.
 */
export async function prepareImage(
  file: Blob,
  limits: Limits = DEFAULT_LIMITS,
): Promise<PreparedImage> {
  if (file.size === 0) throw new ImageShrinkError(UNREADABLE_IMAGE_MSG);
  const decoded = await decodeImage(file);
  try {
    const size = { width: decoded.width, height: decoded.height };
    if (size.width < 1 || size.height < 1)
      throw new ImageShrinkError(UNREADABLE_IMAGE_MSG);
    if (canSendAsIs(file, size, limits))
      return { blob: file, ...size, resized: false };
    const target = fitWithin(size, limits.maxEdge);
    for (const quality of QUALITIES) {
      const blob = await encode(decoded.source, target, quality).catch(() => {
        // Out of memory or a canvas the browser will not make.
        throw new ImageShrinkError(UNSHRINKABLE_IMAGE_MSG);
      });
      if (blob.size > 0 && blob.size <= limits.maxBytes)
        return { blob, ...target, resized: true };
    }
    throw new ImageShrinkError(UNSHRINKABLE_IMAGE_MSG);
  } finally {
    decoded.release();
  }
}

/** The name to send with a re-encoded picture: `IMG_0001.HEIC` → `IMG_0001.jpg`. */
export const jpegName = (name: string): string => {
  const base = name.replace(/\.[^./\\]*$/, '');
  return `${base || 'photo'}.jpg`;
};
