import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  AdminStatsInputSchema,
  AdminStatsSchema,
  AdminUsersInputSchema,
  ReportContextInputSchema,
  ReportContextSchema,
  SuspendInputSchema,
  UserSchema,
  VerifyProInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { appUrlOf } from '../config.js';
import { audited } from '../lib/audited.js';
import { defineRoute } from '../lib/route.js';
import { japanDate } from '../lib/time.js';
import { proVerifiedMail } from '../mail/templates.js';
import type { Hub } from '../realtime/hub.js';
import { toUser } from '../repositories/user-repository.js';
import { lessonCallOff } from './schedule.js';

/** Why a suspended pro's lessons are off, as their participants read it. */
export const SUSPENDED_CALL_OFF_REASON =
  '運営の判断により、このレッスンは中止となりました。';

/** Member management (wave 2): search, pro verification, suspension. Every change is audited. */
export function adminRoutes(app: FastifyInstance, hub: Hub): void {
  const { repos, config, clock, sessions } = app;
  const tags = ['admin'];
  const callOff = lessonCallOff(app, hub);
  const asAdminSees = (row: Parameters<typeof toUser>[0]) =>
    toUser(row, {
      withEmail: true,
      mediaBaseUrl: config.mediaBaseUrl,
      forAdmin: true,
    });
  const appUrl = appUrlOf(config);

  defineRoute(app, {
    path: '/admin/users',
    auth: 'admin',
    summary:
      '(wave 2) Members with e-mail, by type, verification and keyword (admins)',
    tags,
    input: AdminUsersInputSchema,
    output: Type.Array(UserSchema),
    handler: async ({ input }) =>
      (await repos.users.adminSearch(input)).map(asAdminSees),
  });

  defineRoute(app, {
    path: '/admin/verifyPro',
    auth: 'admin',
    summary: '(wave 2) Verify a pro (or take it back); the pro is mailed',
    tags,
    input: VerifyProInputSchema,
    output: UserSchema,
    handler: async ({ input, caller }) => {
      const row = await audited(
        app,
        caller,
        async (tx, now) => {
          const changed = await tx.users.setVerified(
            input.id,
            input.verified,
            now,
          );
          // The pro's mail commits with the change, in the same transaction.
          if (changed)
            await tx.outbox.enqueue(
              [
                {
                  ...proVerifiedMail(
                    changed.email,
                    changed.userName,
                    input.verified,
                    `${appUrl}/#/tabs/profile`,
                  ),
                  category: 'account',
                  userId: changed.id,
                },
              ],
              now,
            );
          return changed;
        },
        (changed) => ({
          action: 'user.verifyPro',
          targetId: changed.id,
          detail: { verified: input.verified },
        }),
      );
      // A place freed while the pro was not verified went to nobody (the
      // line waits for a verified pro): the first in line gets it now.
      if (input.verified) {
        const now = clock.now();
        const lessons = await repos.schedules.upcomingOf(
          row.id,
          japanDate(now),
        );
        await repos.schedules.fillFreedPlaces(
          lessons.map((l) => l.id),
          now,
        );
      }
      return asAdminSees(row);
    },
  });

  defineRoute(app, {
    path: '/admin/suspend',
    auth: 'admin',
    summary:
      '(wave 2) Suspend a member (no login, every login revoked, hidden, future lessons called off) or lift it',
    tags,
    input: SuspendInputSchema,
    output: UserSchema,
    handler: async ({ input, caller }) => {
      if (input.id === caller.id) throw new ApiError('Conflict');
      const change = () =>
        audited(
          app,
          caller,
          // `now` (the member's tokensValidAfter) is read once the first revocation is over.
          (tx, now) =>
            tx.users.setSuspended(
              input.id,
              input.suspended,
              input.suspended ? input.reason || null : null,
              now,
            ),
          (changed) => ({
            action: input.suspended ? 'user.suspend' : 'user.unsuspend',
            targetId: changed.id,
            detail: input.reason ? { reason: input.reason } : {},
          }),
        );
      // Suspending ends every login and open socket of the member, with no
      // moment when a refresh could mint a token that outlives it.
      const row = input.suspended
        ? await sessions.revokeAllAround(input.id, change)
        : await change();
      if (input.suspended) {
        const now = clock.now();
        if (row.type === 'pro')
          for (const lesson of await repos.schedules.upcomingOf(
            row.id,
            japanDate(now),
          ))
            await callOff(lesson, SUSPENDED_CALL_OFF_REASON, now).catch(
              (err: unknown) => {
                // A lesson already under way stays as it is.
                if (!(err instanceof ApiError && err.code === 'Conflict'))
                  throw err;
              },
            );
      }
      return asAdminSees(row);
    },
  });

  defineRoute(app, {
    path: '/admin/stats',
    auth: 'admin',
    summary:
      '(wave 2) Weekly figures for the dashboard: new members, reservations, cancellations, reviews, chat messages (Japan weeks from Monday; admins)',
    tags,
    input: AdminStatsInputSchema,
    output: AdminStatsSchema,
    handler: async ({ input }) => {
      const now = clock.now();
      return {
        weeks: await repos.stats.weekly(input.weeks ?? 12, now),
        generatedAt: now.toISOString(),
      };
    },
  });

  defineRoute(app, {
    path: '/admin/reportContexts',
    auth: 'admin',
    summary:
      '(wave 2) For reports by id: the reporter and the reported profile, review or message (admins)',
    tags,
    input: ReportContextInputSchema,
    output: Type.Array(ReportContextSchema),
    handler: ({ input }) => repos.moderation.reportContexts(input.ids),
  });
}
