import type { ImageInfo, User } from '@proam/contract';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { MemberSection } from '@/components/member-section';
import { ConfirmDialog } from '@/components/confirm-dialog';
import {
  useDeleteImageMutation,
  useUpdateImageInfoMutation,
  useUploadImageMutation,
} from '../profile-api';
import { MAX_PHOTOS, checkImageFile, readAsBase64 } from '../image-file';

type Pending = { id: string; name: string; preview: string };

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
  const [deleteImage, { isLoading: deleting }] = useDeleteImageMutation();
  const photos = user.imageInfo;
  const room = MAX_PHOTOS - photos.length - pending.length;
  const busy = saving || deleting || pending.length > 0;

  // Object URLs of previews are released when the component goes away.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

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
    const items = accepted.map((file, i) => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      return {
        file,
        item: { id: `${Date.now()}-${i}`, name: file.name, preview },
      };
    });
    setPending((p) => [...p, ...items.map((x) => x.item)]);
    let keys = photos.map((p) => ({ keyName: p.keyName }));
    let added = 0;
    for (const { file, item } of items) {
      const data = await readAsBase64(file).catch(() => null);
      const uploaded = data
        ? await upload({ fileName: file.name, contentType: file.type, data })
        : null;
      if (uploaded && 'data' in uploaded && uploaded.data) {
        const result = await saveOrder([
          ...keys,
          { keyName: uploaded.data.keyName },
        ]);
        if ('data' in result && result.data) {
          keys = result.data.imageInfo.map((p) => ({ keyName: p.keyName }));
          added += 1;
        }
      } else if (!data) {
        setProblems((p) => [...p, `「${file.name}」を読み込めませんでした。`]);
      }
      setPending((p) => p.filter((x) => x.id !== item.id));
      URL.revokeObjectURL(item.preview);
      previews.current.delete(item.preview);
    }
    if (added > 0) setStatus(`写真を${added}枚追加しました。`);
  };

  const reorder = async (from: number, to: number, message: string) => {
    setStatus('');
    const result = await saveOrder(move(photos, from, to));
    if ('data' in result) setStatus(message);
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
        枚まで登録できます（JPEG・PNG・WebP・GIF、1枚5MBまで）。1枚目がメイン写真として表示されます。
      </p>
      <ul className="photo-grid" aria-label="登録済みの写真">
        {photos.map((photo, i) => (
          <li key={photo.keyName} className="photo-tile">
            <div className="photo-tile__frame">
              <img
                src={photo.url}
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
                disabled={busy || i === 0}
                onClick={() =>
                  void reorder(
                    i,
                    i - 1,
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
                disabled={busy || i === photos.length - 1}
                onClick={() =>
                  void reorder(
                    i,
                    i + 1,
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
                onClick={() => void reorder(i, 0, 'メイン写真を変更しました。')}
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
            aria-busy="true"
          >
            <div className="photo-tile__frame">
              <img
                src={p.preview}
                alt={`アップロード中の写真「${p.name}」`}
                className="photo-tile__img"
              />
            </div>
            <progress
              className="photo-tile__progress"
              aria-label={`「${p.name}」をアップロード中`}
            />
            <p className="photo-tile__note">アップロード中…</p>
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
            src={toDelete.url}
            alt="削除する写真"
            className="confirm-dialog__image"
          />
        )}
      </ConfirmDialog>
    </MemberSection>
  );
};
