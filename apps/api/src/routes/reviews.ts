import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  DeletedCountSchema,
  ReviewCreateInputSchema,
  ReviewListInputSchema,
  ReviewReplyInputSchema,
  ReviewSchema,
  ReviewUpdateInputSchema,
  ScheduleIdInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { pageOf } from '../lib/paging.js';
import { defineRoute, MEMBERS, type Caller } from '../lib/route.js';
import { japanDate } from '../lib/time.js';

/** 口コミ (wave 2): written by participants after the lesson's day, answered by the pro. */
export function reviewRoutes(app: FastifyInstance): void {
  const { repos, clock } = app;
  const repo = repos.reviews;
  const tags = ['review'];

  async function mine(id: string, caller: Caller, admins: boolean) {
    const row = await repo.find(id);
    if (!row) throw new ApiError('NotFound');
    if (row.userId !== caller.id && !(admins && caller.type === 'admin'))
      throw new ApiError('Forbidden');
    return row;
  }

  defineRoute(app, {
    path: '/review/create',
    auth: 'bearer',
    roles: ['amature'],
    summary:
      'A participant rates a lesson (1–5) from its day on, once per lesson (a second: 409)',
    tags,
    input: ReviewCreateInputSchema,
    output: ReviewSchema,
    handler: async ({ input, caller }) => {
      if (!(await repos.schedules.find(input.scheduleId)))
        throw new ApiError('NotFound');
      return repo.create(caller.id, input, japanDate(clock.now()), clock.now());
    },
  });

  defineRoute(app, {
    path: '/review/update',
    auth: 'bearer',
    summary: "The author edits their review; the pro's average follows",
    tags,
    input: ReviewUpdateInputSchema,
    output: ReviewSchema,
    handler: async ({ input, caller }) =>
      repo.update(await mine(input.id, caller, false), input, clock.now()),
  });

  defineRoute(app, {
    path: '/review/reply',
    auth: 'bearer',
    roles: ['pro'],
    summary: 'The reviewed pro replies (replying again replaces the reply)',
    tags,
    input: ReviewReplyInputSchema,
    output: ReviewSchema,
    handler: async ({ input, caller }) => {
      const row = await repo.find(input.id);
      if (!row) throw new ApiError('NotFound');
      if (row.proId !== caller.id) throw new ApiError('Forbidden');
      return repo.reply(row, input.reply, clock.now());
    },
  });

  defineRoute(app, {
    path: '/review/delete',
    auth: 'bearer',
    summary: 'The author or an admin deletes a review',
    tags,
    input: ScheduleIdInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => ({
      deletedCount: await repo.remove(await mine(input.id, caller, true)),
    }),
  });

  defineRoute(app, {
    path: '/review/list',
    auth: 'bearer',
    roles: MEMBERS,
    summary: "A pro's reviews, newest first, with the pro's replies",
    tags,
    input: ReviewListInputSchema,
    output: Type.Array(ReviewSchema),
    handler: ({ input, caller }) =>
      repo.list(input.proId, pageOf(input, 20), caller),
  });
}
