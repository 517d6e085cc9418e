/**
 * The real API server in a child process, for every suite that needs one
 * (browser e2e, the API's process tests, bench, pressure, the web audit):
 * spawn it on a free port, wait until it answers, read what it printed, and
 * stop it (SIGTERM, then SIGKILL after a grace period) with its exit status.
 * Node built-ins only, so any workspace or root folder can import it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer } from 'node:net';
import path from 'node:path';

/** The repository root. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The built server as its modules (`tsc -b packages/contract apps/api`):
 * what a CPU profile reads best, each function under its own file.
 */
export const SERVER_DIST = path.join(REPO_ROOT, 'apps/api/dist/server.js');

/**
 * V8's flags for the server, as `npm start` (package.json) and the container
 * (Dockerfile) pass them. Semi-spaces of 8 MB: on a machine with much memory
 * V8 sizes the young generation by its heap limit, and under the pressure
 * suite's mixed load the heap then held 195–252 MB for 84–139 MB in use (RSS
 * up to 397 MB); with 8 MB, 70 MB for 50 and RSS at most 217 MB (README,
 * Pressure suite).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

/**
 * glibc's allocator settings for the server, as `npm start` (package.json)
 * and the container (Dockerfile) set them. Each login's argon2id hash takes a
 * 19 MiB buffer in a libuv thread: glibc maps the first one and, once it is
 * freed, raises its mmap threshold to that size, so later ones come from the
 * threads' arenas and stay in them. Under the pressure suite's mixed load
 * (4 logins a second) RSS grew from 208 to 341 MB over 15 minutes with V8's
 * heap flat; with the threshold fixed at 1 MiB, 199 → 216 MB (max 235; README,
 * Pressure suite).
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '1048576' } as const;

/** The built server in one file (`npm run build`), as `npm start` and the container run it. */
export const SERVER_BUNDLE = path.join(
  REPO_ROOT,
  'apps/api/dist/server.bundle.js',
);

/** The server's TypeScript sources, run through tsx. */
export const SERVER_SRC = path.join(REPO_ROOT, 'apps/api/src/server.ts');

/**
 * What the child runs: `dist`, the built server (its bundle); `src`, the sources through
 * tsx with the `source` export condition (no build needed); or any other
 * arguments for node (e.g. `['-e', code]` for a stand-in server).
 */
export type ServerEntry = 'dist' | 'src' | { nodeArgs: readonly string[] };

/** The exit code, or the name of the signal that ended the process. */
export type ExitStatus = number | NodeJS.Signals;

export type ServerOptions = {
  /** Default `dist`. */
  entry?: ServerEntry;
  /** Added to this process's environment after PORT, HOST and LOG_LEVEL, so it may override them. */
  env?: Readonly<Record<string, string>>;
  /** Default: a free port on the loopback. */
  port?: number;
  /** Default the repository root. */
  cwd?: string;
  /** What answers 200 once the server is ready; default `/readyz`. */
  readyPath?: string;
  /** How long `startServer` waits for readiness; default 60 s. */
  readyTimeoutMs?: number;
  /**
   * `capture` (default): stdout and stderr are kept (the last `keepOutput`
   * characters) for `output()`. `inherit`: stderr goes to this process's
   * stderr, stdout is dropped, and `output()` is empty.
   */
  logs?: 'capture' | 'inherit';
  /** Characters of output kept; default 64 KiB. */
  keepOutput?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL; default 10 s. */
  stopGraceMs?: number;
};

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Settles once the process is gone. */
  exited: Promise<ExitStatus>;
  /** What the server printed (see `logs`). */
  output(): string;
  /** Resolves when `readyPath` answers 200; throws if the process exits first or time runs out. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** SIGTERM, SIGKILL after the grace period if still running; resolves with the exit status. */
  stop(graceMs?: number): Promise<ExitStatus>;
  /** SIGKILL at once; resolves with the exit status. */
  kill(): Promise<ExitStatus>;
};

const HOST = '127.0.0.1';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection (no pooled socket outlives it): the status, or the transport error. */
function probeStatus(url: string, timeoutMs: number): Promise<number | string> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const req = client.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', (e) => resolve(e.message));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', (e: NodeJS.ErrnoException) =>
      resolve(e.code ?? e.message),
    );
  });
}

/**
 * Polls `url` until it answers 200. `exited`: the server's exit, which ends
 * the wait at once with an error naming the exit status.
 */
export async function waitForHttp(
  url: string,
  options: {
    timeoutMs?: number;
    intervalMs?: number;
    exited?: Promise<ExitStatus>;
  } = {},
): Promise<void> {
  const { timeoutMs = 60_000, intervalMs = 100 } = options;
  let gone: ExitStatus | undefined;
  void options.exited?.then((status) => (gone = status));
  const deadline = Date.now() + timeoutMs;
  let last: number | string = 'no answer';
  while (Date.now() < deadline) {
    if (gone !== undefined)
      throw new Error(`server exited before it was ready (${gone})`);
    last = await probeStatus(url, Math.min(2000, timeoutMs));
    if (last === 200) return;
    await sleep(intervalMs);
  }
  throw new Error(
    `${url} not ready after ${timeoutMs} ms (last: ${typeof last === 'number' ? `HTTP ${last}` : last})`,
  );
}

function nodeArgs(entry: ServerEntry): readonly string[] {
  if (entry === 'src')
    return ['--conditions=source', '--import', 'tsx', SERVER_SRC];
  if (entry === 'dist') {
    if (!existsSync(SERVER_BUNDLE))
      throw new Error(
        `${SERVER_BUNDLE} is missing: build first (npm run build)`,
      );
    return [...SERVER_NODE_FLAGS, SERVER_BUNDLE];
  }
  return entry.nodeArgs;
}

/** Starts the server process without waiting for it to be ready (see `startServer`). */
export async function spawnServer(
  options: ServerOptions = {},
): Promise<ServerProcess> {
  const args = nodeArgs(options.entry ?? 'dist');
  const port = options.port ?? (await freePort());
  const origin = `http://${HOST}:${port}`;
  const capture = (options.logs ?? 'capture') === 'capture';
  const keep = options.keepOutput ?? 64 * 1024;
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: [
      'ignore',
      capture ? 'pipe' : 'ignore',
      capture ? 'pipe' : 'inherit',
    ],
  });
  // Chunks, trimmed now and then: a chatty server costs the parent little.
  let chunks: string[] = [];
  let kept = 0;
  const output = () => {
    const all = chunks.join('').slice(-keep);
    chunks = [all];
    kept = all.length;
    return all;
  };
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    chunks.push(text);
    kept += text.length;
    if (kept > 2 * keep) output();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'SIGKILL')),
  );
  const running = () => child.exitCode === null && child.signalCode === null;

  return {
    child,
    port,
    origin,
    exited,
    output,
    waitReady: (timeoutMs = options.readyTimeoutMs ?? 60_000) =>
      waitForHttp(`${origin}${options.readyPath ?? '/readyz'}`, {
        timeoutMs,
        exited,
      }),
    async stop(graceMs = options.stopGraceMs ?? 10_000) {
      if (!running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      return exited;
    },
  };
}

/**
 * Spawns the server and waits until `readyPath` answers 200. If it does not,
 * the process is killed and the error carries the end of its output.
 */
export async function startServer(
  options: ServerOptions = {},
): Promise<ServerProcess> {
  const server = await spawnServer(options);
  try {
    await server.waitReady();
  } catch (e) {
    await server.kill();
    const printed = server.output().slice(-4000);
    throw new Error(
      `${message(e)}${printed ? `\n--- server output ---\n${printed}` : ''}`,
      { cause: e },
    );
  }
  return server;
}
