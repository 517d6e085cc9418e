import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock.js';

const LOCK_MODULE = fileURLToPath(
  new URL('../../src/db/data-dir-lock.ts', import.meta.url),
);

/** A pid that is surely not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

/**
 * One contender in its own process: tries the lock once, says how it went, and
 * holds what it got until the parent closes its stdin (after every contender
 * has answered), so a late starter can never find the lock already released.
 */
const CONTENDER = `
const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
const dir = process.argv[1];
// Every contender spins until the same instant, so their file operations meet.
const at = Number(process.argv[2]);
while (Date.now() < at);
let release = () => {};
try {
  release = lockDataDir(dir);
  process.stdout.write('locked');
} catch (e) {
  process.stdout.write(e.name === 'DataDirLockedError' ? 'refused' : 'error ' + e.message);
}
process.stdin.on('end', () => release());
process.stdin.resume();
`;

type Contender = { answer: Promise<string>; finish(): Promise<void> };

function contender(dir: string, at: number): Contender {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      CONTENDER,
      dir,
      String(at),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const answer = new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      resolve(out);
    });
    child.on('close', () => resolve(out));
  });
  return {
    answer,
    finish: () =>
      new Promise((resolve) => {
        child.on('close', () => resolve());
        child.stdin.end();
      }),
  };
}

describe('DATA_DIR lock', () => {
  it('refuses a second holder in the same process and frees the folder on release', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'proam-lock-'));
    try {
      const release = lockDataDir(dir);
      assert.throws(() => lockDataDir(dir), DataDirLockedError);
      release();
      assert.deepEqual(readdirSync(dir), []);
      lockDataDir(dir)();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes over a lock left by a dead server, also one written by the old naming', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'proam-lock-'));
    try {
      const stale = JSON.stringify({ pid: deadPid(), startTime: '1' });
      writeFileSync(path.join(dir, 'server.lock'), stale);
      writeFileSync(path.join(dir, 'server.lock.3'), stale);
      const release = lockDataDir(dir);
      assert.throws(() => lockDataDir(dir), DataDirLockedError);
      release();
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stays with one holder when another server takes over the same stale lock in between', () => {
    // The race of two servers starting at once, made deterministic: the moment
    // this server has read the stale lock, another takes it over completely.
    const dir = mkdtempSync(path.join(tmpdir(), 'proam-lock-'));
    const stale = JSON.stringify({ pid: deadPid(), startTime: '1' });
    writeFileSync(path.join(dir, 'server.lock'), stale);
    const original = fs.readFileSync;
    const releases: (() => void)[] = [];
    let interleaved = false;
    fs.readFileSync = ((...args: Parameters<typeof original>) => {
      const content = original(...args);
      if (
        !interleaved &&
        String(args[0]).startsWith(path.join(dir, 'server.lock'))
      ) {
        interleaved = true;
        releases.push(lockDataDir(dir)); // the other server
      }
      return content;
    }) as typeof original;
    syncBuiltinESMExports();
    try {
      let second: unknown;
      try {
        releases.push(lockDataDir(dir));
      } catch (e) {
        second = e;
      }
      assert.ok(interleaved);
      assert.equal(releases.length, 1, 'one holder');
      assert.ok(second instanceof DataDirLockedError);
    } finally {
      fs.readFileSync = original;
      syncBuiltinESMExports();
      for (const release of releases) release();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a stale lock to exactly one of several servers starting at once', async () => {
    const rounds = 4;
    const contenders = 4;
    for (let round = 0; round < rounds; round++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'proam-lock-race-'));
      try {
        writeFileSync(
          path.join(dir, 'server.lock'),
          JSON.stringify({ pid: deadPid(), startTime: '1' }),
        );
        // Each process takes ~0.5 s to load tsx; they start together after it.
        const at = Date.now() + 1500;
        const running = Array.from({ length: contenders }, () =>
          contender(dir, at),
        );
        const results = await Promise.all(running.map((c) => c.answer));
        await Promise.all(running.map((c) => c.finish()));
        const locked = results.filter((r) => r === 'locked').length;
        assert.equal(
          locked,
          1,
          `round ${round + 1}: ${locked} holders (${results.join(', ')})`,
        );
        assert.equal(
          results.filter((r) => r === 'refused').length,
          contenders - 1,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
