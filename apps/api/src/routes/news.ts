import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  DeletedCountSchema,
  NewsAdminListInputSchema,
  NewsCreateInputSchema,
  NewsReadAllInputSchema,
  NewsReadInputSchema,
  NewsSchema,
  NewsUpdateInputSchema,
} from '@proam/contract';
import { audited, auditedDelete } from '../lib/audited.js';
import { pageOf } from '../lib/paging.js';
import { defineRoute } from '../lib/route.js';

export function newsRoutes(app: FastifyInstance): void {
  const { repos, clock } = app;
  const repo = repos.news;

  defineRoute(app, {
    path: '/news/read',
    auth: 'none',
    summary: 'One published news item, or null',
    tags: ['news'],
    input: NewsReadInputSchema,
    output: Type.Union([NewsSchema, Type.Null()]),
    cachedAnswers: true,
    handler: ({ input }) => repo.readPublished(input.id, clock.now()),
  });

  defineRoute(app, {
    path: '/news/readAll',
    auth: 'none',
    summary: 'Published news, newest first',
    tags: ['news'],
    input: NewsReadAllInputSchema,
    output: Type.Array(NewsSchema),
    cachedAnswers: true,
    handler: ({ input }) => repo.listPublished(pageOf(input, 20), clock.now()),
  });

  defineRoute(app, {
    path: '/news/create',
    auth: 'admin',
    summary:
      'Publish (or schedule, with a future publishedAt) a news item (admins)',
    tags: ['news'],
    input: NewsCreateInputSchema,
    output: NewsSchema,
    handler: ({ input, caller }) =>
      audited(
        app,
        caller,
        (tx, now) => tx.news.create(input, now),
        (item) => ({
          action: 'news.create',
          targetId: item.id,
          detail: { title: item.title, publishedAt: item.publishedAt },
        }),
      ),
  });

  defineRoute(app, {
    path: '/news/update',
    auth: 'admin',
    summary: 'Edit a news item (admins)',
    tags: ['news'],
    input: NewsUpdateInputSchema,
    output: NewsSchema,
    handler: ({ input, caller }) =>
      audited(
        app,
        caller,
        (tx, now) => tx.news.update(input, now),
        (item) => ({
          action: 'news.update',
          targetId: item.id,
          detail: { fields: Object.keys(input).filter((k) => k !== 'id') },
        }),
      ),
  });

  defineRoute(app, {
    path: '/news/delete',
    auth: 'admin',
    summary: 'Delete a news item (admins)',
    tags: ['news'],
    input: NewsReadInputSchema,
    output: DeletedCountSchema,
    handler: auditedDelete(app, 'news', 'news.delete'),
  });

  defineRoute(app, {
    path: '/news/adminList',
    auth: 'admin',
    summary:
      '(beyond the seed) Every news item, scheduled ones included, newest first (admins)',
    tags: ['news'],
    input: NewsAdminListInputSchema,
    output: Type.Array(NewsSchema),
    handler: ({ input }) => repo.listAll(pageOf(input, 50)),
  });
}
