import type { InfiniteData } from '@reduxjs/toolkit/query';
import type { ChatLesson, Message } from '@proam/contract';
import { compareCodeUnits } from '@/lib/compare';

/** Messages per page of a conversation (もっと見る loads the next older page). */
export const PAGE_SIZE = 50;

/**
 * One page of `/roundLesson/getMessage`, ascending by sort_key, and whether
 * it came back full (older messages may exist before it). The flag is kept
 * apart from the list because socket messages grow the newest page later.
 */
export type MessagePage = { messages: Message[]; hasOlder: boolean };

/** The `before` of a page: `null` for the newest page. */
export type PageBefore = string | null;

/**
 * A lesson's conversation in the cache: `pages[0]` is the newest page and
 * each next page is older (もっと見る is `fetchNextPage`).
 */
export type MessagePages = InfiniteData<MessagePage, PageBefore>;

/** Oldest first, as the conversation shows them. */
export const messagesOf = (data: MessagePages | undefined): Message[] =>
  data ? [...data.pages].reverse().flatMap((p) => p.messages) : [];

/** The newest sort_key loaded, where a catch-up after a reconnect starts. */
export const newestSortKey = (data: MessagePages): string | undefined =>
  data.pages[0]?.messages.at(-1)?.sort_key;

const findMessage = (
  data: MessagePages,
  sortKey: string,
): Message | undefined => {
  for (const page of data.pages) {
    const found = page.messages.find((m) => m.sort_key === sortKey);
    if (found) return found;
  }
  return undefined;
};

/**
 * Adds a message (the send answer, the socket, a catch-up) to the newest
 * page in sort_key order; one already there (the sender's own copy coming
 * back over the socket) only gains the readers it did not have.
 */
export const upsertMessage = (draft: MessagePages, message: Message): void => {
  const newest = draft.pages[0];
  if (!newest) return;
  const known = findMessage(draft, message.sort_key);
  if (known) {
    for (const reader of message.readBy)
      if (!known.readBy.includes(reader)) known.readBy.push(reader);
    return;
  }
  const at = newest.messages.findIndex((m) => m.sort_key > message.sort_key);
  if (at < 0) newest.messages.push(message);
  else newest.messages.splice(at, 0, message);
};

/** Records that `userId` has read these messages (a receipt or one's own read). */
export const markReadBy = (
  draft: MessagePages,
  userId: string,
  sortKeys: readonly string[],
): void => {
  for (const key of sortKeys) {
    const m = findMessage(draft, key);
    if (m && !m.readBy.includes(userId)) m.readBy.push(userId);
  }
};

/** Newest conversation first; lessons without messages after, by date. */
export const byLatest = (a: ChatLesson, b: ChatLesson): number => {
  if (a.lastMessage && b.lastMessage)
    return compareCodeUnits(b.lastMessage.sort_key, a.lastMessage.sort_key);
  if (a.lastMessage) return -1;
  if (b.lastMessage) return 1;
  return (
    compareCodeUnits(a.schedule.date, b.schedule.date) ||
    compareCodeUnits(a.schedule.startTime, b.schedule.startTime)
  );
};
