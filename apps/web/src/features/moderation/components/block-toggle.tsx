import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
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
        message={`${name}をブロックします。お互いに一覧や検索に表示されなくなり、いいね・チャット・レッスンの予約ができなくなります。ブロックはプロフィール画面からいつでも解除できます。`}
        confirmLabel={blocking.isLoading ? '処理中…' : 'ブロックする'}
        busy={blocking.isLoading}
        onConfirm={() => void block(userId).then(() => setAsking(false))}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
};
