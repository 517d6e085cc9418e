import { useId, type ReactNode } from 'react';
import type { User } from '@proam/contract';
import { MemberSection } from '@/components/member-section';
import { HeartIcon } from '@/components/icons';
import { InlineError } from '@/components/inline-error';
import { useGetUsersByIdListQuery } from '@/features/profile/profile-api';
import {
  useGetLikeCountQuery,
  useGetLikedByQuery,
  useGetNewAmateursQuery,
} from '../likes-api';
import type { useLikeToggle } from '../use-like-toggle';
import { LikeButton } from './like-button';
import { LikedMembers } from './liked-members';
import { MemberCard, MemberCardSkeletons } from './member-card';
import { groupDigits } from '@/lib/format';

/** What each amateur's card offers beside likes (通報, ブロック), composed in by the route. */
type MemberSafety = (user: User) => ReactNode;

type ProLikesProps = {
  userId: string;
  toggle: ReturnType<typeof useLikeToggle>;
  memberSafety?: MemberSafety;
};

/** Who liked the pro (`/user/likedBy`, beyond the seed), newest first. */
const LikedBy = ({
  userId,
  memberSafety,
}: {
  userId: string;
  memberSafety?: MemberSafety;
}) => {
  const id = useId();
  const likedBy = useGetLikedByQuery(userId);
  const ids = (likedBy.data ?? []).map((l) => l.userId);
  const users = useGetUsersByIdListQuery(ids, { skip: ids.length === 0 });
  return (
    <MemberSection id={`${id}-title`} title="いいねしてくれた会員">
      {likedBy.isError || users.isError ? (
        <InlineError
          message="いいねしてくれた会員を読み込めませんでした。"
          onRetry={() => void likedBy.refetch()}
        />
      ) : likedBy.isLoading || users.isLoading ? (
        <MemberCardSkeletons
          count={likedBy.data ? ids.length : 2}
          footer={memberSafety !== undefined}
        />
      ) : ids.length === 0 ? (
        <p className="empty-state">
          まだいいねはありません。プロフィールや写真を充実させて、アマチュア会員にアピールしましょう。
        </p>
      ) : (
        <ul className="member-list">
          {(users.data ?? []).map((u) => (
            <li key={u.id}>
              <MemberCard user={u} footer={memberSafety?.(u)} />
            </li>
          ))}
        </ul>
      )}
    </MemberSection>
  );
};

/**
 * The pro's side of likes: how many they received and from whom, the amateurs
 * they liked, and new amateurs to like back.
 */
export const ProLikes = ({ userId, toggle, memberSafety }: ProLikesProps) => {
  const id = useId();
  const count = useGetLikeCountQuery({ userType: 'pro', userId });
  const newcomers = useGetNewAmateursQuery(20);
  const { likedIds } = toggle;

  return (
    <>
      <section className="like-total" aria-labelledby={`${id}-total`}>
        <h2 id={`${id}-total`} className="like-total__label">
          <HeartIcon width={22} height={22} fill="currentColor" />
          もらったいいね
        </h2>
        {count.isError ? (
          <InlineError
            message="いいねの数を読み込めませんでした。"
            onRetry={() => void count.refetch()}
          />
        ) : (
          <p className="like-total__number">
            {count.data === undefined ? (
              <span
                className="skeleton skeleton--number"
                aria-label="読み込み中"
              />
            ) : (
              <>
                <strong>{groupDigits(count.data)}</strong>
                <span className="like-total__unit">件</span>
              </>
            )}
          </p>
        )}
      </section>
      <LikedBy userId={userId} memberSafety={memberSafety} />
      <LikedMembers
        title="いいねしたアマチュア会員"
        pros={false}
        toggle={toggle}
        empty="まだいいねしたアマチュア会員はいません。下の「新しく登録したアマチュア会員」からいいねできます。"
      />
      <MemberSection id={`${id}-new`} title="新しく登録したアマチュア会員">
        <p className="form-note">最近30日間に登録したアマチュア会員です。</p>
        {newcomers.isError ? (
          <InlineError
            message="新しい会員を読み込めませんでした。"
            onRetry={() => void newcomers.refetch()}
          />
        ) : newcomers.isLoading ? (
          <MemberCardSkeletons
            count={2}
            footer={memberSafety !== undefined}
            action
          />
        ) : (newcomers.data ?? []).length === 0 ? (
          <p className="empty-state">
            最近30日間に登録したアマチュア会員はいません。
          </p>
        ) : (
          <ul className="member-list">
            {(newcomers.data ?? []).map((u) => (
              <li key={u.id}>
                <MemberCard
                  user={u}
                  footer={memberSafety?.(u)}
                  action={
                    <LikeButton
                      name={u.userName}
                      liked={likedIds.has(u.id)}
                      onToggle={() => toggle.toggle(u.id)}
                    />
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </MemberSection>
    </>
  );
};
