/** What `/storage/upload` accepts (docs/api.md, Storage). */
export const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_PHOTOS = 6;

/** A Japanese reason the file cannot be uploaded, or undefined. */
export const checkImageFile = (
  file: Pick<File, 'type' | 'size' | 'name'>,
): string | undefined => {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type))
    return `「${file.name}」は登録できない形式です。JPEG・PNG・WebP・GIFの画像を選んでください。`;
  if (file.size > IMAGE_MAX_BYTES)
    return `「${file.name}」は5MBを超えています。5MB以下の画像を選んでください。`;
  if (file.size === 0) return `「${file.name}」は空のファイルです。`;
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
