import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appUrlOf } from '../config.js';
import type { Db } from '../db/database.js';
import { auditRepository } from '../repositories/audit-repository.js';
import { chatRepository } from '../repositories/chat-repository.js';
import { competitionRepository } from '../repositories/competition-repository.js';
import { contactRepository } from '../repositories/contact-repository.js';
import { likeRepository } from '../repositories/like-repository.js';
import { mediaRepository } from '../repositories/media-repository.js';
import { moderationRepository } from '../repositories/moderation-repository.js';
import { newsRepository } from '../repositories/news-repository.js';
import { punchoutRepository } from '../repositories/punchout-repository.js';
import { outboxRepository } from '../repositories/outbox-repository.js';
import { paymentRecordRepository } from '../repositories/payment-record-repository.js';
import { paymentRepository } from '../repositories/payment-repository.js';
import { refundRepository } from '../repositories/refund-repository.js';
import { reviewRepository } from '../repositories/review-repository.js';
import { scheduleRepository } from '../repositories/schedule-repository.js';
import { statsRepository } from '../repositories/stats-repository.js';
import type { PublicReads, PublicTable } from '../repositories/public-cache.js';
import type { UserCache } from '../repositories/user-cache.js';
import { userRepository } from '../repositories/user-repository.js';

/**
 * Every repository over one handle: the database, or a transaction.
 * `paymentsOn`: lessons with a fee are paid online (config.stripe).
 */
function repositoriesOver(
  db: Db,
  cache: UserCache,
  published: PublicReads,
  appUrl: string,
  paymentsOn: boolean,
) {
  return {
    users: userRepository(db, cache, published),
    likes: likeRepository(db, cache),
    schedules: scheduleRepository(db, appUrl, paymentsOn),
    payments: paymentRepository(db, appUrl, paymentsOn),
    refunds: refundRepository(db, appUrl),
    paymentRecords: paymentRecordRepository(db),
    outbox: outboxRepository(db, appUrl),
    reviews: reviewRepository(db, cache),
    moderation: moderationRepository(db, published),
    chat: chatRepository(db),
    news: newsRepository(db, published),
    competitions: competitionRepository(db, published),
    contacts: contactRepository(db),
    media: mediaRepository(db),
    audit: auditRepository(db),
    punchout: punchoutRepository(db),
    stats: statsRepository(db),
  };
}

export type TxRepositories = ReturnType<typeof repositoriesOver>;

export type Repositories = TxRepositories & {
  /**
   * Runs `work` in one transaction with repositories bound to it: what it
   * writes commits together or not at all (an admin change and its audit
   * row, docs/architecture.md).
   */
  transaction<T>(work: (tx: TxRepositories) => Promise<T>): Promise<T>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The repositories, created once: the only code that speaks SQL (with the auth stores). */
    repos: Repositories;
  }
}

export const repositoriesPlugin = fp(
  async (app: FastifyInstance) => {
    const { database, userCache, publicCache, config } = app;
    // Links in mails open the app here.
    const appUrl = appUrlOf(config);
    const paymentsOn = config.stripe !== null;
    const repos: Repositories = {
      ...repositoriesOver(
        database.db,
        userCache,
        publicCache,
        appUrl,
        paymentsOn,
      ),
      async transaction(work) {
        // What it wrote is forgotten by this instance's caches once committed:
        // before, a read outside the transaction could load the old rows
        // meanwhile and keep them.
        const written = new Set<PublicTable>();
        const evicted: string[] = [];
        const members: UserCache = {
          ...userCache,
          evict: (...ids) => void evicted.push(...ids),
        };
        const done = await database.db.transaction((tx) =>
          work(
            repositoriesOver(
              tx,
              members,
              { read: null, changed: (t) => written.add(t) },
              appUrl,
              paymentsOn,
            ),
          ),
        );
        if (evicted.length > 0) userCache.evict(...evicted);
        for (const table of written) publicCache.changed(table);
        return done;
      },
    };
    app.decorate('repos', repos);
  },
  { name: 'repositories', dependencies: ['config', 'database'] },
);
