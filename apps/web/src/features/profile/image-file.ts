/**
 * What a member may pick as a photo. The browser shrinks it before upload
 * (lib/shrink-image.ts), so a 10 MB phone photo or a HEIC Safari can read is
 * fine here; what the server stores is at most 5 MiB (docs/api.md, Storage).
 */
export const MAX_PHOTOS = 6;

/**
 * The largest file we try to read: a 48-megapixel phone photo is about
 * 25 MB; beyond that decoding on a phone risks running out of memory.
 */
export const SOURCE_MAX_BYTES = 40 * 1024 * 1024;

/** Some browsers give HEIC no MIME type; the name says what it is. */
const HEIC_NAME = /\.(heic|heif)$/i;

/** A Japanese reason the file cannot be uploaded, or undefined. */
export const checkImageFile = (
  file: Pick<File, 'type' | 'size' | 'name'>,
): string | undefined => {
  if (!file.type.startsWith('image/') && !HEIC_NAME.test(file.name))
    return `「${file.name}」は登録できない形式です。JPEG・PNG・WebP・GIFの画像を選んでください。`;
  if (file.size === 0) return `「${file.name}」は空のファイルです。`;
  if (file.size > SOURCE_MAX_BYTES)
    return `「${file.name}」は大きすぎます。40MB以下の写真を選んでください。`;
  return undefined;
};

/** The file's bytes as base64, without the `data:` prefix. */
export const readAsBase64 = (file: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // readAsDataURL always yields a string.
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
