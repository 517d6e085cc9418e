import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  CallOffInputSchema,
  DeletedCountSchema,
  ScheduleByDateInputSchema,
  ScheduleCreateInputSchema,
  ScheduleIdInputSchema,
  ScheduleSchema,
  ScheduleUpdateInputSchema,
  ScheduleUserInputSchema,
  UpdateRoundInputSchema,
  UpdatedCountSchema,
  WaitlistJoinedSchema,
  WaitlistLeftSchema,
} from '@proam/contract';
import type { Hub } from '../realtime/hub.js';
import { ApiError } from '../lib/api-error.js';
import {
  refuseProtectedChanges,
  unchanged,
  sameInstant,
} from '../lib/protected-fields.js';
import { defineRoute, MEMBERS_AND_BUYERS, type Caller } from '../lib/route.js';
import { japanDate } from '../lib/time.js';
import type { ScheduleRow } from '../repositories/schedule-repository.js';

/**
 * Calls a lesson off: the lesson, its mails, the refunds owed, and the reason
 * in its chat as the pro's message, in one transaction; then the refunds are
 * sent and released holds' PaymentIntents cancelled. Used by
 * /schedule/callOff and by a suspension.
 */
export function lessonCallOff(app: FastifyInstance, hub: Hub) {
  const { repos } = app;
  return async (
    lesson: ScheduleRow,
    reason: string,
    now: Date,
  ): Promise<ScheduleRow> => {
    const { row, effects } = await repos.schedules.callOff(
      lesson.id,
      reason,
      now,
      async (tx, participants) => {
        const draft = {
          partitionKey: lesson.id,
          sender: lesson.proId,
          msg: `【レッスン中止のお知らせ】${reason}`,
          createTime: now.toISOString(),
        };
        await repos.chat.append(
          draft,
          hub.messageNotice(draft, [lesson.proId, ...participants]),
          tx,
        );
      },
    );
    app.payments?.afterCommit(effects);
    return row;
  };
}

export function scheduleRoutes(app: FastifyInstance, hub: Hub): void {
  const callOff = lessonCallOff(app, hub);
  const { repos, clock } = app;
  const repo = repos.schedules;
  const tags = ['schedule'];
  const list = Type.Array(ScheduleSchema);
  const today = () => japanDate(clock.now());
  const one = async (row: ScheduleRow, caller: Caller) =>
    (await repo.view([row], caller))[0]!;

  async function owned(id: string, caller: Caller): Promise<ScheduleRow> {
    const row = await repo.find(id);
    if (!row) throw new ApiError('NotFound');
    if (row.proId !== caller.id && caller.type !== 'admin')
      throw new ApiError('Forbidden');
    return row;
  }
  /** A pro and an amateur who blocked each other do not book each other. */
  async function notBlocked(id: string, caller: Caller) {
    const lesson = await repo.find(id);
    if (!lesson) throw new ApiError('NotFound');
    if (await repos.moderation.between(caller.id, lesson.proId))
      throw new ApiError('Forbidden');
  }
  function checkTimes(date: string, start: string, end: string) {
    if (date < today()) throw new ApiError('ValidationError', 'date');
    if (end <= start) throw new ApiError('ValidationError', 'endTime');
  }

  defineRoute(app, {
    path: '/schedule/getById',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'Lessons where userId is the pro or a participant, date ascending',
    tags,
    input: ScheduleUserInputSchema,
    output: list,
    handler: ({ input, caller }) => repo.forUser(input.userId, caller, {}),
  });

  defineRoute(app, {
    path: '/schedule/getActive',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'The same, from today (Japan time) on, not done or cancelled',
    tags,
    input: ScheduleUserInputSchema,
    output: list,
    handler: ({ input, caller }) =>
      repo.forUser(input.userId, caller, { from: today(), activeOnly: true }),
  });

  defineRoute(app, {
    path: '/schedule/getByDate',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'The same, on one date',
    tags,
    input: ScheduleByDateInputSchema,
    output: list,
    handler: ({ input, caller }) =>
      repo.forUser(input.userId, caller, { date: input.date }),
  });

  defineRoute(app, {
    path: '/schedule/create',
    auth: 'bearer',
    summary: 'A pro offers a round lesson (admins: for any pro)',
    roles: ['pro', 'admin'],
    owner: { field: 'proId', admins: true },
    tags,
    input: ScheduleCreateInputSchema,
    output: ScheduleSchema,
    handler: async ({ input, caller }) => {
      let proId = caller.id;
      if (caller.type === 'admin') {
        proId = input.proId ?? '';
        if ((await repos.users.find(proId))?.type !== 'pro')
          throw new ApiError('ValidationError', 'proId');
      }
      checkTimes(input.date, input.startTime, input.endTime);
      return one(await repo.create(proId, input, clock.now()), caller);
    },
  });

  defineRoute(app, {
    path: '/schedule/update',
    auth: 'bearer',
    summary:
      'Edit a lesson (its pro or an admin); capacity never below the reservations',
    tags,
    input: ScheduleUpdateInputSchema,
    output: ScheduleSchema,
    handler: async ({ input, caller }) => {
      const current = await owned(input.id, caller);
      // Who is in it (`participants`, `reservedCount`) follows the reservations
      // and is ignored: a form opened before the last booking sends it stale.
      refuseProtectedChanges([
        // A lesson never changes hands.
        unchanged('proId', input.proId, (p) => p === current.proId),
        unchanged('createdAt', input.createdAt, sameInstant(current.createdAt)),
      ]);
      const date = input.date ?? current.date;
      if (
        input.date !== undefined ||
        input.startTime !== undefined ||
        input.endTime !== undefined
      )
        checkTimes(
          date,
          input.startTime ?? current.startTime,
          input.endTime ?? current.endTime,
        );
      const { row, effects } = await repo.update(current, input, clock.now());
      app.payments?.afterCommit(effects);
      return one(row, caller);
    },
  });

  defineRoute(app, {
    path: '/schedule/updateRound',
    auth: 'bearer',
    summary: "Set the round status of all of a pro's lessons on a date",
    owner: { field: 'proId', admins: true },
    tags,
    input: UpdateRoundInputSchema,
    output: UpdatedCountSchema,
    handler: async ({ input }) => {
      const { updatedCount, effects } = await repo.setRound(
        input.proId,
        input.date,
        input.statusRound,
        clock.now(),
      );
      app.payments?.afterCommit(effects);
      return { updatedCount };
    },
  });

  defineRoute(app, {
    path: '/schedule/reserve',
    auth: 'bearer',
    summary:
      'An amateur reserves a place (idempotent; 409 ScheduleFull when full; 402 PaymentRequired when it is paid online: /payment/start)',
    roles: ['amature'],
    tags,
    input: ScheduleIdInputSchema,
    output: ScheduleSchema,
    handler: async ({ input, caller }) => {
      const lesson =
        (await repo.reserve(input.id, caller.id, today(), clock.now())) ??
        (await repo.find(input.id))!;
      return one(lesson, caller);
    },
  });

  defineRoute(app, {
    path: '/schedule/cancel',
    auth: 'bearer',
    summary:
      'A participant cancels until the day before (Japan time; else 409 CancelClosed); the place goes to the waitlist',
    tags,
    input: ScheduleIdInputSchema,
    output: ScheduleSchema,
    handler: async ({ input, caller }) => {
      const effects = await repo.cancel(
        input.id,
        caller.id,
        today(),
        clock.now(),
      );
      if (!effects) throw new ApiError('Forbidden');
      app.payments?.afterCommit(effects);
      return one((await repo.find(input.id))!, caller);
    },
  });

  defineRoute(app, {
    path: '/schedule/callOff',
    auth: 'bearer',
    summary:
      'The pro (or an admin) calls a lesson off before it starts, with a reason; participants are mailed',
    roles: ['pro', 'admin'],
    tags,
    input: CallOffInputSchema,
    output: ScheduleSchema,
    handler: async ({ input, caller }) => {
      const current = await owned(input.id, caller);
      const row = await callOff(current, input.reason, clock.now());
      return one(row, caller);
    },
  });

  defineRoute(app, {
    path: '/schedule/waitlistJoin',
    auth: 'bearer',
    summary:
      'An amateur joins the waitlist of a full lesson (idempotent; an open one: 409, reserve instead)',
    roles: ['amature'],
    tags,
    input: ScheduleIdInputSchema,
    output: WaitlistJoinedSchema,
    handler: async ({ input, caller }) => {
      await notBlocked(input.id, caller);
      return {
        position: await repo.waitlistJoin(input.id, caller.id, clock.now()),
      };
    },
  });

  defineRoute(app, {
    path: '/schedule/waitlistLeave',
    auth: 'bearer',
    summary: 'Leave the waitlist (idempotent)',
    tags,
    input: ScheduleIdInputSchema,
    output: WaitlistLeftSchema,
    handler: async ({ input, caller }) => {
      await repo.waitlistLeave(input.id, caller.id);
      return { left: true as const };
    },
  });

  defineRoute(app, {
    path: '/schedule/delete',
    auth: 'bearer',
    summary:
      'Delete a lesson without reservations or online payments (else 409: call it off)',
    tags,
    input: ScheduleIdInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => {
      const row = await owned(input.id, caller);
      if (row.reservedCount > 0) throw new ApiError('Conflict');
      return { deletedCount: await repo.remove(row.id) };
    },
  });
}
