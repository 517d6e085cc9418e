import type { FastifyInstance } from 'fastify';
import {
  MailOutboxSummarySchema,
  NotificationSettingsSchema,
  NotificationSettingsUpdateInputSchema,
} from '@proam/contract';
import { Type } from 'typebox';
import { ApiError } from '../lib/api-error.js';
import { defineRoute, MEMBERS } from '../lib/route.js';

/** 通知設定 (the member's own) and the mail outbox as admins watch it. */
export function notificationRoutes(app: FastifyInstance): void {
  const { repos } = app;
  const tags = ['notifications'];

  defineRoute(app, {
    path: '/user/notificationSettings',
    auth: 'bearer',
    roles: MEMBERS,
    summary: "(wave 2) The caller's notification settings",
    tags,
    input: Type.Object({}, { additionalProperties: false }),
    output: NotificationSettingsSchema,
    handler: async ({ caller }) => {
      const settings = await repos.users.notificationSettings(caller.id);
      if (!settings) throw new ApiError('NotFound');
      return settings;
    },
  });

  defineRoute(app, {
    path: '/user/notificationSettingsUpdate',
    auth: 'bearer',
    roles: MEMBERS,
    summary:
      '(wave 2) Change which mails the caller gets; code, password and account mails always go',
    tags,
    input: NotificationSettingsUpdateInputSchema,
    output: NotificationSettingsSchema,
    handler: async ({ input, caller }) => {
      const settings = await repos.users.updateNotificationSettings(
        caller.id,
        input,
      );
      if (!settings) throw new ApiError('NotFound');
      return settings;
    },
  });

  defineRoute(app, {
    path: '/admin/mailOutbox',
    auth: 'admin',
    summary:
      '(wave 2, beyond the contract) Mail outbox counts and the mails given up after 24 hours',
    tags: ['admin'],
    input: Type.Object({}, { additionalProperties: false }),
    output: MailOutboxSummarySchema,
    handler: () => repos.outbox.summary(),
  });
}
