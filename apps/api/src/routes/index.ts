import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth.js';
import { chatRoutes } from './chat.js';
import { competitionRoutes } from './competition.js';
import { contactRoutes } from './contact.js';
import { healthRoutes } from './health.js';
import { likeRoutes } from './likes.js';
import { newsRoutes } from './news.js';
import { punchoutRoutes } from './punchout.js';
import { scheduleRoutes } from './schedule.js';
import { storageRoutes } from './storage.js';
import { userRoutes } from './users.js';

/** Every route of the server, one module per API area (docs/api.md). */
export async function routes(app: FastifyInstance): Promise<void> {
  healthRoutes(app);
  newsRoutes(app);
  competitionRoutes(app);
  contactRoutes(app);
  authRoutes(app);
  userRoutes(app);
  likeRoutes(app);
  storageRoutes(app);
  scheduleRoutes(app);
  await chatRoutes(app);
  await punchoutRoutes(app);
}
