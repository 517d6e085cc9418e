/**
 * `npm run bench`: figures, not a test. Prints req/s and p99 for a raw
 * node:http hello server and for POST /api/news/readAll on PGlite and on
 * PostgreSQL (ratios to raw), and the landing page's first-load JS+CSS size.
 * Servers run in child processes so autocannon doesn't share their event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

type Result = { name: string; rps: number; p99: number; errors: number };

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timeout waiting for ${url}`);
}

async function load(name: string, url: string, method: 'GET' | 'POST', body?: string): Promise<Result> {
  // Warm-up, then the measured run.
  await autocannon({ url, method, body, connections: 10, duration: 2, headers: { 'content-type': 'application/json' } });
  const r = await autocannon({
    url, method, body, connections: CONNECTIONS, duration: DURATION,
    headers: body ? { 'content-type': 'application/json' } : {},
  });
  return { name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

function rawHello(port: number): ChildProcess {
  const code = `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"hello":"world"}')}).listen(${port},'127.0.0.1')`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

function apiServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/server.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

function landingBytes(): { files: number; gzipKb: number } {
  const dist = path.join(ROOT, 'apps/web/dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const unique = [...new Set(refs)];
  const total = unique.reduce((n, ref) => n + gzipSync(readFileSync(path.join(dist, ref))).length, 0);
  return { files: unique.length, gzipKb: Math.round((total / 1024) * 10) / 10 };
}

async function main() {
  const results: Result[] = [];

  const raw = rawHello(39101);
  await waitFor('http://127.0.0.1:39101/', raw);
  results.push(await load('raw node:http hello', 'http://127.0.0.1:39101/', 'GET'));
  await stop(raw);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-bench-'));
  const lite = apiServer(39102, { DATA_DIR: dataDir });
  try {
    await waitFor('http://127.0.0.1:39102/readyz', lite);
    results.push(await load('/api/news/readAll (PGlite)', 'http://127.0.0.1:39102/api/news/readAll', 'POST', '{"size":20}'));
  } finally {
    await stop(lite);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const dbName = `proam_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  let pgAvailable = true;
  try {
    await admin.connect();
    await admin.query(`create database ${dbName}`);
  } catch (e) {
    pgAvailable = false;
    console.warn(`PostgreSQL not available at ${PG_URL}: ${(e as Error).message}`);
  }
  if (pgAvailable) {
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    const dataDir2 = mkdtempSync(path.join(tmpdir(), 'proam-bench-'));
    const pgServer = apiServer(39103, { DATA_DIR: dataDir2, DATABASE_URL: url.toString() });
    try {
      await waitFor('http://127.0.0.1:39103/readyz', pgServer);
      results.push(await load('/api/news/readAll (PostgreSQL)', 'http://127.0.0.1:39103/api/news/readAll', 'POST', '{"size":20}'));
    } finally {
      await stop(pgServer);
      rmSync(dataDir2, { recursive: true, force: true });
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }

  const base = results[0]!.rps;
  console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, loopback\n`);
  console.log('| route | req/s | p99 ms | errors | ratio to raw |');
  console.log('|---|---|---|---|---|');
  for (const r of results)
    console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p99} | ${r.errors} | ${(r.rps / base).toFixed(2)} |`);
  const landing = landingBytes();
  console.log(`\nlanding first-load JS+CSS: ${landing.gzipKb} KB gzip in ${landing.files} files (budget 100 KB)`);
}

await main();
