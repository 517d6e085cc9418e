import { useId } from 'react';
import { MemberSection } from '@/components/member-section';
import { InlineError } from '@/components/inline-error';
import { useGetUsersByIdListQuery } from '@/features/profile/profile-api';
import type { useLikeToggle } from '../use-like-toggle';
import { MemberCard, MemberCardSkeletons, proPath } from './member-card';

type LikedMembersProps = {
  title: string;
  /** The liked members are pros (an amateur's list), else amateurs (a pro's). */
  pros: boolean;
  /** The member's likes (whose query this shows) and their いいね解除. */
  toggle: Pick<ReturnType<typeof useLikeToggle>, 'likes' | 'toggle'>;
  empty: string;
};

/** The members the logged-in person liked, newest first, each with いいね解除. */
export const LikedMembers = ({
  title,
  pros,
  toggle: { likes: query, toggle: onUnlike },
  empty,
}: LikedMembersProps) => {
  const id = useId();
  const likes = query.data;
  const ids = (likes ?? [])
    .filter((l) => !l.likeId.startsWith('optimistic-'))
    .map((l) => l.likeUserId);
  const users = useGetUsersByIdListQuery(ids, { skip: ids.length === 0 });
  // Keep showing the last answer while a changed list is fetched.
  const byId = new Map((users.data ?? []).map((u) => [u.id, u]));
  const shown = ids.flatMap((i) => byId.get(i) ?? []);

  return (
    <MemberSection
      id={`${id}-title`}
      title={title}
      aside={likes ? <p className="muted">{ids.length}人</p> : null}
    >
      {query.isError || users.isError ? (
        <InlineError
          message="いいねした会員を読み込めませんでした。"
          onRetry={() => void query.refetch()}
        />
      ) : query.isLoading || (ids.length > 0 && users.isLoading) ? (
        // As many as the likes name, once they have answered.
        <MemberCardSkeletons
          count={likes ? ids.length : 2}
          pros={pros}
          action
        />
      ) : ids.length === 0 ? (
        <p className="empty-state">{empty}</p>
      ) : (
        <ul className="member-list">
          {shown.map((u) => (
            <li key={u.id}>
              <MemberCard
                user={u}
                to={u.type === 'pro' ? proPath(u.id) : undefined}
                action={
                  <button
                    type="button"
                    className="button button--outline button--small"
                    // Starts with the visible text (WCAG 2.5.3), then whose like.
                    aria-label={`いいね解除（${u.userName}さん）`}
                    onClick={() => onUnlike(u.id)}
                  >
                    いいね解除
                  </button>
                }
              />
            </li>
          ))}
        </ul>
      )}
    </MemberSection>
  );
};
