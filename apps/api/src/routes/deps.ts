import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { Clock } from '../lib/clock.js';
import type { UserCache } from '../repositories/user-cache.js';

/** What routes need from the outside world; tests pass their own. */
export type Deps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  clock: Clock;
  userCache: UserCache;
};
