import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Catches, test by test, the files a page offers for download: each Blob put
 * behind an object URL and each name saved by clicking an `<a download>`.
 * Call once at the top of a test file or describe block.
 */
export const captureDownloads = () => {
  const saved = { blobs: [] as Blob[], names: [] as string[] };
  beforeEach(() => {
    saved.blobs.length = 0;
    saved.names.length = 0;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.blobs.push(blob);
      return 'blob:download';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.names.push(this.download);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return saved;
};
