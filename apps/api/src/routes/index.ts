import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin.js';
import { authRoutes } from './auth.js';
import { chatRoutes } from './chat.js';
import { competitionRoutes } from './competition.js';
import { contactRoutes } from './contact.js';
import { healthRoutes } from './health.js';
import { likeRoutes } from './likes.js';
import { moderationRoutes } from './moderation.js';
import { newsRoutes } from './news.js';
import { paymentRecordRoutes } from './payment-records.js';
import { paymentRoutes } from './payment.js';
import { notificationRoutes } from './notifications.js';
import { punchoutRoutes } from './punchout.js';
import { reviewRoutes } from './reviews.js';
import { scheduleRoutes } from './schedule.js';
import { storageRoutes } from './storage.js';
import { userRoutes } from './users.js';
import { createHub } from '../realtime/hub.js';

/** Every route of the server, one module per API area (docs/api.md). */
export async function routes(app: FastifyInstance): Promise<void> {
  healthRoutes(app);
  newsRoutes(app);
  competitionRoutes(app);
  contactRoutes(app);
  authRoutes(app);
  userRoutes(app);
  notificationRoutes(app);
  reviewRoutes(app);
  moderationRoutes(app);
  likeRoutes(app);
  storageRoutes(app);
  // One hub for the instance: chat messages, and the notice a called-off lesson posts.
  const hub = createHub({
    database: app.database,
    chat: app.repos.chat,
    schedules: app.repos.schedules,
    log: app.log.child({ component: 'chat-hub' }),
  });
  await hub.start();
  app.addHook('preClose', () => hub.stop());
  scheduleRoutes(app, hub);
  adminRoutes(app, hub);
  chatRoutes(app, hub);
  await punchoutRoutes(app);
  await paymentRoutes(app);
  paymentRecordRoutes(app);
}
