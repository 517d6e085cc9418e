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
import { useGetUserQuery } from '../profile-api';

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
    let answer: Response = ng('InternalError');
    serveUploads(() => answer);
    renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('IMG_0003.jpg', 8 * MiB, 'image/jpeg'));

    const alert = await screen.findByText(/を送信できませんでした/);
    expect(alert).toHaveTextContent(
      '「IMG_0003.jpg」を送信できませんでした。サーバーでエラーが発生しました。時間をおいて再度お試しください。「もう一度送る」で送り直せます。',
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

  it.each([
    [
      'PayloadTooLarge',
      '「IMG_0004.jpg」を送信できませんでした。ファイルサイズが大きすぎます。別の写真を選んでください。',
    ],
    [
      'UnsupportedMediaType',
      '「IMG_0004.jpg」を送信できませんでした。このファイル形式には対応していません。JPEG・PNG・WebP・GIF の写真を選んでください。',
    ],
  ] as const)(
    'offers no もう一度送る for %s, which sending again cannot mend, and says what to do',
    async (code, message) => {
      fakeCanvas();
      serveUploads(() => ng(code));
      renderWithProviders(<PhotoManager user={user} />);
      await pick(photo('IMG_0004.jpg', 3 * MiB, 'image/jpeg'));
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(screen.queryByRole('button', { name: /もう一度送る/ })).toBeNull();
      expect(screen.queryByRole('img', { name: /IMG_0004/ })).toBeNull();
      expect(screen.getByLabelText(/写真を追加/)).toBeEnabled();
    },
  );

  it('says once, on the photo, that a sent photo could not be saved on the profile', async () => {
    fakeCanvas();
    let saveAnswer: Response = ng('InternalError');
    serveApi({
      '/storage/upload': () => ok(stored('users/u-1/c.jpg')),
      '/user/updateImageInfo': () => saveAnswer,
    });
    const { store } = renderWithProviders(<PhotoManager user={user} />);
    await pick(photo('IMG_0005.jpg', 3 * MiB, 'image/jpeg'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '「IMG_0005.jpg」をプロフィールに保存できませんでした。サーバーでエラーが発生しました。時間をおいて再度お試しください。「もう一度送る」で送り直せます。',
    );
    // Not a second time in the global エラー dialog.
    expect(store.getState().ui.alerts).toEqual([]);
    const tile = screen
      .getByRole('img', { name: '保存できなかった写真「IMG_0005.jpg」' })
      .closest('li')!;
    expect(
      within(tile).getByText('プロフィールに保存できませんでした'),
    ).toBeVisible();

    // Sending again saves the photo already sent, without uploading it again.
    saveAnswer = ok({ ...user, imageInfo: [stored('users/u-1/c.jpg')] });
    await userEvent.click(
      screen.getByRole('button', { name: '「IMG_0005.jpg」をもう一度送る' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '写真を1枚追加しました。',
      ),
    );
    expect(apiCalls.filter((c) => c.path === '/storage/upload')).toHaveLength(
      1,
    );
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

/** The profile as the profile tab shows it: read from the cache the saves write. */
const LiveProfile = () => {
  const { data } = useGetUserQuery('u-1');
  return data ? <PhotoManager user={data} /> : null;
};

/**
 * Chromium's focus fixup, which jsdom lacks: a focused control that becomes
 * disabled (every button while the order is saved) loses the focus to the
 * body. jsdom's blur() ignores a disabled control, so the focus is moved to
 * a stand-in that then leaves the page.
 */
const blurWhenDisabled = () => {
  const observer = new MutationObserver(() => {
    const el = document.activeElement;
    if (!(el instanceof HTMLButtonElement && el.disabled)) return;
    const standIn = document.createElement('button');
    document.body.append(standIn);
    standIn.focus();
    standIn.remove();
  });
  observer.observe(document.body, {
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });
  return () => observer.disconnect();
};

describe('PhotoManager order', () => {
  let stopBlurring = () => undefined as void;
  beforeEach(() => {
    stopBlurring = blurWhenDisabled();
  });
  afterEach(() => stopBlurring());
  const three = {
    ...user,
    imageInfo: ['a', 'b', 'c'].map((k) => stored(`users/u-1/${k}.jpg`)),
  };
  const serveProfile = () => {
    let current = three;
    serveApi({
      '/user/read': () => ok(current),
      '/user/updateImageInfo': (body: { imageInfo: { keyName: string }[] }) => {
        current = {
          ...current,
          imageInfo: body.imageInfo.map((i) => stored(i.keyName)),
        };
        return ok(current);
      },
    });
  };
  const order = () =>
    screen
      .getAllByRole('img', { name: /山本 拓也さんの写真/ })
      .map((img) => img.getAttribute('src'));

  it('keeps the keyboard on the moved photo when ← leaves it first', async () => {
    serveProfile();
    renderWithProviders(<LiveProfile />);
    await userEvent.click(
      await screen.findByRole('button', { name: '2枚目の写真を前へ移動' }),
    );
    await waitFor(() => expect(order()[0]).toBe('/media/users/u-1/b.jpg'));
    // ← is disabled in the first place: the photo's → has the focus.
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: '1枚目の写真を後ろへ移動' }),
      ).toHaveFocus(),
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      '2枚目の写真を前へ移動しました。',
    );
  });

  it('keeps the keyboard on the moved photo after メイン写真に設定, which goes away', async () => {
    serveProfile();
    renderWithProviders(<LiveProfile />);
    await userEvent.click(
      await screen.findByRole('button', {
        name: '3枚目の写真をメイン写真に設定',
      }),
    );
    await waitFor(() =>
      expect(order()).toEqual([
        '/media/users/u-1/c.jpg',
        '/media/users/u-1/a.jpg',
        '/media/users/u-1/b.jpg',
      ]),
    );
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: '1枚目の写真を後ろへ移動' }),
      ).toHaveFocus(),
    );
  });

  it('keeps the keyboard on the same control when a move to the middle is saved', async () => {
    serveProfile();
    renderWithProviders(<LiveProfile />);
    await userEvent.click(
      await screen.findByRole('button', { name: '1枚目の写真を後ろへ移動' }),
    );
    await waitFor(() => expect(order()[1]).toBe('/media/users/u-1/a.jpg'));
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: '2枚目の写真を後ろへ移動' }),
      ).toHaveFocus(),
    );
  });

  it('gives the focus back to the pressed button when the order cannot be saved', async () => {
    serveApi({
      '/user/read': () => ok(three),
      '/user/updateImageInfo': () => ng('InternalError'),
    });
    renderWithProviders(<LiveProfile />);
    const main = await screen.findByRole('button', {
      name: '2枚目の写真をメイン写真に設定',
    });
    await userEvent.click(main);
    await waitFor(() => expect(main).toBeEnabled());
    await waitFor(() => expect(main).toHaveFocus());
    expect(order()[0]).toBe('/media/users/u-1/a.jpg');
  });
});
