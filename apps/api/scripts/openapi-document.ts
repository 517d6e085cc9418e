import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateDatabase, openPglite } from '../src/db/database.js';

/** The committed API description: `npm run docs:api` writes it, a test keeps it current. */
export const OPENAPI_FILE = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'docs',
  'openapi.json',
);

/**
 * The OpenAPI document the server serves at `/api/openapi.json` when API_DOCS
 * is on, built from the routes' contract schemas. The app is built as the
 * test harness builds it (an in-memory PGlite, migrated), from a fixed
 * environment rather than the caller's, so the document depends on the code
 * alone.
 */
export async function buildOpenApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-openapi-'));
  const database = await openPglite();
  try {
    await migrateDatabase(database);
    const config = loadConfig({
      DATA_DIR: dataDir,
      API_DOCS: 'true',
      JWT_SECRET: 'openapi-document-openapi-document-0123',
      SEED_DEMO: 'false',
      WEB_DIST: path.join(dataDir, 'no-web'),
      SHED_EVENT_LOOP_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    });
    const { app } = await buildApp({ config, database });
    try {
      await app.ready();
      // A plain copy: what a client of /api/openapi.json would parse.
      return JSON.parse(JSON.stringify(app.swagger())) as unknown;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The file's text for a document: JSON as the repository's Prettier settings print it. */
export async function openApiText(document: unknown): Promise<string> {
  const options = (await resolveConfig(OPENAPI_FILE)) ?? {};
  return format(JSON.stringify(document, null, 2), {
    ...options,
    parser: 'json',
  });
}
