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
import { defineRoute, perCaller } from '../lib/route.js';
import { likeRepository } from '../repositories/like-repository.js';
import { userRepository } from '../repositories/user-repository.js';
import type { Deps } from './deps.js';

export function likeRoutes(
  app: FastifyInstance,
  { database, clock, userCache }: Deps,
): void {
  const repo = likeRepository(database.db, userCache);
  const users = userRepository(database.db, userCache);
  const tags = ['like'];

  defineRoute(app, {
    path: '/user/like',
    auth: 'bearer',
    summary:
      'The likes a member has given, newest first (that member or an admin)',
    tags,
    input: LikeQueryInputSchema,
    output: Type.Array(LikeSchema),
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id && caller!.type !== 'admin')
        throw new ApiError('Forbidden');
      return repo.given(input.userId, input.userType);
    },
  });

  defineRoute(app, {
    path: '/user/likedBy',
    auth: 'bearer',
    summary:
      '(beyond the seed) Who liked a member, newest first (that member or an admin)',
    tags,
    input: UserIdInputSchema,
    output: Type.Array(LikeSchema),
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id && caller!.type !== 'admin')
        throw new ApiError('Forbidden');
      return repo.received(input.userId);
    },
  });

  defineRoute(app, {
    path: '/user/likeCount',
    auth: 'bearer',
    buyer: 'allow',
    summary: 'How many likes a member has received',
    tags,
    input: LikeQueryInputSchema,
    output: Type.Integer(),
    handler: async ({ input }) =>
      (await users.find(input.userId))?.likeCount ?? 0,
  });

  defineRoute(app, {
    path: '/user/likeCreate',
    auth: 'bearer',
    summary: 'Like a member of the other type (idempotent)',
    tags,
    input: LikePairInputSchema,
    output: LikeSchema,
    rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perCaller },
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id) throw new ApiError('Forbidden');
      if (caller!.type !== 'pro' && caller!.type !== 'amature')
        throw new ApiError('Forbidden');
      const target = await users.find(input.likeUserId);
      if (!target) throw new ApiError('NotFound');
      const other = caller!.type === 'pro' ? 'amature' : 'pro';
      if (target.type !== other)
        throw new ApiError('ValidationError', 'likeUserId');
      return repo.create(caller!.id, caller!.type, target.id, clock.now());
    },
  });

  defineRoute(app, {
    path: '/user/likeDelete',
    auth: 'bearer',
    summary: 'Withdraw a like',
    tags,
    input: LikePairInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => {
      if (input.userId !== caller!.id) throw new ApiError('Forbidden');
      return { deletedCount: await repo.remove(caller!.id, input.likeUserId) };
    },
  });
}
