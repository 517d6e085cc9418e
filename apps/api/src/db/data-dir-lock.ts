import {
  closeSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/**
 * PGlite takes no lock on its folder, and two processes on one folder silently
 * lose acknowledged writes (STACK.md). We hold a pid file created with O_EXCL.
 * A file left by a crashed server is taken over when its process is gone; the
 * process start time guards against a recycled pid.
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

export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'server.lock');
  const content = JSON.stringify({
    pid: process.pid,
    startTime: startTimeOf(process.pid),
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, content);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder: { pid?: number; startTime?: string | null } = {};
      try {
        holder = JSON.parse(readFileSync(file, 'utf8')) as typeof holder;
      } catch {
        /* half-written by a crashed process: treat as stale */
      }
      if (
        typeof holder.pid === 'number' &&
        isAlive(holder.pid, holder.startTime ?? null)
      )
        throw new DataDirLockedError(dir, holder.pid);
      unlinkSync(file);
    }
  }
  throw new Error(`could not lock ${dir}`);
}
