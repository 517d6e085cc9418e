import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Message, SocketEvent } from '@proam/contract';
import type { WebSocket } from 'ws';
import type { Database, Db } from '../db/database.js';
import type {
  chatRepository,
  MessageDraft,
  Notice,
} from '../repositories/chat-repository.js';
import type { scheduleRepository } from '../repositories/schedule-repository.js';

export const CHANNEL = 'proam_events';

/**
 * The close code of a socket whose member's logins ended (suspension,
 * password reset, account deletion): its token will not be taken again, so
 * the client should renew its session (which fails) rather than reconnect
 * with it. 4001 stays "token expired, reconnect with a fresh one".
 */
export const SESSION_ENDED_CLOSE = 4003;
/** How long the hub remembers that a member's sockets were closed, for upgrades checked before that and opened after. */
const ENDED_MEMORY_MS = 60_000;
/**
 * Upgrades checked this soon after the close are closed too: the member
 * cache learns of the change by a notification of its own, which may come
 * a moment after this one, so such a check may have read the old row.
 */
const ENDED_MARGIN_MS = 1_000;

/**
 * What crosses instances. The writer already knows the message and who is in
 * the lesson, so it sends both and no instance has to ask the database again;
 * a payload too big for NOTIFY (8000 bytes) goes as keys, and each instance
 * looks the message up.
 */
type BusEvent =
  | {
      type: 'message';
      partitionKey: string;
      sortKey: string;
      members?: string[];
      message?: Message;
    }
  | {
      type: 'read';
      partitionKey: string;
      userId: string;
      sortKeys: string[];
      members?: string[];
    }
  | {
      /** The member's logins ended: every socket of theirs closes. */
      type: 'disconnect';
      userId: string;
    };

const disconnectEvent = (userId: string) =>
  JSON.stringify({ type: 'disconnect', userId } satisfies BusEvent);

/**
 * Closes the member's sockets on every instance (SESSION_ENDED_CLOSE): a
 * socket's token is checked at the upgrade only, so without this a member
 * suspended, reset or deleted would keep receiving their lessons' chat. In
 * a transaction the notice goes at COMMIT, so a change that rolls back
 * closes nothing. Call it with the write that ends the logins.
 */
export async function closeSocketsOf(db: Db, userId: string): Promise<void> {
  await db.execute(
    sql`select pg_notify(${CHANNEL}, ${disconnectEvent(userId)})`,
  );
}

const NOTIFY_LIMIT = 7500;
/** A message key is a ULID. */
const KEY_LENGTH = 26;

/**
 * Delivers chat events to the sockets of every participant connected to this
 * instance. Writers publish through the database's NOTIFY, so a message sent
 * to any API instance reaches clients of all of them.
 */
export function createHub(deps: {
  database: Database;
  chat: ReturnType<typeof chatRepository>;
  schedules: ReturnType<typeof scheduleRepository>;
  log: FastifyBaseLogger;
}) {
  const sockets = new Map<string, Set<WebSocket>>();
  /** When each member's sockets were last closed (oldest first), for `add`. */
  const endedAt = new Map<string, number>();
  let unlisten: (() => Promise<void>) | undefined;

  function closeAll(userId: string) {
    const now = Date.now();
    for (const [id, at] of endedAt) {
      if (now - at < ENDED_MEMORY_MS) break;
      endedAt.delete(id);
    }
    endedAt.delete(userId);
    endedAt.set(userId, now);
    // Closing: nothing more is sent to them (sendTo sends to open sockets only).
    for (const ws of sockets.get(userId) ?? [])
      ws.close(SESSION_ENDED_CLOSE, 'session ended');
  }

  function sendTo(userIds: string[], event: SocketEvent) {
    // Encoded once for every socket (ws would encode a string per send); sent
    // as text, which browsers hand over as a string.
    const data = Buffer.from(JSON.stringify(event));
    for (const id of userIds)
      for (const ws of sockets.get(id) ?? [])
        if (ws.readyState === ws.OPEN) ws.send(data, { binary: false });
  }

  async function deliver(raw: string) {
    let e: BusEvent;
    try {
      e = JSON.parse(raw) as BusEvent;
    } catch {
      return;
    }
    if (e.type === 'disconnect') {
      closeAll(e.userId);
      return;
    }
    const members = e.members ?? (await deps.schedules.members(e.partitionKey));
    if (!members.some((m) => sockets.has(m))) return;
    if (e.type === 'message') {
      const message =
        e.message ?? (await deps.chat.find(e.partitionKey, e.sortKey));
      if (message) sendTo(members, { type: 'message', body: message });
    } else {
      sendTo(members, {
        type: 'read',
        body: {
          partitionKey: e.partitionKey,
          userId: e.userId,
          sort_keys: e.sortKeys,
        },
      });
    }
  }

  /** Read receipts, split so each NOTIFY stays small. */
  async function publishRead(e: BusEvent & { type: 'read' }) {
    for (let i = 0; i < e.sortKeys.length; i += 200)
      await deps.database.notify(
        CHANNEL,
        JSON.stringify({ ...e, sortKeys: e.sortKeys.slice(i, i + 200) }),
      );
  }

  /**
   * A new message's event, to be sent when it is stored (chatRepository's
   * append fills in its key). Written as the event's JSON cut where the key
   * goes, so no user text can be taken for the cut; too big for NOTIFY, it
   * goes without the message, then without the members.
   */
  function messageNotice(draft: MessageDraft, members: string[]): Notice {
    const head = { type: 'message', partitionKey: draft.partitionKey };
    /** `event` as JSON up to where its sortKey's value starts. */
    const upToKey = (event: object) =>
      `${JSON.stringify(event).slice(0, -1)},"sortKey":"`;
    const withMembers = upToKey({ ...head, members });
    const variants = [
      [
        withMembers,
        `","message":{"sort_key":"`,
        `",${JSON.stringify({ ...draft, readBy: [] }).slice(1)}}`,
      ],
      [withMembers, '"}'],
      [upToKey(head), '"}'],
    ];
    const fits = (parts: string[]) =>
      Buffer.byteLength(parts.join('0'.repeat(KEY_LENGTH))) <= NOTIFY_LIMIT;
    return { channel: CHANNEL, parts: variants.find(fits) ?? variants[2]! };
  }

  return {
    async start() {
      unlisten = await deps.database.listen(CHANNEL, (payload) => {
        deliver(payload).catch((err: unknown) =>
          deps.log.error({ err }, 'chat delivery failed'),
        );
      });
    },
    async stop() {
      // The database may already be gone (shutdown, tests): nothing left to unlisten from.
      await unlisten?.().catch(() => undefined);
      for (const set of sockets.values())
        for (const ws of set) ws.close(1001, 'server shutting down');
      sockets.clear();
    },
    /**
     * Registers a socket whose token check began at `checkedAt` (ms). If the
     * member's sockets were closed since (or just before: ENDED_MARGIN_MS),
     * it is closed too and not added (false): its token may have been taken
     * as the logins ended.
     */
    add(userId: string, ws: WebSocket, checkedAt: number): boolean {
      const ended = endedAt.get(userId);
      if (ended !== undefined && ended + ENDED_MARGIN_MS >= checkedAt) {
        ws.close(SESSION_ENDED_CLOSE, 'session ended');
        return false;
      }
      const set = sockets.get(userId) ?? new Set();
      set.add(ws);
      sockets.set(userId, set);
      ws.once('close', () => {
        set.delete(ws);
        if (set.size === 0) sockets.delete(userId);
      });
      return true;
    },
    /** Closes the member's sockets on every instance (see closeSocketsOf). */
    disconnect: (userId: string) =>
      deps.database.notify(CHANNEL, disconnectEvent(userId)),
    /** How many sockets this member has open on this instance. */
    socketsOf: (userId: string) => sockets.get(userId)?.size ?? 0,
    connectedCount: () => [...sockets.values()].reduce((n, s) => n + s.size, 0),
    messageNotice,
    messagesRead: (partitionKey: string, userId: string, sortKeys: string[]) =>
      publishRead({ type: 'read', partitionKey, userId, sortKeys }),
  };
}

export type Hub = ReturnType<typeof createHub>;
