import {
  catchUpAfter,
  type ChatLesson,
  type Message,
  type SocketEvent,
  type UnreadLesson,
} from '@proam/contract';
import { isAccessTokenFresh } from '@/features/auth/access-token';
import { renewSession } from '@/features/auth/auth-session';
import type { AuthState } from '@/features/auth/auth-slice';
import type { AppDispatch } from '@/app/store';
import { api, postArg } from '@/lib/api';
import type { ApiError } from '@/lib/api-error';
import { chatEvents } from './chat-events';
import { connectChatSocket, chatSocketUrl } from './chat-socket';
import {
  byLatest,
  markReadBy,
  newestSortKey,
  PAGE_SIZE,
  upsertMessage,
  type MessagePage,
  type PageBefore,
} from './message-pages';

type SendInput = { partitionKey: string; msg: string; sender: string };
type ReadInput = { partitionKey: string; userId: string; msgIdList: string[] };

/** A reconnect's catch-up: at most this many messages after the newest one loaded. */
const CATCH_UP_SIZE = 200;

/**
 * Subscribes a cache entry to the socket's events once its data is there
 * (`cacheDataLoaded`); returns the unsubscribe (a no-op when the entry went
 * before it loaded).
 */
async function listenWhileCached(
  cacheDataLoaded: Promise<unknown>,
  listener: (event: SocketEvent) => void,
): Promise<() => void> {
  try {
    await cacheDataLoaded;
  } catch {
    return () => undefined;
  }
  return chatEvents.subscribe(listener);
}

/**
 * Merges the message(s) a call answered with into the lesson's conversation.
 * A failure leaves it as it was: a catch-up is tried again at the next
 * reconnect, a message stays in the composer.
 */
async function mergeAnswered(
  { partitionKey }: { partitionKey: string },
  {
    dispatch,
    queryFulfilled,
  }: {
    dispatch: AppDispatch;
    queryFulfilled: Promise<{ data: Message | Message[] }>;
  },
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    dispatch(
      chatApi.util.updateQueryData('getMessages', partitionKey, (d) => {
        for (const m of [data].flat()) upsertMessage(d, m);
      }),
    );
  } catch {
    // Nothing was written before the answer.
  }
}

export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * A lesson's conversation, the one home of its messages: the newest page
     * first, もっと見る fetches the next older one (`before` = the oldest
     * sort_key loaded). Sending, the socket and a reconnect's catch-up write
     * into it (upsertMessage). Silent: the conversation shows its own error.
     */
    getMessages: build.infiniteQuery<MessagePage, string, PageBefore>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (oldestPage) =>
          oldestPage.hasOlder ? oldestPage.messages[0]?.sort_key : undefined,
      },
      query: ({ queryArg: partitionKey, pageParam: before }) => ({
        path: '/roundLesson/getMessage',
        body: before
          ? { partitionKey, before, size: PAGE_SIZE }
          : { partitionKey, size: PAGE_SIZE },
        silent: true,
      }),
      transformResponse: (messages: Message[]): MessagePage => ({
        messages,
        hasOlder: messages.length >= PAGE_SIZE,
      }),
      // Left, the conversation is forgotten; opened again, it loads afresh.
      keepUnusedDataFor: 0,
      /** While open: the socket's new messages and read receipts of this lesson. */
      async onCacheEntryAdded(
        partitionKey,
        { cacheDataLoaded, cacheEntryRemoved, updateCachedData },
      ) {
        const stop = await listenWhileCached(cacheDataLoaded, (event) => {
          if (event.body.partitionKey !== partitionKey) return;
          if (event.type === 'message') {
            const message = event.body;
            updateCachedData((d) => upsertMessage(d, message));
          } else {
            const { userId: reader, sort_keys } = event.body;
            updateCachedData((d) => markReadBy(d, reader, sort_keys));
          }
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
    /**
     * What was said after `after` while the socket was down, merged into the
     * lesson's conversation; its own cache entry is dropped at once.
     */
    catchUpMessages: build.query<
      Message[],
      { partitionKey: string; after: string }
    >({
      query: ({ partitionKey, after }) => ({
        path: '/roundLesson/getMessage',
        body: { partitionKey, after, size: CATCH_UP_SIZE },
        silent: true,
      }),
      keepUnusedDataFor: 0,
      onQueryStarted: mergeAnswered,
    }),
    /** Silent: a failed message stays in the composer with 再送信. */
    sendMessage: build.mutation<Message, SendInput>({
      query: postArg('/roundLesson/message', { silent: true }),
      onQueryStarted: mergeAnswered,
      invalidatesTags: ['ChatList'],
    }),
    /** In the background: a failure only means it is tried again later. */
    markRead: build.mutation<{ updatedCount: number }, ReadInput>({
      query: ({ userId, msgIdList }) => ({
        path: '/roundLesson/messageReaded',
        body: { userId, msgIdList },
        silent: true,
      }),
      onQueryStarted: async (
        { partitionKey, userId, msgIdList },
        { dispatch, queryFulfilled },
      ) => {
        try {
          await queryFulfilled;
          dispatch(
            chatApi.util.updateQueryData('getMessages', partitionKey, (d) =>
              markReadBy(d, userId, msgIdList),
            ),
          );
        } catch {
          // Still unread: the conversation tries again.
        }
      },
      invalidatesTags: ['Unread', 'ChatList'],
    }),
    /** The tab bar's unread count (the socket keeps it current). */
    getUnread: build.query<UnreadLesson[], string>({
      query: (userId) => ({
        path: '/notification/unstepRoundLesson',
        body: { userId, size: 50 },
        silent: true,
      }),
      providesTags: ['Unread'],
      async onCacheEntryAdded(
        userId,
        { cacheDataLoaded, cacheEntryRemoved, updateCachedData, dispatch },
      ) {
        const stop = await listenWhileCached(cacheDataLoaded, (event) => {
          if (event.type !== 'message' || event.body.sender === userId) return;
          const message = event.body;
          let known = false;
          updateCachedData((list) => {
            const entry = list.find(
              (u) => u.partitionKey === message.partitionKey,
            );
            if (!entry) return;
            known = true;
            entry.unreadCount += 1;
            entry.lastMessage = message;
          });
          // A lesson new to the unread list needs its schedule: ask again.
          if (!known) dispatch(chatApi.util.invalidateTags(['Unread']));
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
    /**
     * The member's lessons that have a chat, each with its newest message and
     * unread count, newest conversation first (one call; the socket keeps it
     * current).
     */
    getChatLessons: build.query<ChatLesson[], string>({
      query: (userId) => ({ path: '/roundLesson/lessons', body: { userId } }),
      providesTags: ['ChatList', 'Schedule'],
      async onCacheEntryAdded(
        userId,
        { cacheDataLoaded, cacheEntryRemoved, updateCachedData, dispatch },
      ) {
        const stop = await listenWhileCached(cacheDataLoaded, (event) => {
          if (event.type !== 'message') return;
          const message = event.body;
          const fromOther = message.sender !== userId;
          let inList = false;
          updateCachedData((list) => {
            const entry = list.find(
              (l) => l.schedule.id === message.partitionKey,
            );
            if (!entry) return;
            inList = true;
            // Mutate the draft only: returning a new list as well is an Immer error.
            entry.lastMessage = message;
            if (fromOther) entry.unreadCount += 1;
            list.sort(byLatest);
          });
          // A lesson the list does not have yet (a new participant's first message).
          if (fromOther && !inList)
            dispatch(chatApi.util.invalidateTags(['ChatList']));
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
    /**
     * The live connection (docs/api.md, WebSocket): no data of its own; while
     * subscribed it publishes new messages and read receipts (chat-events.ts)
     * to the cached conversation and lists, which write themselves with
     * `updateCachedData` (RTK Query's streaming updates).
     */
    chatStream: build.query<null, string>({
      queryFn: () => ({ data: null }),
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(
        userId,
        { cacheDataLoaded, cacheEntryRemoved, dispatch, getState },
      ) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const store = { dispatch, getState };
        const freshToken = async (renew: boolean): Promise<string | null> => {
          const auth = (getState() as unknown as { auth: AuthState }).auth;
          if (
            !renew &&
            auth.accessToken &&
            isAccessTokenFresh(auth.accessTokenExp, auth.serverOffsetMs)
          )
            return auth.accessToken;
          const failed: ApiError | null = await renewSession(store);
          if (failed) return null;
          return (getState() as unknown as { auth: AuthState }).auth
            .accessToken;
        };
        type State = Parameters<
          typeof chatApi.util.selectCachedArgsForQuery
        >[0];
        const state = () => getState() as unknown as State;
        const onEvent = (event: SocketEvent) => {
          // The cached conversation and lists write themselves (their
          // onCacheEntryAdded); a receipt of the member's own reading on
          // another device changes counts only the server knows.
          chatEvents.publish(event);
          if (event.type === 'read' && event.body.userId === userId)
            dispatch(chatApi.util.invalidateTags(['Unread', 'ChatList']));
        };
        const onReconnected = () => {
          // Catch up on what was said while the socket was down, in every
          // conversation in the cache (the one on screen).
          for (const partitionKey of chatApi.util.selectCachedArgsForQuery(
            state(),
            'getMessages',
          )) {
            const { data } =
              chatApi.endpoints.getMessages.select(partitionKey)(state());
            const newest = data && newestSortKey(data);
            if (newest)
              void dispatch(
                chatApi.endpoints.catchUpMessages.initiate(
                  { partitionKey, after: catchUpAfter(newest) },
                  { subscribe: false, forceRefetch: true },
                ),
              );
          }
          dispatch(chatApi.util.invalidateTags(['Unread', 'ChatList']));
        };
        const stop = connectChatSocket({
          url: chatSocketUrl(),
          getToken: freshToken,
          onEvent,
          onReconnected,
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
  }),
});

export const {
  useGetMessagesInfiniteQuery,
  useSendMessageMutation,
  useMarkReadMutation,
  useGetUnreadQuery,
  useGetChatLessonsQuery,
} = chatApi;
