import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  REPO_ROOT,
  startServer as startServerProcess,
  waitForHttp,
} from '../../../test-support/server-process.ts';

/** The repository root, found from this file so the suite runs from any directory. */
export const repoRoot = REPO_ROOT;

export type TestServer = {
  baseUrl: string;
  /** The server's data folder; null when testing a server started elsewhere (E2E_BASE_URL). */
  dataDir: string | null;
  /** What the server printed, for diagnosing failures. */
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * Starts the real API server (which also serves the built web app) on a free
 * port with a fresh data folder, so the first start migrates and seeds the demo
 * data. Expects `npm run build` to have run. `env` adds settings, e.g.
 * SMTP_URL for a mail peer.
 */
export const startServer = async (
  options: { env?: Record<string, string> } = {},
): Promise<TestServer> => {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    const baseUrl = external.replace(/\/+$/, '');
    await waitForHttp(`${baseUrl}/readyz`, { timeoutMs: 60_000 });
    return {
      baseUrl,
      dataDir: null,
      output: () => '',
      stop: async () => undefined,
    };
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-e2e-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const server = await startServerProcess({
      env: {
        // As the server would log on its own; the output explains failures.
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        DATA_DIR: dataDir,
        ...options.env,
      },
    });
    return {
      baseUrl: server.origin,
      dataDir,
      output: server.output,
      stop: async () => {
        await server.stop();
        removeDataDir();
      },
    };
  } catch (e) {
    removeDataDir();
    throw e;
  }
};
