import { describe, expect, it } from 'vitest';
import { checkImageFile } from '../image-file';

describe('checkImageFile', () => {
  it('accepts the four image types up to 5 MB and explains refusals in Japanese', () => {
    expect(
      checkImageFile({
        name: 'a.png',
        type: 'image/png',
        size: 5 * 1024 * 1024,
      }),
    ).toBeUndefined();
    expect(
      checkImageFile({ name: 'a.webp', type: 'image/webp', size: 10 }),
    ).toBeUndefined();
    expect(
      checkImageFile({ name: 'a.heic', type: 'image/heic', size: 10 }),
    ).toMatch(/登録できない形式です/);
    expect(
      checkImageFile({
        name: 'b.jpg',
        type: 'image/jpeg',
        size: 5 * 1024 * 1024 + 1,
      }),
    ).toBe('「b.jpg」は5MBを超えています。5MB以下の画像を選んでください。');
  });
});
