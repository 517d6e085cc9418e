import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  BlockInputSchema,
  BlockListSchema,
  ReportCreateInputSchema,
  ReportListInputSchema,
  ReportResolveInputSchema,
  ReportSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { audited } from '../lib/audited.js';
import { pageOf } from '../lib/paging.js';
import { defineRoute, MEMBERS, perCaller } from '../lib/route.js';

const Empty = Type.Object({}, { additionalProperties: false });

/**
 * Blocks and unblocks per member: ample for someone blocking by hand. Each one
 * makes every API instance forget who is in a block (the search's shared
 * pages, user-repository.ts); an unblock of no one too (the table's trigger
 * fires for every statement).
 */
const BLOCK_CHANGES = {
  max: 30,
  timeWindow: '1 hour',
  keyGenerator: perCaller,
} as const;

/** (wave 2) Blocking another member, and 通報 to the company with admins resolving it. */
export function moderationRoutes(app: FastifyInstance): void {
  const { repos, clock } = app;
  const repo = repos.moderation;

  defineRoute(app, {
    path: '/user/block',
    auth: 'bearer',
    roles: MEMBERS,
    summary:
      '(wave 2) Block a member: neither sees, likes, messages or books the other (idempotent)',
    tags: ['moderation'],
    input: BlockInputSchema,
    output: BlockListSchema,
    rateLimit: BLOCK_CHANGES,
    handler: async ({ input, caller }) => {
      if (input.userId === caller.id)
        throw new ApiError('ValidationError', 'userId');
      if (!(await repos.users.find(input.userId)))
        throw new ApiError('NotFound');
      await repo.block(caller.id, input.userId, clock.now());
      return repo.blockedBy(caller.id);
    },
  });

  defineRoute(app, {
    path: '/user/unblock',
    auth: 'bearer',
    roles: MEMBERS,
    summary: '(wave 2) Lift a block (idempotent)',
    tags: ['moderation'],
    input: BlockInputSchema,
    output: BlockListSchema,
    rateLimit: BLOCK_CHANGES,
    handler: async ({ input, caller }) => {
      await repo.unblock(caller.id, input.userId);
      return repo.blockedBy(caller.id);
    },
  });

  defineRoute(app, {
    path: '/user/blocks',
    auth: 'bearer',
    roles: MEMBERS,
    summary: '(wave 2) The members the caller blocked, newest first',
    tags: ['moderation'],
    input: Empty,
    output: BlockListSchema,
    handler: ({ caller }) => repo.blockedBy(caller.id),
  });

  defineRoute(app, {
    path: '/report/create',
    auth: 'bearer',
    roles: MEMBERS,
    summary:
      '(wave 2) Report a profile, a review or a chat message to the company (idempotent per target)',
    tags: ['moderation'],
    input: ReportCreateInputSchema,
    output: ReportSchema,
    rateLimit: { max: 20, timeWindow: '1 hour' },
    handler: ({ input, caller }) => repo.report(caller.id, input, clock.now()),
  });

  defineRoute(app, {
    path: '/admin/reports',
    auth: 'admin',
    summary: '(wave 2) Reports, newest first, by status (admins)',
    tags: ['admin'],
    input: ReportListInputSchema,
    output: Type.Array(ReportSchema),
    handler: ({ input }) => repo.reports(input.status, pageOf(input, 50)),
  });

  defineRoute(app, {
    path: '/admin/reportResolve',
    auth: 'admin',
    summary: '(wave 2) Resolve a report with what was done (admins; audited)',
    tags: ['admin'],
    input: ReportResolveInputSchema,
    output: ReportSchema,
    handler: ({ input, caller }) =>
      audited(
        app,
        caller,
        (tx, now) =>
          tx.moderation.resolve(input.id, input.resolution, caller.id, now),
        (report) => ({
          action: 'report.resolve',
          targetId: report.id,
          detail: { resolution: input.resolution },
        }),
      ),
  });
}
