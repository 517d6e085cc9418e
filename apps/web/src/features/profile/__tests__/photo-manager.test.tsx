import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUser } from '@/testing/factories';
import {
  apiCalls,
  deferred,
  ng,
  ok,
  serveApi,
  type Route,
} from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { PhotoManager } from '../components/photo-manager';

const MiB = 1024 * 1024;
const user = createUser({ id: 'u-1' });
const stored = (keyName: string) => ({ keyName, url: `/media/${keyName}` });

/** The storage answering each upload with `upload`, and the profile saving the pictures it is sent. */
const serveUploads = (upload: Route) =>
  serveApi({
    '/storage/upload': upload,
    '/user/updateImageInfo': (body: { imageInfo: { keyName: string }[] }) =>
      ok({
        ...user,
        imageInfo: body.imageInfo.map((i) => stored(i.keyName)),
      }),
  });

/** A picked file; its bytes do not matter, decoding is the fake browser's. */
const photo = (name: string, size: number, type: string) =>
  new File([new Uint8Array(size)], name, { type });

/**
 * The browser parts the shrink uses: createImageBitmap reports a 12 MP
 * photo, OffscreenCanvas encodes a 200 KB JPEG and records its size.
 */
function fakeCanvas() {
  const canvases: [number, number][] = [];
  const createImageBitmap = vi.fn(() =>
    Promise.resolve({ width: 4032, height: 3024, close: () => undefined }),
  );
  vi.stubGlobal('createImageBitmap', createImageBitmap);
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(width: number, height: number) {
        canvases.push([width, height]);
      }
      getContext() {
        return { fillRect: () => undefined, drawImage: () => undefined };
      }
      convertToBlob({ type }: { type: string }) {
        return Promise.resolve(new Blob([new Uint8Array(200_000)], { type }));
      }
    },
  );
  return { canvases, createImageBitmap };
}

beforeEach(() => {
  // jsdom has no object URLs for previews.
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn(() => 'blob:preview'),
      revokeObjectURL: vi.fn(),
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const pick = async (...files: File[]) => {
  const ue = userEvent.setup({ applyAccept: false });
  await ue.upload(screen.getByLabelText(/写真を追加/), files);
};

describe('PhotoManager uploads', () => {
  it('shrinks a 6 MB phone photo to a 2048 px JPEG and shows each step as progress', async () => {
    const fake = fakeCanvas();
    const upload = deferred();
    serveUploads(upload.reply);
    renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('IMG_0001.HEIC', 6 * MiB, 'image/heic'));

    const bar = await screen.findByRole('progressbar', {
      name: '「IMG_0001.HEIC」のアップロード',
    });
    // The fake network reports the bytes sent only with its answer, which is
    // held back (lib/__tests__/xhr-fetch.test.ts and e2e/members.spec.ts
    // follow the bytes).
    await waitFor(() =>
      expect(bar).toHaveAttribute(
        'aria-valuetext',
        '送信しています… 0%（2/3）',
      ),
    );
    expect(bar).toHaveAttribute('aria-valuenow', '1');
    expect(bar).toHaveAttribute('aria-valuemax', '3');
    expect(screen.getByRole('status')).toHaveTextContent(
      '写真1枚をアップロードしています。',
    );
    expect(screen.getByLabelText(/写真を追加/)).toBeDisabled();
    expect(fake.canvases).toEqual([[2048, 1536]]);
    const sent = apiCalls.find((c) => c.path === '/storage/upload');
    const body = (await sent!.request.clone().json()) as Record<string, string>;
    expect(body.fileName).toBe('IMG_0001.jpg');
    expect(body.contentType).toBe('image/jpeg');
    // The 200 KB JPEG, not the 6 MB original, in base64.
    expect(atob(body.data!)).toHaveLength(200_000);

    upload.release(ok(stored('users/u-1/a.jpg')));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '写真を1枚追加しました。',
      ),
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const saved = apiCalls.find((c) => c.path === '/user/updateImageInfo');
    expect(await saved!.request.clone().json()).toEqual({
      imageInfo: [{ keyName: 'users/u-1/a.jpg' }],
    });
  });

  it('says in Japanese that a picture it cannot read (HEIC outside Safari) cannot be used, and sends nothing', async () => {
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(() => Promise.reject(new DOMException('no', 'InvalidStateError'))),
    );
    serveApi({});
    renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('IMG_0002.HEIC', 3 * MiB, 'image/heic'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      '「IMG_0002.HEIC」：この画像は読み込めませんでした。JPEG・PNG・WebP の写真を選んでください。',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(apiCalls).toEqual([]);
    expect(screen.getByLabelText(/写真を追加/)).toBeEnabled();
  });

  it('keeps the picked photo when the upload fails, and sends it again without re-picking', async () => {
    const fake = fakeCanvas();
    let answer: Response = ng('PayloadTooLarge');
    serveUploads(() => answer);
    renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('IMG_0003.jpg', 8 * MiB, 'image/jpeg'));

    const alert = await screen.findByText(/を送信できませんでした/);
    expect(alert).toHaveTextContent(
      '「IMG_0003.jpg」を送信できませんでした（ファイルサイズが大きすぎます。）。',
    );
    const tile = screen
      .getByRole('img', { name: '送信できなかった写真「IMG_0003.jpg」' })
      .closest('li')!;
    expect(within(tile).getByText('送信できませんでした')).toBeVisible();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    answer = ok(stored('users/u-1/b.jpg'));
    await userEvent.click(
      within(tile).getByRole('button', {
        name: '「IMG_0003.jpg」をもう一度送る',
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '写真を1枚追加しました。',
      ),
    );
    // The same shrunk picture went again; the file was not read twice.
    expect(fake.createImageBitmap).toHaveBeenCalledTimes(1);
    expect(apiCalls.filter((c) => c.path === '/storage/upload').length).toBe(2);
    expect(
      screen.queryByRole('img', { name: /送信できなかった写真/ }),
    ).not.toBeInTheDocument();
  });

  it('refuses a file that is not a picture before any upload', async () => {
    serveApi({});
    renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('memo.txt', 10, 'text/plain'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '「memo.txt」は登録できない形式です。',
    );
    expect(apiCalls).toEqual([]);
  });
});
