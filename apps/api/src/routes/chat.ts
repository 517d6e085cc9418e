import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  MessageListInputSchema,
  MessageReadInputSchema,
  MessageSchema,
  MessageSendInputSchema,
  UnreadInputSchema,
  UnreadLessonSchema,
  UpdatedCountSchema,
  ChatLessonSchema,
  ChatLessonsInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { defineRoute, perCaller, type Caller } from '../lib/route.js';
import { sendNg } from '../plugins/errors.js';
import type { Hub } from '../realtime/hub.js';
import { SOCKET_PATH } from '../realtime/upgrade-gate.js';

const HEARTBEAT_MS = 30_000;
/** The chat list shows every lesson a member has a chat in; a bound all the same. */
const MAX_CHAT_LESSONS = 500;
/**
 * Open sockets per member and instance: a phone, a tablet and a few browser
 * tabs. Each socket holds memory and a share of every broadcast, so one member
 * must not open thousands.
 */
export const MAX_SOCKETS_PER_MEMBER = 8;
/** The subprotocol the server answers with; the token is never echoed back. */
export const SOCKET_PROTOCOL = 'proam';

/** The subprotocols a client offered, in order. */
const offeredProtocols = (req: FastifyRequest): string[] => {
  const proto = req.headers['sec-websocket-protocol'];
  return typeof proto === 'string'
    ? proto
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
};

/** The caller checked before the upgrade, and when the check began, for the socket handler. */
const socketCallers = new WeakMap<
  FastifyRequest,
  { caller: Caller; checkedAt: number }
>();

/** The access token of a socket: `?access_token=` or `Sec-WebSocket-Protocol: bearer.<token>`. */
function socketToken(req: FastifyRequest): string | null {
  const fromProto = offeredProtocols(req).find((p) => p.startsWith('bearer.'));
  if (fromProto) return fromProto.slice('bearer.'.length);
  const q = (req.query as Record<string, unknown>).access_token;
  return typeof q === 'string' ? q : null;
}

export function chatRoutes(app: FastifyInstance, hub: Hub): void {
  const { repos, clock } = app;
  const { chat, schedules } = repos;
  const tags = ['chat'];

  async function participantOrThrow(partitionKey: string, userId: string) {
    if (!(await schedules.find(partitionKey))) throw new ApiError('NotFound');
    if (!(await schedules.isParticipant(partitionKey, userId)))
      throw new ApiError('Forbidden');
  }

  defineRoute(app, {
    path: '/roundLesson/message',
    auth: 'bearer',
    summary:
      "Post to a lesson's chat (participants; sender must be the caller)",
    owner: { field: 'sender', admins: false },
    tags,
    input: MessageSendInputSchema,
    output: MessageSchema,
    rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: perCaller },
    handler: async ({ input, caller }) => {
      // One look-up answers "may they post?" and "who gets it?".
      const lesson = await chat.posting(input.partitionKey, caller.id);
      if (!lesson) throw new ApiError('NotFound');
      // Not in the lesson; or an amateur a block silences (theirs of a member, or the pro's of them).
      if (!lesson.members.includes(caller.id) || lesson.blocked)
        throw new ApiError('Forbidden');
      const draft = {
        partitionKey: input.partitionKey,
        sender: caller.id,
        msg: input.msg,
        createTime: clock.now().toISOString(),
      };
      return chat.append(draft, hub.messageNotice(draft, lesson.members));
    },
  });

  defineRoute(app, {
    path: '/roundLesson/getMessage',
    auth: 'bearer',
    summary:
      "A lesson's messages, ascending; the newest `size` before `before` (or after `after`)",
    tags,
    input: MessageListInputSchema,
    output: Type.Array(MessageSchema),
    handler: async ({ input, caller }) => {
      await participantOrThrow(input.partitionKey, caller.id);
      return chat.list(input);
    },
  });

  defineRoute(app, {
    path: '/roundLesson/messageReaded',
    auth: 'bearer',
    summary: 'Mark messages read by the caller',
    owner: { field: 'userId', admins: false },
    tags,
    input: MessageReadInputSchema,
    output: UpdatedCountSchema,
    rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perCaller },
    handler: async ({ input, caller }) => {
      const changed = await chat.markRead(
        caller.id,
        input.msgIdList,
        clock.now(),
      );
      for (const c of changed)
        await hub.messagesRead(c.partitionKey, caller.id, c.sortKeys);
      return {
        updatedCount: changed.reduce((n, c) => n + c.sortKeys.length, 0),
      };
    },
  });

  defineRoute(app, {
    path: '/notification/unstepRoundLesson',
    auth: 'bearer',
    summary: "The caller's lessons with unread messages, newest message first",
    owner: { field: 'userId', admins: false },
    tags: ['notification'],
    input: UnreadInputSchema,
    output: Type.Array(UnreadLessonSchema),
    handler: async ({ input, caller }) =>
      (
        await chat.lessons(caller.id, caller, {
          unreadOnly: true,
          size: input.size ?? 20,
        })
      ).flatMap(({ schedule, lastMessage, unreadCount }) =>
        lastMessage
          ? [{ partitionKey: schedule.id, schedule, unreadCount, lastMessage }]
          : [],
      ),
  });

  defineRoute(app, {
    path: '/roundLesson/lessons',
    auth: 'bearer',
    summary:
      "(beyond the seed) The caller's lessons with a chat, each with its newest message and unread count",
    owner: { field: 'userId', admins: false },
    tags,
    input: ChatLessonsInputSchema,
    output: Type.Array(ChatLessonSchema),
    handler: ({ caller }) =>
      chat.lessons(caller.id, caller, {
        unreadOnly: false,
        size: MAX_CHAT_LESSONS,
      }),
  });

  app.get(
    SOCKET_PATH,
    {
      websocket: true,
      config: { auth: 'bearer' },
      // Checked before the upgrade, so a bad token gets a plain 401 NG answer.
      preValidation: async (req, reply) => {
        // A client that offers subprotocols must offer ours: the server would
        // otherwise have to answer with one of the others, the token among them.
        const offered = offeredProtocols(req);
        if (offered.length > 0 && !offered.includes(SOCKET_PROTOCOL))
          return sendNg(
            req,
            reply,
            new ApiError('ValidationError', 'Sec-WebSocket-Protocol'),
          );
        const token = socketToken(req);
        // Before the member's row is read: logins that end from now on close this socket too (hub.add).
        const checkedAt = Date.now();
        let caller: Caller;
        try {
          if (!token) throw new Error('missing');
          req.headers.authorization = `Bearer ${token}`;
          const found = await app.authenticate(req, 'bearer');
          if (!found) throw new Error('missing');
          caller = found;
        } catch {
          return sendNg(req, reply, new ApiError('InvalidAccessToken'));
        }
        if (hub.socketsOf(caller.id) >= MAX_SOCKETS_PER_MEMBER)
          return sendNg(
            req,
            reply,
            new ApiError('TooManyRequests', undefined, { 'retry-after': '30' }),
          );
        socketCallers.set(req, { caller, checkedAt });
      },
    },
    (socket, req) => {
      // Registered before anything can wait, so no message slips between "open" and delivery.
      const { caller, checkedAt } = socketCallers.get(req)!;
      // Upgrades that passed the check together may overshoot: the late ones close.
      if (hub.socketsOf(caller.id) >= MAX_SOCKETS_PER_MEMBER) {
        socket.close(1008, 'too many sockets');
        return;
      }
      if (!hub.add(caller.id, socket, checkedAt)) return;
      const { exp } = app.jwt.decode<{ exp: number }>(socketToken(req)!) ?? {
        exp: 0,
      };
      // The socket lives no longer than its token; the client reconnects with a fresh one.
      const expiry = setTimeout(
        () => socket.close(4001, 'token expired'),
        Math.max(0, exp * 1000 - Date.now()),
      );
      let alive = true;
      socket.on('pong', () => (alive = true));
      const beat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, HEARTBEAT_MS);
      socket.on('close', () => {
        clearTimeout(expiry);
        clearInterval(beat);
      });
      socket.on('message', () => undefined);
      socket.send(
        JSON.stringify({ type: 'hello', body: { userId: caller.id } }),
      );
    },
  );
}
