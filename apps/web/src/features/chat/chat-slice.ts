import {
  createEntityAdapter,
  createSlice,
  type PayloadAction,
} from '@reduxjs/toolkit';
import type { Message } from '@proam/contract';
import { loggedOut } from '@/features/auth/auth-slice';
import { sessionExpired } from '@/lib/api';

/** sort_keys are ULIDs: their order is the order the server received them. */
export const messagesAdapter = createEntityAdapter({
  selectId: (m: Message) => m.sort_key,
  sortComparer: (a, b) => a.sort_key.localeCompare(b.sort_key),
});

export type ChatState = ReturnType<typeof messagesAdapter.getInitialState> & {
  /** The lesson whose conversation is loaded. */
  partitionKey: string | null;
  /** Whether older messages may exist before the first one loaded. */
  hasMore: boolean;
};

const initialState: ChatState = messagesAdapter.getInitialState({
  partitionKey: null,
  hasMore: false,
});

export type LoadedPayload = {
  partitionKey: string;
  messages: Message[];
  /** `replace` for a fresh load, `older` for もっと見る, `newer` for a catch-up. */
  mode: 'replace' | 'older' | 'newer';
  /** Whether the page came back full, i.e. more may exist. */
  full?: boolean;
};

type ReadReceipt = {
  partitionKey: string;
  userId: string;
  sort_keys: string[];
};

const markRead = (state: ChatState, userId: string, keys: string[]) => {
  for (const key of keys) {
    const m = state.entities[key];
    if (m && !m.readBy.includes(userId)) m.readBy.push(userId);
  }
};

/**
 * One lesson's conversation, keyed by `sort_key` (spec/PRODUCT.md, Client
 * state): loading replaces the list, sending adds the returned message, socket
 * messages add, clear empties it.
 */
export const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    messagesLoaded(state, action: PayloadAction<LoadedPayload>) {
      const { partitionKey, messages, mode, full = false } = action.payload;
      if (mode === 'replace') {
        messagesAdapter.setAll(state, messages);
        state.partitionKey = partitionKey;
        state.hasMore = full;
        return;
      }
      if (partitionKey !== state.partitionKey) return;
      messagesAdapter.upsertMany(state, messages);
      if (mode === 'older') state.hasMore = full;
    },
    messageSent(state, action: PayloadAction<Message>) {
      if (action.payload.partitionKey !== state.partitionKey) return;
      messagesAdapter.upsertOne(state, action.payload);
    },
    messageReceived(state, action: PayloadAction<Message>) {
      if (action.payload.partitionKey !== state.partitionKey) return;
      // The sender's own copy may already be here from the send answer.
      messagesAdapter.upsertOne(state, action.payload);
    },
    readReceived(state, action: PayloadAction<ReadReceipt>) {
      const { partitionKey, userId, sort_keys } = action.payload;
      if (partitionKey === state.partitionKey)
        markRead(state, userId, sort_keys);
    },
    /** This member has read these (sent to messageReaded). */
    messagesMarkedRead(
      state,
      action: PayloadAction<{ userId: string; sortKeys: string[] }>,
    ) {
      markRead(state, action.payload.userId, action.payload.sortKeys);
    },
    chatCleared: () => initialState,
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionExpired, () => initialState)
      .addCase(loggedOut, () => initialState);
  },
});

export const {
  messagesLoaded,
  messageSent,
  messageReceived,
  readReceived,
  messagesMarkedRead,
  chatCleared,
} = chatSlice.actions;

type WithChat = { chat: ChatState };

export const { selectAll: selectChatMessages } = messagesAdapter.getSelectors(
  (state: WithChat) => state.chat,
);
export const selectChatPartitionKey = (state: WithChat) =>
  state.chat.partitionKey;
export const selectChatHasMore = (state: WithChat) => state.chat.hasMore;
