import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  DeletedCountSchema,
  LikePairInputSchema,
  LikeQueryInputSchema,
  LikeSchema,
  UserIdInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { defineRoute, MEMBERS_AND_BUYERS, perCaller } from '../lib/route.js';

export function likeRoutes(app: FastifyInstance): void {
  const { repos, clock } = app;
  const repo = repos.likes;
  const tags = ['like'];

  defineRoute(app, {
    path: '/user/like',
    auth: 'bearer',
    summary:
      'The likes a member has given, newest first (that member or an admin)',
    tags,
    owner: { field: 'userId', admins: true },
    input: LikeQueryInputSchema,
    output: Type.Array(LikeSchema),
    handler: ({ input }) => repo.given(input.userId, input.userType),
  });

  defineRoute(app, {
    path: '/user/likedBy',
    auth: 'bearer',
    summary:
      '(beyond the seed) Who liked a member, newest first (that member or an admin)',
    tags,
    owner: { field: 'userId', admins: true },
    input: UserIdInputSchema,
    output: Type.Array(LikeSchema),
    handler: ({ input }) => repo.received(input.userId),
  });

  defineRoute(app, {
    path: '/user/likeCount',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'How many likes a member has received',
    tags,
    input: LikeQueryInputSchema,
    output: Type.Integer(),
    handler: async ({ input }) =>
      (await repos.users.find(input.userId))?.likeCount ?? 0,
  });

  defineRoute(app, {
    path: '/user/likeCreate',
    auth: 'bearer',
    summary: 'Like a member of the other type (idempotent)',
    roles: ['pro', 'amature'],
    owner: { field: 'userId', admins: false },
    tags,
    input: LikePairInputSchema,
    output: LikeSchema,
    rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perCaller },
    handler: async ({ input, caller }) => {
      const target = await repos.users.find(input.likeUserId);
      if (!target) throw new ApiError('NotFound');
      const other = caller.type === 'pro' ? 'amature' : 'pro';
      if (target.type !== other)
        throw new ApiError('ValidationError', 'likeUserId');
      if (await repos.moderation.between(caller.id, target.id))
        throw new ApiError('Forbidden');
      return repo.create(caller.id, caller.type, target.id, clock.now());
    },
  });

  defineRoute(app, {
    path: '/user/likeDelete',
    auth: 'bearer',
    summary: 'Withdraw a like',
    owner: { field: 'userId', admins: false },
    tags,
    input: LikePairInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => ({
      deletedCount: await repo.remove(caller.id, input.likeUserId),
    }),
  });
}
