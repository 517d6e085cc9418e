import type {
  Message,
  MessageListInput,
  Schedule,
  SocketEvent,
  UnreadLesson,
} from '@proam/contract';
import { isAccessTokenFresh } from '@/features/auth/access-token';
import { renewSession } from '@/features/auth/auth-session';
import type { AuthState } from '@/features/auth/auth-slice';
import { api, type ApiRequest } from '@/lib/api';
import type { ApiError } from '@/lib/api-error';
import { connectChatSocket, chatSocketUrl } from './chat-socket';
import {
  messageReceived,
  messagesLoaded,
  readReceived,
  type ChatState,
} from './chat-slice';

/** A lesson in the chat list with its newest message, if any. */
export type ChatLesson = { schedule: Schedule; lastMessage: Message | null };

type SendInput = { partitionKey: string; msg: string; sender: string };

const chatTagged = api.enhanceEndpoints({
  addTagTypes: ['Schedule', 'Unread', 'ChatList'],
});

const uniqueById = (lists: Schedule[][]): Schedule[] => {
  const map = new Map<string, Schedule>();
  for (const list of lists) for (const s of list) map.set(s.id, s);
  return [...map.values()];
};

/** Newest message first; lessons without messages after, by date. */
/** Newest conversation first; lessons without messages by date. */
const byLatest = (a: ChatLesson, b: ChatLesson): number => {
  if (a.lastMessage && b.lastMessage)
    return b.lastMessage.sort_key.localeCompare(a.lastMessage.sort_key);
  if (a.lastMessage) return -1;
  if (b.lastMessage) return 1;
  return (
    a.schedule.date.localeCompare(b.schedule.date) ||
    a.schedule.startTime.localeCompare(b.schedule.startTime)
  );
};

export const sortChatLessons = (lessons: ChatLesson[]): ChatLesson[] =>
  [...lessons].sort(byLatest);

/** A lesson has a chat once someone other than the pro takes part. */
const hasChat = (s: Schedule) =>
  s.reservedCount > 0 || (s.participants?.length ?? 0) > 0;

export const chatApi = chatTagged.injectEndpoints({
  endpoints: (build) => ({
    /** Silent: the conversation shows its own loading error. */
    getMessages: build.query<Message[], MessageListInput>({
      query: (body) => ({
        path: '/roundLesson/getMessage',
        body,
        silent: true,
      }),
      keepUnusedDataFor: 0,
    }),
    /** Silent: a failed message stays in the composer with 再送信. */
    sendMessage: build.mutation<Message, SendInput>({
      query: (body) => ({ path: '/roundLesson/message', body, silent: true }),
      invalidatesTags: ['ChatList'],
    }),
    /** In the background: a failure only means it is tried again later. */
    markRead: build.mutation<
      { updatedCount: number },
      { userId: string; msgIdList: string[] }
    >({
      query: (body) => ({
        path: '/roundLesson/messageReaded',
        body,
        silent: true,
      }),
      invalidatesTags: ['Unread'],
    }),
    getUnread: build.query<UnreadLesson[], string>({
      query: (userId) => ({
        path: '/notification/unstepRoundLesson',
        body: { userId, size: 50 },
        silent: true,
      }),
      providesTags: ['Unread'],
    }),
    /** The member's lessons (active and past) that have a chat, with the last message. */
    getChatLessons: build.query<ChatLesson[], string>({
      queryFn: async (userId, _api, _extra, baseQuery) => {
        const run = async (args: ApiRequest) => await baseQuery(args);
        const [active, all] = await Promise.all([
          run({ path: '/schedule/getActive', body: { userId } }),
          run({ path: '/schedule/getById', body: { userId } }),
        ]);
        if (active.error) return { error: active.error };
        if (all.error) return { error: all.error };
        const lessons = uniqueById([
          active.data as Schedule[],
          all.data as Schedule[],
        ]).filter(hasChat);
        const withLast = await Promise.all(
          lessons.map(async (schedule): Promise<ChatLesson> => {
            const res = await run({
              path: '/roundLesson/getMessage',
              body: { partitionKey: schedule.id, size: 1 },
              silent: true,
            });
            const list = (res.data as Message[] | undefined) ?? [];
            return { schedule, lastMessage: list.at(-1) ?? null };
          }),
        );
        return { data: sortChatLessons(withLast) };
      },
      providesTags: ['ChatList', 'Schedule'],
    }),
    /**
     * The live connection (spec/API.md, WebSocket): no data of its own; while
     * subscribed it pushes new messages and read receipts into the chat slice
     * and the cached lists (the streaming pattern of STYLE.md).
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
        const freshToken = async (): Promise<string | null> => {
          const auth = (getState() as unknown as { auth: AuthState }).auth;
          if (
            auth.accessToken &&
            isAccessTokenFresh(auth.accessTokenExp, auth.serverOffsetMs)
          )
            return auth.accessToken;
          const failed: ApiError | null = await renewSession(store);
          if (failed) return null;
          return (getState() as unknown as { auth: AuthState }).auth
            .accessToken;
        };
        const onEvent = (event: SocketEvent) => {
          if (event.type === 'message') {
            const message = event.body;
            dispatch(messageReceived(message));
            dispatch(
              chatApi.util.updateQueryData('getChatLessons', userId, (list) => {
                const entry = list.find(
                  (l) => l.schedule.id === message.partitionKey,
                );
                if (!entry) return;
                // Mutate the draft only: returning a new list as well is an Immer error.
                entry.lastMessage = message;
                list.sort(byLatest);
              }),
            );
            if (message.sender !== userId) {
              let known = false;
              dispatch(
                chatApi.util.updateQueryData('getUnread', userId, (list) => {
                  const entry = list.find(
                    (u) => u.partitionKey === message.partitionKey,
                  );
                  if (!entry) return;
                  known = true;
                  entry.unreadCount += 1;
                  entry.lastMessage = message;
                }),
              );
              // A lesson new to the unread list needs its schedule: ask again.
              if (!known) dispatch(chatApi.util.invalidateTags(['Unread']));
              const inList = chatApi.endpoints.getChatLessons
                .select(userId)(getState() as never)
                .data?.some((l) => l.schedule.id === message.partitionKey);
              if (inList === false)
                dispatch(chatApi.util.invalidateTags(['ChatList']));
            }
          } else if (event.type === 'read') {
            dispatch(readReceived(event.body));
            if (event.body.userId === userId)
              dispatch(chatApi.util.invalidateTags(['Unread']));
          }
        };
        const onReconnected = () => {
          // Catch up on what was said while the socket was down.
          const { partitionKey, ids } = (
            getState() as unknown as { chat: ChatState }
          ).chat;
          const last = ids.at(-1);
          if (partitionKey && last) {
            void dispatch(
              chatApi.endpoints.getMessages.initiate(
                { partitionKey, after: String(last), size: 200 },
                { subscribe: false, forceRefetch: true },
              ),
            ).then(({ data }) => {
              if (data)
                dispatch(
                  messagesLoaded({
                    partitionKey,
                    messages: data,
                    mode: 'newer',
                  }),
                );
            });
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
  useGetMessagesQuery,
  useSendMessageMutation,
  useMarkReadMutation,
  useGetUnreadQuery,
  useGetChatLessonsQuery,
  useChatStreamQuery,
} = chatApi;
