import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so the suite runs from any directory. */
export const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../..',
);

export type TestServer = {
  baseUrl: string;
  /** The server's data folder; null when testing a server started elsewhere (E2E_BASE_URL). */
  dataDir: string | null;
  /** What the server printed, for diagnosing failures. */
  output: () => string;
  stop: () => Promise<void>;
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const waitForReady = async (
  baseUrl: string,
  child: ChildProcess | null,
  timeoutMs: number,
) => {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await sleep(250);
  }
  throw new Error(`server not ready after ${timeoutMs} ms (${last})`);
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
    await waitForReady(baseUrl, null, 60_000);
    return {
      baseUrl,
      dataDir: null,
      output: () => '',
      stop: async () => undefined,
    };
  }

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['apps/api/dist/server.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForReady(baseUrl, child, 60_000);
  } catch (e) {
    await stop();
    throw new Error(
      `${e instanceof Error ? e.message : String(e)}\n--- server output ---\n${output.slice(-4000)}`,
      {
        cause: e,
      },
    );
  }
  return { baseUrl, dataDir, output: () => output, stop };
};
