import { skipToken } from '@reduxjs/toolkit/query';
import { MemberSection } from '@/components/member-section';
import { Avatar } from '@/components/avatar';
import { QueryState } from '@/components/query-state';
import { useGetUsersByIdListQuery } from '@/features/profile/profile-api';
import { useGetBlocksQuery, useUnblockUserMutation } from '../moderation-api';

/** ブロック中のメンバー in the profile tab, each with 解除. */
export const BlockedMembers = () => {
  const blocks = useGetBlocksQuery();
  const ids = blocks.data ?? [];
  const members = useGetUsersByIdListQuery(ids.length ? ids : skipToken);
  const [unblock, { isLoading }] = useUnblockUserMutation();
  const nameOf = (id: string) =>
    members.data?.find((u) => u.id === id)?.userName ?? '退会したユーザー';
  return (
    <MemberSection
      id="blocked-title"
      className="blocked-members"
      title="ブロック中のメンバー"
    >
      <QueryState
        query={blocks}
        loading="ブロック中のメンバーを読み込み中"
        error="ブロック中のメンバーを読み込めませんでした。"
        isEmpty={ids.length === 0}
        empty="ブロック中のメンバーはいません。"
      >
        {() => (
          <ul className="blocked-members__list">
            {ids.map((id) => {
              const user = members.data?.find((u) => u.id === id);
              return (
                <li key={id} className="blocked-members__item">
                  <Avatar
                    name={nameOf(id)}
                    url={user?.imageInfo[0]?.url}
                    size="small"
                  />
                  <span className="blocked-members__name">
                    {nameOf(id)}
                    {user?.type === 'pro' && 'プロ'}
                  </span>
                  <button
                    type="button"
                    className="button button--outline"
                    disabled={isLoading}
                    aria-label={`${nameOf(id)}さんのブロックを解除`}
                    onClick={() => void unblock(id)}
                  >
                    解除
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
    </MemberSection>
  );
};
