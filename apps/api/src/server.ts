import { ConfigError, loadConfig, type Config } from './config.js';
import { lockDataDir, DataDirLockedError } from './db/data-dir-lock.js';
import {
  migrateDatabase,
  openDatabase,
  trigramIndexMissing,
} from './db/database.js';
import { DEMO_ADMIN, seedDemo } from './db/seed.js';

/** The listener's accept queue (see the listen call). */
const LISTEN_BACKLOG = 4096;

/**
 * Start-up order: configuration (a bad value stops here, naming the setting),
 * the DATA_DIR lock (PGlite only), migrations, the demo seed on an empty
 * database, then listen. SIGTERM/SIGINT drain in-flight requests first.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78);
    }
    throw e;
  }

  let release = () => undefined as void;
  if (!config.databaseUrl) {
    try {
      release = lockDataDir(config.dataDir);
    } catch (e) {
      if (e instanceof DataDirLockedError) {
        console.error(e.message);
        process.exit(73);
      }
      throw e;
    }
  }

  try {
    await serve(config, release);
  } catch (err) {
    release();
    throw err;
  }
}

async function serve(config: Config, release: () => void): Promise<void> {
  // The app's modules (about 1,500 files: Fastify, the routes, Stripe, mail…)
  // load while the database opens, instead of before it: PGlite compiles its
  // WebAssembly on V8's background threads and reads its files meanwhile, so
  // on a start the two overlap (README, Operations: the start-up figures).
  const appModule = import('./app.js');
  // Awaited below; a failure to load is reported there, not as an unhandled rejection.
  appModule.catch(() => undefined);
  const database = await openDatabase(config);
  await migrateDatabase(database);
  if (await trigramIndexMissing(database.db))
    console.warn(
      "The pro search's keyword index (pg_trgm) is missing: a keyword reads every pro's text. README, Running on PostgreSQL, says how to add it.",
    );
  // Seeding is on by default for an empty database; SEED_DEMO=false turns it off.
  if (config.seedDemo !== false && (await seedDemo(database))) {
    console.log(
      `Demo data seeded. Logins: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}, ` +
        'pro1@example.jp / ama1@example.jp / proam-demo-2026',
    );
  }

  const { buildApp } = await appModule;
  const { app, state } = await buildApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    state.shuttingDown = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      release();
      process.exit(1);
    }, 15_000 + config.shutdownGraceMs);
    force.unref();
    try {
      // Keep serving for a moment (readyz answers 503, so balancers move away): closing
      // the listener at once resets connections still in its backlog, which a busy
      // event loop (PGlite runs queries on it) had not accepted yet.
      await new Promise((r) => setTimeout(r, config.shutdownGraceMs));
      await app.close();
      await database.close();
    } finally {
      release();
      clearTimeout(force);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({
    host: config.host,
    port: config.port,
    // Node's default accept queue (511) overflows in a burst of connections
    // (every chat socket reconnecting after an instance restarts): each SYN
    // dropped waits a second before the client's TCP retries. The kernel caps
    // it at net.core.somaxconn (4096 on current Linux).
    backlog: LISTEN_BACKLOG,
  });
}

main().catch((err: unknown) => {
  console.error(
    'ProAm Connect failed to start:',
    err instanceof Error ? err.message : err,
  );
  process.exit(1);
});
