import { mediaUrl } from '@/config/env';
import type { ImageInfo, User } from '@proam/contract';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { MemberSection } from '@/components/member-section';
import { ConfirmDialog } from '@/components/confirm-dialog';
import {
  ImageShrinkError,
  UNREADABLE_IMAGE_MSG,
  jpegName,
  prepareImage,
  type PreparedImage,
} from '@/lib/shrink-image';
import { withUploadProgress } from '@/lib/api';
import { isApiError } from '@/lib/api-error';
import {
  useAddUploadedImageMutation,
  useDeleteImageMutation,
  useUpdateImageInfoMutation,
  useUploadImageMutation,
} from '../profile-api';
import { MAX_PHOTOS, checkImageFile, readAsBase64 } from '../image-file';

/**
 * A photo on its way: shrunk in the browser, sent, then saved on the profile.
 * `failed` keeps the tile (and the picked file) so the member can send it
 * again without picking it anew.
 */
type Stage = 'prepare' | 'send' | 'save' | 'failed';
type Pending = {
  id: string;
  name: string;
  preview: string;
  stage: Stage;
  /** How much of the photo has gone out while it is sent: 0 to 1. */
  sent: number;
  /** `failed`: the step that did not get through. */
  failedAt?: 'send' | 'save';
};
type KeyRef = { keyName: string };

/**
 * The bar moves by step, and through the send by the bytes gone out
 * (withUploadProgress): on a phone's slow uplink the few hundred KB of a
 * shrunk photo can take seconds.
 */
const STEPS: Record<
  Exclude<Stage, 'failed'>,
  { done: number; label: string }
> = {
  prepare: { done: 0, label: '写真を縮小しています…' },
  send: { done: 1, label: '送信しています…' },
  save: { done: 2, label: 'プロフィールに保存しています…' },
};
const STEP_COUNT = 3;

/** Where a photo on its way stands, as a bar and in words. */
const UploadProgressBar = ({
  name,
  stage,
  sent,
}: {
  name: string;
  stage: Exclude<Stage, 'failed'>;
  sent: number;
}) => {
  const step = STEPS[stage];
  const sending = stage === 'send';
  const label = sending
    ? `${step.label} ${Math.round(sent * 100)}%`
    : step.label;
  const value = step.done + (sending ? sent : 0);
  return (
    <>
      <progress
        className="photo-tile__progress"
        max={STEP_COUNT}
        value={value}
        aria-valuemin={0}
        aria-valuemax={STEP_COUNT}
        aria-valuenow={value}
        aria-valuetext={`${label}（${step.done + 1}/${STEP_COUNT}）`}
        aria-label={`「${name}」のアップロード`}
      />
      <p className="photo-tile__note" aria-hidden="true">
        {label}
      </p>
    </>
  );
};

/** The server's reason as a sentence of its own, ending with 。. */
const reasonOf = (error: unknown): string => {
  const msg = isApiError(error) ? error.msg.trim() : '';
  if (!msg) return '通信に失敗しました。';
  return /[。．.！？!?]$/.test(msg) ? msg : `${msg}。`;
};

/**
 * Refusals of the picture itself: the same bytes are refused again, so no
 * もう一度送る; what the member can do instead.
 */
const NOT_RETRIED: Record<string, string> = {
  PayloadTooLarge: '別の写真を選んでください。',
  UnsupportedMediaType: 'JPEG・PNG・WebP・GIF の写真を選んでください。',
};
const adviceFor = (error: unknown): string | undefined =>
  isApiError(error) ? NOT_RETRIED[error.code] : undefined;

/** The buttons that move a photo; after a move the focus stays on one of them. */
type MoveAction = 'prev' | 'next' | 'main';
const FOCUS_ORDER: Record<MoveAction, readonly MoveAction[]> = {
  prev: ['prev', 'next', 'main'],
  next: ['next', 'prev', 'main'],
  main: ['main', 'next', 'prev'],
};

const move = <T,>(list: readonly T[], from: number, to: number): T[] => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
};

type PhotoManagerProps = { user: User };

/**
 * Up to six photos: upload, reorder, delete, choose the main one. Every change
 * is saved with `/user/updateImageInfo`; the first photo is the main one.
 * Photos are shrunk in the browser first (lib/shrink-image.ts): a phone's
 * 12-megapixel photo is more than the server takes.
 */
export const PhotoManager = ({ user }: PhotoManagerProps) => {
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [status, setStatus] = useState('');
  const [toDelete, setToDelete] = useState<ImageInfo | null>(null);
  const [upload] = useUploadImageMutation();
  const [saveOrder, { isLoading: saving }] = useUpdateImageInfoMutation();
  const [addUploaded] = useAddUploadedImageMutation();
  const [deleteImage, { isLoading: deleting }] = useDeleteImageMutation();
  const photos = user.imageInfo;
  const room = MAX_PHOTOS - photos.length - pending.length;
  const uploading = pending.some((p) => p.stage !== 'failed');
  const busy = saving || deleting || uploading;

  // Object URLs of previews are released when the component goes away.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const nextId = useRef(0);
  /** What each pending photo has got so far, kept for a retry. */
  const work = useRef(
    new Map<
      string,
      { file: File; prepared?: PreparedImage; keyName?: string }
    >(),
  );

  const setStage = (id: string, stage: Stage) =>
    setPending((list) =>
      list.map((x) => (x.id === id ? { ...x, stage, sent: 0 } : x)),
    );
  // Never backwards: a call renewed after an ended access token sends the
  // photo again from its start.
  const setSent = (id: string, sent: number) =>
    setPending((list) =>
      list.map((x) =>
        x.id === id && x.stage === 'send'
          ? { ...x, sent: Math.max(x.sent, sent) }
          : x,
      ),
    );

  const drop = (item: Pending) => {
    setPending((list) => list.filter((x) => x.id !== item.id));
    work.current.delete(item.id);
    URL.revokeObjectURL(item.preview);
    previews.current.delete(item.preview);
  };

  /** One photo through its steps; the photo list it leaves, or null if it did not get there. */
  const runOne = async (
    item: Pending,
    keys: readonly KeyRef[],
  ): Promise<KeyRef[] | null> => {
    const job = work.current.get(item.id);
    if (!job) return null;
    if (!job.prepared) {
      setStage(item.id, 'prepare');
      try {
        job.prepared = await prepareImage(job.file);
      } catch (e) {
        // A file the browser cannot read stays unreadable: no retry tile.
        const msg =
          e instanceof ImageShrinkError ? e.message : UNREADABLE_IMAGE_MSG;
        setProblems((p) => [...p, `「${item.name}」：${msg}`]);
        drop(item);
        return null;
      }
    }
    const failed = (step: 'send' | 'save', error: unknown) => {
      const what = step === 'send' ? '送信' : 'プロフィールに保存';
      const said = `「${item.name}」を${what}できませんでした。${reasonOf(error)}`;
      const advice = adviceFor(error);
      if (advice) {
        setProblems((p) => [...p, said + advice]);
        drop(item);
        return null;
      }
      setPending((list) =>
        list.map((x) =>
          x.id === item.id ? { ...x, stage: 'failed', failedAt: step } : x,
        ),
      );
      setProblems((p) => [...p, `${said}「もう一度送る」で送り直せます。`]);
      return null;
    };
    if (!job.keyName) {
      setStage(item.id, 'send');
      const { blob, resized } = job.prepared;
      const data = await readAsBase64(blob).catch(() => null);
      if (!data) {
        setProblems((p) => [...p, `「${item.name}」：${UNREADABLE_IMAGE_MSG}`]);
        drop(item);
        return null;
      }
      const uploaded = await upload(
        withUploadProgress(
          {
            fileName: resized ? jpegName(item.name) : item.name,
            contentType: blob.type || undefined,
            data,
          },
          (sent) => setSent(item.id, sent),
        ),
      );
      if (!('data' in uploaded) || !uploaded.data)
        return failed('send', uploaded.error);
      job.keyName = uploaded.data.keyName;
    }
    setStage(item.id, 'save');
    const saved = await addUploaded([...keys, { keyName: job.keyName }]);
    if (!('data' in saved) || !saved.data) return failed('save', saved.error);
    drop(item);
    return saved.data.imageInfo.map((p) => ({ keyName: p.keyName }));
  };

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    setStatus('');
    const errors: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem = checkImageFile(file);
      if (problem) errors.push(problem);
      else if (accepted.length >= room)
        errors.push(
          `写真は最大${MAX_PHOTOS}枚までです。「${file.name}」は追加できませんでした。`,
        );
      else accepted.push(file);
    }
    setProblems(errors);
    if (accepted.length === 0) return;
    const items = accepted.map((file, i): Pending => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      const id = `photo-${nextId.current + i}`;
      work.current.set(id, { file });
      return { id, name: file.name, preview, stage: 'prepare', sent: 0 };
    });
    nextId.current += items.length;
    setPending((p) => [...p, ...items]);
    setStatus(`写真${items.length}枚をアップロードしています。`);
    let keys: KeyRef[] = photos.map((p) => ({ keyName: p.keyName }));
    let added = 0;
    for (const item of items) {
      const next = await runOne(item, keys);
      if (next) {
        keys = next;
        added += 1;
      }
    }
    setStatus(added > 0 ? `写真を${added}枚追加しました。` : '');
  };

  const retry = async (item: Pending) => {
    setProblems([]);
    setStatus('写真を送り直しています。');
    const next = await runOne(
      item,
      photos.map((p) => ({ keyName: p.keyName })),
    );
    setStatus(next ? '写真を1枚追加しました。' : '');
  };

  const cancel = (item: Pending) => {
    const keyName = work.current.get(item.id)?.keyName;
    // Sent but not saved on the profile: the stored copy goes too.
    if (keyName) void deleteImage({ keyName, userId: user.id });
    drop(item);
    setProblems([]);
    setStatus(`「${item.name}」の追加を取り消しました。`);
  };

  /**
   * A move re-renders the tiles in their new order and the pressed button
   * may be gone (メイン写真に設定 on the main photo) or disabled (← in the
   * first place): once the order is on screen, the focus goes to the moved
   * photo's button, the pressed one if it is still there.
   */
  const tiles = useRef(new Map<string, HTMLLIElement>());
  const refocus = useRef<{
    keyName: string;
    action: MoveAction;
    at: number;
  } | null>(null);
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    const want = refocus.current;
    if (!want || busy) return;
    const at = photos.findIndex((p) => p.keyName === want.keyName);
    // The saved order has not reached the profile yet.
    if (at !== -1 && at !== want.at) return;
    refocus.current = null;
    const tile = tiles.current.get(want.keyName);
    if (!tile) return;
    const button = FOCUS_ORDER[want.action]
      .map((a) => tile.querySelector<HTMLButtonElement>(`[data-move="${a}"]`))
      .find((b) => b !== null && !b.disabled);
    (button ?? tile.querySelector<HTMLElement>('.photo-tile__frame'))?.focus();
  }, [moves, photos, busy]);

  const reorder = async (
    from: number,
    to: number,
    action: MoveAction,
    message: string,
  ) => {
    const photo = photos[from];
    if (!photo) return;
    setStatus('');
    const result = await saveOrder(move(photos, from, to));
    const saved = 'data' in result;
    if (saved) setStatus(message);
    refocus.current = { keyName: photo.keyName, action, at: saved ? to : from };
    setMoves((n) => n + 1);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const result = await deleteImage({
      keyName: toDelete.keyName,
      userId: user.id,
    });
    setToDelete(null);
    if ('data' in result) setStatus('写真を削除しました。');
  };

  return (
    <MemberSection
      id={`${inputId}-title`}
      title="プロフィール写真"
      aside={
        <p className="muted photo-count">
          {photos.length} / {MAX_PHOTOS}枚
        </p>
      }
    >
      <p className="form-note">
        最大{MAX_PHOTOS}
        枚まで登録できます（JPEG・PNG・WebP・GIF）。大きな写真は送る前に自動で縮小します。1枚目がメイン写真として表示されます。
      </p>
      <ul className="photo-grid" aria-label="登録済みの写真">
        {photos.map((photo, i) => (
          <li
            key={photo.keyName}
            className="photo-tile"
            ref={(el) => {
              if (el) tiles.current.set(photo.keyName, el);
              else tiles.current.delete(photo.keyName);
            }}
          >
            <div className="photo-tile__frame" tabIndex={-1}>
              <img
                src={mediaUrl(photo.url)}
                alt={`${user.userName}さんの写真 ${i + 1}枚目${i === 0 ? '（メイン写真）' : ''}`}
                className="photo-tile__img"
              />
              {i === 0 && <span className="photo-tile__badge">メイン</span>}
            </div>
            <div className="photo-tile__actions">
              <button
                type="button"
                className="icon-button"
                aria-label={`${i + 1}枚目の写真を前へ移動`}
                data-move="prev"
                disabled={busy || i === 0}
                onClick={() =>
                  void reorder(
                    i,
                    i - 1,
                    'prev',
                    `${i + 1}枚目の写真を前へ移動しました。`,
                  )
                }
              >
                <span aria-hidden="true">←</span>
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`${i + 1}枚目の写真を後ろへ移動`}
                data-move="next"
                disabled={busy || i === photos.length - 1}
                onClick={() =>
                  void reorder(
                    i,
                    i + 1,
                    'next',
                    `${i + 1}枚目の写真を後ろへ移動しました。`,
                  )
                }
              >
                <span aria-hidden="true">→</span>
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                aria-label={`${i + 1}枚目の写真を削除`}
                disabled={busy}
                onClick={() => setToDelete(photo)}
              >
                削除
              </button>
            </div>
            {i > 0 && (
              <button
                type="button"
                className="button button--outline photo-tile__main"
                disabled={busy}
                aria-label={`${i + 1}枚目の写真をメイン写真に設定`}
                data-move="main"
                onClick={() =>
                  void reorder(i, 0, 'main', 'メイン写真を変更しました。')
                }
              >
                メイン写真に設定
              </button>
            )}
          </li>
        ))}
        {pending.map((p) => (
          <li
            key={p.id}
            className="photo-tile photo-tile--pending"
            aria-busy={p.stage !== 'failed'}
          >
            <div className="photo-tile__frame">
              <img
                src={p.preview}
                alt={`${p.stage !== 'failed' ? 'アップロード中の' : p.failedAt === 'save' ? '保存できなかった' : '送信できなかった'}写真「${p.name}」`}
                className="photo-tile__img"
              />
            </div>
            {p.stage === 'failed' ? (
              <>
                <p className="photo-tile__note">
                  {p.failedAt === 'save'
                    ? 'プロフィールに保存できませんでした'
                    : '送信できませんでした'}
                </p>
                <div className="photo-tile__actions">
                  <button
                    type="button"
                    className="button button--outline photo-tile__main"
                    aria-label={`「${p.name}」をもう一度送る`}
                    disabled={busy}
                    onClick={() => void retry(p)}
                  >
                    もう一度送る
                  </button>
                  <button
                    type="button"
                    className="icon-button icon-button--danger"
                    aria-label={`「${p.name}」の追加を取り消す`}
                    disabled={busy}
                    onClick={() => cancel(p)}
                  >
                    取消
                  </button>
                </div>
              </>
            ) : (
              <UploadProgressBar name={p.name} stage={p.stage} sent={p.sent} />
            )}
          </li>
        ))}
        {room > 0 && (
          <li className="photo-tile photo-tile--add">
            <label htmlFor={inputId} className="photo-add">
              <span className="photo-add__plus" aria-hidden="true">
                ＋
              </span>
              写真を追加
            </label>
            <input
              ref={fileInput}
              id={inputId}
              className="visually-hidden photo-add__input"
              type="file"
              accept="image/*"
              multiple
              disabled={busy}
              onChange={(e) => void onFiles(e)}
            />
          </li>
        )}
      </ul>
      {photos.length === 0 && pending.length === 0 && (
        <p className="muted">
          まだ写真が登録されていません。「写真を追加」から登録できます。
        </p>
      )}
      {problems.length > 0 && (
        <div className="form-alert" role="alert">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {status && (
        <p className="photo-status" aria-hidden="true">
          {status}
        </p>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="写真の削除"
        confirmLabel="削除する"
        danger
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      >
        <p>この写真を削除しますか？削除すると元に戻せません。</p>
        {toDelete && (
          <img
            src={mediaUrl(toDelete.url)}
            alt="削除する写真"
            className="confirm-dialog__image"
          />
        )}
      </ConfirmDialog>
    </MemberSection>
  );
};
