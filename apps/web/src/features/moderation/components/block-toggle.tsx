import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { apiErrorOf } from '@/lib/server-errors';
import { useAppDispatch, useAppSelector } from '@/lib/store-hooks';
import { errorAlertRaised } from '@/lib/ui-slice';
import {
  useBlockUserMutation,
  useGetBlocksQuery,
  useUnblockUserMutation,
} from '../moderation-api';

type BlockToggleProps = {
  userId: string;
  /** 「山田 太郎さん」. */
  name: string;
};

/**
 * ブロックする (after a confirmation that says what a block does) or
 * ブロック解除, with the state announced.
 */
export const BlockToggle = ({ userId, name }: BlockToggleProps) => {
  const blocks = useGetBlocksQuery();
  const [block, blocking] = useBlockUserMutation();
  const [unblock, unblocking] = useUnblockUserMutation();
  const [asking, setAsking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const dispatch = useAppDispatch();
  // In a lesson's chat a block silences an amateur, never the pro (docs/api.md).
  const isPro = useAppSelector(selectAuthUser)?.type === 'pro';
  const busy = blocking.isLoading || unblocking.isLoading;
  if (!blocks.data) return null;
  const blocked = blocks.data.includes(userId);
  return (
    <div className="block-toggle">
      {blocked && (
        <p className="block-toggle__state" role="status">
          {name}をブロック中です。
        </p>
      )}
      <button
        type="button"
        className="button button--outline block-toggle__button"
        aria-label={`${name}を${blocked ? 'ブロック解除' : 'ブロックする'}`}
        disabled={busy}
        onClick={() => (blocked ? void unblock(userId) : setAsking(true))}
      >
        {blocked ? 'ブロック解除' : 'ブロックする'}
      </button>
      <ConfirmDialog
        open={asking}
        title="ブロックの確認"
        message={
          <>
            {`${name}をブロックします。お互いに一覧や検索に表示されなくなり、いいね、レッスンの予約やキャンセル待ちができなくなります（登録中のキャンセル待ちは取り消されます）。${
              isPro
                ? '同じレッスンのチャットでは、相手がメッセージを送れなくなります。'
                : '同じレッスンのチャットでは、あなたがメッセージを送れなくなります。'
            }ブロックはプロフィール画面からいつでも解除できます。`}
            {refusal && (
              <span
                className="form-field__error block-toggle__refusal"
                role="alert"
              >
                {refusal}
              </span>
            )}
          </>
        }
        confirmLabel={blocking.isLoading ? '処理中…' : 'ブロックする'}
        busy={blocking.isLoading}
        onConfirm={() =>
          void block(userId).then((result) => {
            const error = apiErrorOf(result);
            // What trying again cannot mend is said here, in the dialog.
            if (error?.code === 'Conflict')
              setRefusal(
                'ブロックできるのは500人までです。ブロック中のメンバーを解除してからお試しください。',
              );
            else if (error?.code === 'TooManyRequests')
              setRefusal(
                'ブロックの操作が多すぎます。しばらく時間をおいてからお試しください。',
              );
            else {
              if (error) dispatch(errorAlertRaised(error));
              setRefusal(null);
              setAsking(false);
            }
          })
        }
        onCancel={() => {
          setRefusal(null);
          setAsking(false);
        }}
      />
    </div>
  );
};
