import { useMemo } from 'react';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import {
  useGetGivenLikesQuery,
  useLikeMemberMutation,
  useUnlikeMemberMutation,
  type MemberType,
} from './likes-api';

/**
 * The logged-in member's likes and a toggle that shows at once: the cache is
 * patched before the server answers and restored if it refuses.
 */
export const useLikeToggle = () => {
  const me = useAppSelector(selectAuthUser);
  const myType: MemberType | null =
    me?.type === 'pro' || me?.type === 'amature' ? me.type : null;
  const arg = me && myType ? { userType: myType, userId: me.id } : null;
  const likes = useGetGivenLikesQuery(
    arg ?? { userType: 'amature', userId: '' },
    {
      skip: !arg,
    },
  );
  const [like] = useLikeMemberMutation();
  const [unlike] = useUnlikeMemberMutation();
  const likedIds = useMemo(
    () => new Set((likes.data ?? []).map((l) => l.likeUserId)),
    [likes.data],
  );

  const toggle = (likeUserId: string) => {
    if (!arg) return;
    const pair = { ...arg, likeUserId };
    void (likedIds.has(likeUserId) ? unlike(pair) : like(pair));
  };

  return { me, myType, likes, likedIds, toggle, canLike: arg !== null };
};
