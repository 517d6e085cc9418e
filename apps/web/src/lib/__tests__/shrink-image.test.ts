import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ImageShrinkError,
  MAX_EDGE,
  UNREADABLE_IMAGE_MSG,
  UNSHRINKABLE_IMAGE_MSG,
  canSendAsIs,
  fitWithin,
  jpegName,
  prepareImage,
} from '../shrink-image';

const MiB = 1024 * 1024;

/** A file of `size` bytes (the content does not matter: decoding is faked). */
const fileOf = (size: number, type: string, name = 'IMG_0001.jpg') =>
  new File([new Uint8Array(size)], name, { type });

/** What the fake canvas was asked to do. */
type Drawn = {
  canvas: { width: number; height: number };
  draws: unknown[][];
  encodes: { type?: string; quality?: number }[];
};

/**
 * A stand-in for createImageBitmap + OffscreenCanvas: the bitmap has the
 * size the browser would report after applying EXIF orientation, and each
 * encode answers a JPEG of the next size in `encodedSizes`.
 */
function fakeBrowser(bitmapSize: { width: number; height: number }) {
  const bitmap = { ...bitmapSize, close: vi.fn() };
  const createImageBitmap = vi.fn(() => Promise.resolve(bitmap));
  const drawn: Drawn = {
    canvas: { width: 0, height: 0 },
    draws: [],
    encodes: [],
  };
  let encodedSizes = [300_000];
  class FakeOffscreenCanvas {
    constructor(width: number, height: number) {
      drawn.canvas = { width, height };
    }
    getContext() {
      return {
        fillRect: () => undefined,
        drawImage: (...args: unknown[]) => drawn.draws.push(args),
      };
    }
    convertToBlob(opts: { type?: string; quality?: number }) {
      drawn.encodes.push(opts);
      const size = encodedSizes[drawn.encodes.length - 1] ?? 0;
      return Promise.resolve(
        new Blob([new Uint8Array(size)], { type: opts.type }),
      );
    }
  }
  vi.stubGlobal('createImageBitmap', createImageBitmap);
  vi.stubGlobal('OffscreenCanvas', FakeOffscreenCanvas);
  return {
    bitmap,
    createImageBitmap,
    drawn,
    encodeTo: (sizes: number[]) => {
      encodedSizes = sizes;
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fitWithin', () => {
  it('brings the long edge to 2048', () => {
    expect(MAX_EDGE).toBe(2048);
  });

  // [width, height] in, [width, height] out (of at most `edge`).
  it.each([
    // A 12-megapixel phone photo, landscape and portrait.
    [
      [4032, 3024],
      [2048, 1536],
    ],
    [
      [3024, 4032],
      [1536, 2048],
    ],
    [
      [4000, 3000],
      [2048, 1536],
    ],
    // 9:16 rounds to the nearest pixel.
    [
      [2160, 3840],
      [1152, 2048],
    ],
    // Never enlarges.
    [
      [2048, 1000],
      [2048, 1000],
    ],
    [
      [40, 30],
      [40, 30],
    ],
    // Keeps at least one pixel.
    [
      [5000, 1],
      [2048, 1],
    ],
    // Another edge.
    [[400, 300], [100, 75], 100],
  ] as const)('fits %j as %j', ([width, height], [w, h], edge?: number) => {
    expect(fitWithin({ width, height }, edge)).toEqual({
      width: w,
      height: h,
    });
  });
});

describe('canSendAsIs', () => {
  const small = { width: 1200, height: 900 };
  it('sends a stored kind within 5 MiB and 2048 px untouched', () => {
    expect(canSendAsIs({ type: 'image/jpeg', size: 300_000 }, small)).toBe(
      true,
    );
    expect(
      canSendAsIs(
        { type: 'image/png', size: 5 * MiB },
        { width: 2048, height: 2048 },
      ),
    ).toBe(true);
  });

  it('shrinks what is too heavy, too large, or of a kind the server does not store', () => {
    expect(canSendAsIs({ type: 'image/jpeg', size: 5 * MiB + 1 }, small)).toBe(
      false,
    );
    expect(
      canSendAsIs(
        { type: 'image/jpeg', size: 200_000 },
        { width: 2049, height: 100 },
      ),
    ).toBe(false);
    expect(canSendAsIs({ type: 'image/heic', size: 200_000 }, small)).toBe(
      false,
    );
    expect(canSendAsIs({ type: '', size: 200_000 }, small)).toBe(false);
  });
});

describe('prepareImage', () => {
  // jsdom has no HTMLImageElement.decode: the <img> fallback fails as a
  // browser's does for a file it cannot read, unless a test says otherwise.
  const decode = vi.fn<() => Promise<void>>();
  beforeEach(() => {
    decode.mockRejectedValue(
      new DOMException('cannot decode', 'EncodingError'),
    );
    Object.defineProperty(HTMLImageElement.prototype, 'decode', {
      configurable: true,
      writable: true,
      value: decode,
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(HTMLImageElement.prototype, 'decode');
  });

  it('draws a 12 MP photo at 2048×1536 and sends a JPEG, applying EXIF orientation', async () => {
    const fake = fakeBrowser({ width: 4032, height: 3024 });
    const photo = fileOf(6 * MiB, 'image/jpeg');
    const out = await prepareImage(photo);
    expect(fake.createImageBitmap).toHaveBeenCalledWith(photo, {
      imageOrientation: 'from-image',
    });
    expect(fake.drawn.canvas).toEqual({ width: 2048, height: 1536 });
    expect(fake.drawn.draws).toEqual([[fake.bitmap, 0, 0, 2048, 1536]]);
    expect(fake.drawn.encodes).toEqual([{ type: 'image/jpeg', quality: 0.85 }]);
    expect(out).toMatchObject({ width: 2048, height: 1536, resized: true });
    expect(out.blob.type).toBe('image/jpeg');
    expect(out.blob.size).toBe(300_000);
    expect(fake.bitmap.close).toHaveBeenCalled();
  });

  it('keeps a portrait photo portrait (the bitmap is already upright)', async () => {
    const fake = fakeBrowser({ width: 3024, height: 4032 });
    const out = await prepareImage(fileOf(4 * MiB, 'image/jpeg'));
    expect(fake.drawn.canvas).toEqual({ width: 1536, height: 2048 });
    expect(out).toMatchObject({ width: 1536, height: 2048, resized: true });
  });

  it('sends a small image as it is, without drawing it', async () => {
    const fake = fakeBrowser({ width: 800, height: 600 });
    const small = fileOf(120_000, 'image/png', 'a.png');
    const out = await prepareImage(small);
    expect(out).toEqual({
      blob: small,
      width: 800,
      height: 600,
      resized: false,
    });
    expect(fake.drawn.encodes).toEqual([]);
    expect(fake.bitmap.close).toHaveBeenCalled();
  });

  it('re-encodes a small HEIC the browser can read, since the server does not store HEIC', async () => {
    const fake = fakeBrowser({ width: 1000, height: 750 });
    const out = await prepareImage(fileOf(500_000, 'image/heic', 'a.HEIC'));
    expect(fake.drawn.canvas).toEqual({ width: 1000, height: 750 });
    expect(out.resized).toBe(true);
    expect(out.blob.type).toBe('image/jpeg');
  });

  it('lowers the quality until the JPEG fits, then gives up with a Japanese message', async () => {
    const fake = fakeBrowser({ width: 4032, height: 3024 });
    fake.encodeTo([6 * MiB, 4 * MiB]);
    const out = await prepareImage(fileOf(9 * MiB, 'image/jpeg'));
    expect(fake.drawn.encodes.map((e) => e.quality)).toEqual([0.85, 0.7]);
    expect(out.blob.size).toBe(4 * MiB);

    const again = fakeBrowser({ width: 4032, height: 3024 });
    again.encodeTo([6 * MiB, 6 * MiB, 6 * MiB]);
    await expect(prepareImage(fileOf(9 * MiB, 'image/jpeg'))).rejects.toThrow(
      new ImageShrinkError(UNSHRINKABLE_IMAGE_MSG),
    );
    expect(again.drawn.encodes).toHaveLength(3);
    expect(again.bitmap.close).toHaveBeenCalled();
  });

  it('says in Japanese when the browser cannot read the file (HEIC in Chromium, a broken file)', async () => {
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(() =>
        Promise.reject(new DOMException('unsupported', 'InvalidStateError')),
      ),
    );
    const heic = fileOf(3 * MiB, 'image/heic', 'IMG_0002.HEIC');
    const err = await prepareImage(heic).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageShrinkError);
    expect((err as Error).message).toBe(
      'この画像は読み込めませんでした。JPEG・PNG・WebP の写真を選んでください。',
    );
    expect(UNREADABLE_IMAGE_MSG).toBe((err as Error).message);
    await expect(prepareImage(fileOf(0, 'image/jpeg'))).rejects.toThrow(
      UNREADABLE_IMAGE_MSG,
    );
  });

  it('reads with an <img> where createImageBitmap fails, and draws on a <canvas> without OffscreenCanvas', async () => {
    vi.stubGlobal('createImageBitmap', undefined);
    vi.stubGlobal('OffscreenCanvas', undefined);
    decode.mockResolvedValue(undefined);
    vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(
      3000,
    );
    vi.spyOn(
      HTMLImageElement.prototype,
      'naturalHeight',
      'get',
    ).mockReturnValue(4000);
    const sizes: [number, number][] = [];
    const drawImage = vi.fn();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      function (this: HTMLCanvasElement) {
        sizes.push([this.width, this.height]);
        return {
          fillRect: () => undefined,
          drawImage,
        } as unknown as CanvasRenderingContext2D;
      } as unknown as HTMLCanvasElement['getContext'],
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(
      (cb, type) => cb(new Blob([new Uint8Array(10)], { type })),
    );
    const out = await prepareImage(fileOf(7 * MiB, 'image/jpeg'));
    expect(sizes).toEqual([[1536, 2048]]);
    expect(drawImage).toHaveBeenCalledWith(
      expect.any(HTMLImageElement),
      0,
      0,
      1536,
      2048,
    );
    expect(out).toMatchObject({ width: 1536, height: 2048, resized: true });
    expect(out.blob.type).toBe('image/jpeg');
  });
});

describe('jpegName', () => {
  it('names a re-encoded picture .jpg', () => {
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('写真.png')).toBe('写真.jpg');
    expect(jpegName('noext')).toBe('noext.jpg');
    expect(jpegName('.heic')).toBe('photo.jpg');
  });
});
