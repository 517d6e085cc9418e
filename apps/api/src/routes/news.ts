import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NewsReadAllInputSchema, NewsReadInputSchema, NewsSchema } from '@proam/contract';
import { defineRoute } from '../lib/route.js';
import { newsRepository } from '../repositories/news-repository.js';
import type { Deps } from './deps.js';

export function newsRoutes(app: FastifyInstance, { database }: Deps): void {
  const repo = newsRepository(database.db);

  defineRoute(app, {
    path: '/news/read',
    auth: 'none',
    summary: 'One published news item, or null',
    tags: ['news'],
    input: NewsReadInputSchema,
    output: Type.Union([NewsSchema, Type.Null()]),
    handler: ({ input }) => repo.readPublished(input.id),
  });

  defineRoute(app, {
    path: '/news/readAll',
    auth: 'none',
    summary: 'Published news, newest first',
    tags: ['news'],
    input: NewsReadAllInputSchema,
    output: Type.Array(NewsSchema),
    handler: ({ input }) => repo.listPublished(input.page ?? 1, input.size ?? 20),
  });
}
