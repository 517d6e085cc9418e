import { skipToken } from '@reduxjs/toolkit/query';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { chatApi, useGetUnreadQuery } from './chat-api';
import '@/styles/lessons.css';

/**
 * For the member area's layout: keeps the chat socket open while a member is
 * logged in and returns their unread message count for the tab bar.
 */
export const useChatConnection = (): number => {
  const user = useAppSelector(selectAuthUser);
  // Buyers (procurement check-in) have no chats; their token may not read them.
  const userId = user && user.type !== 'BUYER' ? user.id : null;
  // The layout takes only what it shows, so the queries' loading states, a
  // message's update of the unread list and a refetch re-render the member
  // area (its tab bar) only when the count changes: a store update renders
  // synchronously, a long task on a phone each time. The socket needs a
  // subscription, not its cache entry's state.
  chatApi.endpoints.chatStream.useQuerySubscription(userId ?? skipToken);
  const { total } = useGetUnreadQuery(userId ?? skipToken, {
    // The socket keeps it current; this catches anything it missed.
    pollingInterval: 300_000,
    selectFromResult: ({ data }) => ({
      total: (data ?? []).reduce((n, u) => n + u.unreadCount, 0),
    }),
  });
  return total;
};
