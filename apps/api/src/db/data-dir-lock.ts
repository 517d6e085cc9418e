import {
  linkSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

/**
 * PGlite takes no lock on its folder, and two processes on one folder silently
 * lose acknowledged writes. We hold a pid file, created so that only one
 * process can (see lockDataDir). A file left by a crashed server is taken over
 * when its process is gone; the process start time guards against a recycled
 * pid.
 */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `DATA_DIR ${dir} is in use by another ProAm Connect server (pid ${pid}). ` +
        'Stop it first, or give this server its own DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) comes after the parenthesised command name.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number, startTime: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  const now = startTimeOf(pid);
  return startTime === null || now === null || now === startTime;
}

const LOCK = 'server.lock';
const GENERATION = /^server\.lock(?:\.(\d+))?$/;

/** The lock files in the folder, newest generation first (`server.lock` is 0). */
function generations(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => GENERATION.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1] ?? 0))
    .sort((a, b) => b - a);
}

const fileOf = (dir: string, generation: number) =>
  path.join(dir, generation === 0 ? LOCK : `${LOCK}.${generation}`);

function holderOf(file: string): { pid?: number; startTime?: string | null } {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as {
      pid?: number;
      startTime?: string | null;
    };
  } catch {
    // Gone meanwhile, or unreadable: no live holder to protect.
    return {};
  }
}

const removeQuietly = (file: string) => {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
};

/**
 * Takes the folder. Deleting a stale lock and creating a new one cannot be
 * made one atomic step (two servers starting together could each delete the
 * other's fresh lock), so a stale lock is never deleted to take over: the new
 * holder creates the next generation, `server.lock.<n+1>`, with link(2),
 * which only one process can win, complete with its content. The holder is
 * the live owner of the newest generation; a creator that finds a newer one
 * after creating its own lost the race and backs off.
 */
export function lockDataDir(dir: string): () => void {
  const content = JSON.stringify({
    pid: process.pid,
    startTime: startTimeOf(process.pid),
  });
  // Unique per call, not per millisecond: two calls in one process (a test, or
  // a restart in place) must never share, and so delete, each other's draft.
  const draft = path.join(dir, `.${LOCK}.${process.pid}.${randomUUID()}`);
  writeFileSync(draft, content, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      const existing = generations(dir);
      const newest = existing[0];
      if (newest !== undefined) {
        const holder = holderOf(fileOf(dir, newest));
        if (
          typeof holder.pid === 'number' &&
          isAlive(holder.pid, holder.startTime ?? null)
        )
          throw new DataDirLockedError(dir, holder.pid);
      }
      const mine = newest === undefined ? 1 : newest + 1;
      const file = fileOf(dir, mine);
      try {
        linkSync(draft, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw e;
      }
      if ((generations(dir)[0] ?? 0) > mine) {
        removeQuietly(file);
        continue;
      }
      // Older generations were left by servers that are gone.
      for (const g of existing) removeQuietly(fileOf(dir, g));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        removeQuietly(file);
      };
    }
    throw new Error(`could not lock ${dir}`);
  } finally {
    removeQuietly(draft);
  }
}
