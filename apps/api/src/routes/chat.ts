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
  type UnreadLesson,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { defineRoute, perCaller, type Caller } from '../lib/route.js';
import { sendNg } from '../plugins/errors.js';
import { chatRepository } from '../repositories/chat-repository.js';
import { scheduleRepository } from '../repositories/schedule-repository.js';
import { createHub } from '../realtime/hub.js';
import type { Deps } from './deps.js';

const HEARTBEAT_MS = 30_000;

/** The caller checked before the upgrade, for the socket handler. */
const socketCallers = new WeakMap<FastifyRequest, Caller>();

/** The access token of a socket: `?access_token=` or `Sec-WebSocket-Protocol: bearer.<token>`. */
function socketToken(req: FastifyRequest): string | null {
  const proto = req.headers['sec-websocket-protocol'];
  const fromProto =
    typeof proto === 'string'
      ? proto
          .split(',')
          .map((p) => p.trim())
          .find((p) => p.startsWith('bearer.'))
      : undefined;
  if (fromProto) return fromProto.slice('bearer.'.length);
  const q = (req.query as Record<string, unknown>).access_token;
  return typeof q === 'string' ? q : null;
}

export async function chatRoutes(
  app: FastifyInstance,
  { database, clock }: Deps,
): Promise<void> {
  const chat = chatRepository(database.db);
  const schedules = scheduleRepository(database.db);
  const hub = createHub({
    database,
    chat,
    schedules,
    log: app.log.child({ component: 'chat-hub' }),
  });
  await hub.start();
  app.addHook('preClose', () => hub.stop());
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
    tags,
    input: MessageSendInputSchema,
    output: MessageSchema,
    rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: perCaller },
    handler: async ({ input, caller }) => {
      if (input.sender !== caller!.id) throw new ApiError('Forbidden');
      // One look-up answers both "may they post?" and "who gets it?".
      const members = await schedules.members(input.partitionKey);
      if (members.length === 0) throw new ApiError('NotFound');
      if (!members.includes(caller!.id)) throw new ApiError('Forbidden');
      return chat.append(
        input.partitionKey,
        caller!.id,
        input.msg,
        clock.now(),
        (tx, message) => hub.messageSent(message, members, tx),
      );
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
      await participantOrThrow(input.partitionKey, caller!.id);
      return chat.list(input);
    },
  });

  defineRoute(app, {
    path: '/roundLesson/messageReaded',
    auth: 'bearer',
    summary: 'Mark messages read by the caller',
    tags,
    input: MessageReadInputSchema,
    output: UpdatedCountSchema,
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id) throw new ApiError('Forbidden');
      const changed = await chat.markRead(
        caller!.id,
        input.msgIdList,
        clock.now(),
      );
      for (const c of changed)
        await hub.messagesRead(c.partitionKey, caller!.id, c.sortKeys);
      return {
        updatedCount: changed.reduce((n, c) => n + c.sortKeys.length, 0),
      };
    },
  });

  defineRoute(app, {
    path: '/notification/unstepRoundLesson',
    auth: 'bearer',
    summary: "The caller's lessons with unread messages, newest message first",
    tags: ['notification'],
    input: UnreadInputSchema,
    output: Type.Array(UnreadLessonSchema),
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id) throw new ApiError('Forbidden');
      const rows = await chat.unread(caller!.id, input.size ?? 20);
      const out: UnreadLesson[] = [];
      for (const r of rows) {
        const row = await schedules.find(r.partitionKey);
        const last = await chat.lastMessage(r.partitionKey);
        if (!row || !last) continue;
        out.push({
          partitionKey: r.partitionKey,
          schedule: (await schedules.view([row], caller!))[0]!,
          unreadCount: r.unreadCount,
          lastMessage: last,
        });
      }
      return out;
    },
  });

  app.get(
    '/api/ws',
    {
      websocket: true,
      config: { auth: 'bearer' },
      // Checked before the upgrade, so a bad token gets a plain 401 NG answer.
      preValidation: async (req, reply) => {
        const token = socketToken(req);
        try {
          if (!token) throw new Error('missing');
          req.headers.authorization = `Bearer ${token}`;
          socketCallers.set(req, (await app.authenticate(req, 'bearer'))!);
        } catch {
          return sendNg(req, reply, new ApiError('InvalidAccessToken'));
        }
      },
    },
    (socket, req) => {
      // Registered before anything can wait, so no message slips between "open" and delivery.
      const caller = socketCallers.get(req)!;
      hub.add(caller.id, socket);
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
