import { describe, expect, it } from 'vitest';
import { checkImageFile } from '../image-file';

const MB = 1024 * 1024;

describe('checkImageFile', () => {
  it('takes any picture up to 40 MB, a 10 MB phone photo and HEIC too (the browser shrinks them)', () => {
    expect(
      checkImageFile({
        name: 'IMG_0001.jpg',
        type: 'image/jpeg',
        size: 10 * MB,
      }),
    ).toBeUndefined();
    expect(
      checkImageFile({ name: 'a.webp', type: 'image/webp', size: 10 }),
    ).toBeUndefined();
    expect(
      checkImageFile({
        name: 'IMG_0002.HEIC',
        type: 'image/heic',
        size: 3 * MB,
      }),
    ).toBeUndefined();
    // Some browsers give HEIC no type.
    expect(
      checkImageFile({ name: 'IMG_0003.heic', type: '', size: 3 * MB }),
    ).toBeUndefined();
    expect(
      checkImageFile({ name: 'big.png', type: 'image/png', size: 40 * MB }),
    ).toBeUndefined();
  });

  it('explains refusals in Japanese', () => {
    expect(
      checkImageFile({ name: 'memo.txt', type: 'text/plain', size: 10 }),
    ).toBe(
      '「memo.txt」は登録できない形式です。JPEG・PNG・WebP・GIFの画像を選んでください。',
    );
    expect(checkImageFile({ name: 'a.jpg', type: 'image/jpeg', size: 0 })).toBe(
      '「a.jpg」は空のファイルです。',
    );
    expect(
      checkImageFile({ name: 'b.jpg', type: 'image/jpeg', size: 40 * MB + 1 }),
    ).toBe('「b.jpg」は大きすぎます。40MB以下の写真を選んでください。');
  });
});
