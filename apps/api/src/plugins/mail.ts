import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../mail/mailer.js';
import {
  createOutboxWorker,
  type OutboxWorker,
} from '../mail/outbox-worker.js';
import { addDays, japanDate, japanTime } from '../lib/time.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends what the mail outbox holds (mail/outbox-worker.ts). */
    mailWorker: OutboxWorker;
    /** The scheduled jobs; `runOnce` lets tests run them at a chosen time. */
    jobs: BookingJobs;
  }
}

export type BookingJobs = {
  /** One pass of every job at the clock's time: what each queued. */
  runOnce(): Promise<{
    reminders: number;
    chatDigests: number;
    reviewInvites: number;
    /** Payment holds that ended unpaid and were let go. */
    expiredHolds: number;
    /** Refunds sent to Stripe (settled or failed an attempt). */
    refunds: number;
  }>;
};

/** The evening before a lesson, from this hour (Japan time), its reminders go out. */
export const REMINDER_HOUR = 18;

/**
 * Outgoing mail: the transport (pooled SMTP, or .eml files in DATA_DIR/outbox
 * without SMTP_URL; tests may pass their own), the outbox worker, and the jobs
 * that queue scheduled mail. Every job only writes outbox rows under a unique
 * key or a conditional claim, so two instances running them at once queue
 * each mail once (docs/architecture.md).
 */
export const mailPlugin = fp(
  async (app: FastifyInstance, opts: { mailer?: Mailer }) => {
    const { config, clock, repos, database } = app;
    const transport =
      opts.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        dataDir: config.dataDir,
        log: app.log.child({ component: 'mailer' }),
      });
    const log = app.log.child({ component: 'mail-outbox' });
    const worker = createOutboxWorker({
      outbox: repos.outbox,
      transport,
      database,
      clock,
      log,
    });
    app.decorate('mailWorker', worker);

    const jobs: BookingJobs = {
      async runOnce() {
        const now = clock.now();
        let reminders = 0;
        if (Number(japanTime(now).slice(0, 2)) >= REMINDER_HOUR)
          reminders = await repos.outbox.queueReminders(
            addDays(japanDate(now), 1),
            now,
          );
        let chatDigests = 0;
        for (const d of await repos.outbox.unreadDigests(now)) {
          const queued = await repos.transaction((tx) =>
            tx.outbox.queueChatDigest(d.schedule_id, d.user_id, d.unread, now),
          );
          if (queued) chatDigests++;
        }
        // After a lesson has ended, its participants are invited to review it.
        const reviewInvites = await repos.outbox.queueReviewInvitations(
          japanDate(now),
          japanTime(now).slice(0, 5),
          now,
        );
        // Ended holds are let go even with payments off (switched off meanwhile): the places come back.
        const ended = await repos.payments.releaseEndedHolds(now);
        app.payments?.afterCommit(ended.effects);
        const refunds = app.payments
          ? await app.payments.refundWorker.runOnce()
          : 0;
        return {
          reminders,
          chatDigests,
          reviewInvites,
          expiredHolds: ended.released,
          refunds,
        };
      },
    };
    app.decorate('jobs', jobs);

    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      await worker.start();
      if (config.jobIntervalMs > 0)
        timer = setInterval(() => {
          jobs
            .runOnce()
            .catch((err: unknown) =>
              log.error({ err }, 'scheduled job failed'),
            );
        }, config.jobIntervalMs).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await worker.stop();
      transport.close();
    });
  },
  {
    name: 'mail',
    // The jobs let ended holds go and send refunds (app.payments).
    dependencies: ['config', 'database', 'repositories', 'payments'],
  },
);
