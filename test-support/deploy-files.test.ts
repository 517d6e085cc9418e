/**
 * The deployment files without Docker (these machines have no daemon): the
 * Dockerfile through rcjsuen's dockerfile-utils validator, compose.yaml
 * through dclint (the Compose Specification's JSON schema, then its default
 * rules), and the facts the README promises about both, checked against the
 * sources they depend on (the nginx template, config.ts, the S3 config).
 * The nginx template itself runs in `npm run test:pressure:nginx`.
 *
 *   node --import tsx --test test-support/deploy-files.test.ts
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

// ---- Dockerfile ----

type Instruction = { keyword: string; args: string; line: number };
type Stage = { from: string; name: string | undefined; body: Instruction[] };

/** Instructions with continuation lines joined, split into build stages. */
function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  const lines = dockerfile.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!.trim();
    if (text === '' || text.startsWith('#')) continue;
    while (text.endsWith('\\') && i + 1 < lines.length)
      text = `${text.slice(0, -1).trim()} ${lines[++i]!.trim()}`;
    const m = /^(\S+)\s*(.*)$/.exec(text)!;
    const ins = { keyword: m[1]!.toUpperCase(), args: m[2]!, line: start + 1 };
    if (ins.keyword === 'FROM') {
      const [from, as, name] = ins.args.split(/\s+/);
      stages.push({
        from: from!,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        body: [],
      });
    } else if (ins.keyword !== 'ARG' || stages.length > 0)
      stages.at(-1)?.body.push(ins);
  }
  return stages;
}

const all = (stage: Stage, keyword: string) =>
  stage.body.filter((i) => i.keyword === keyword);

/** A minimal .dockerignore matcher (`**`, `*`, `!`), enough for this file. */
function ignored(patterns: string[], file: string): boolean {
  let out = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const glob = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    const source = glob
      .split('**/')
      .map((part) =>
        part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'),
      )
      .join('(?:.*/)?');
    // A pattern naming a folder leaves out everything inside it.
    if (new RegExp(`^${source}(?:/.*)?$`).test(file)) out = !negate;
  }
  return out;
}

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const stages = stagesOf(text);
  const build = stages.find((s) => s.name === 'build');
  const runtime = stages.at(-1)!;

  it('passes the dockerfile-utils validator with no finding', () => {
    const problems = validate(text).map(
      (d) => `line ${d.range.start.line + 1}: ${d.message}`,
    );
    assert.deepEqual(problems, []);
  });

  it('and the validator finds the mistakes it is there for', () => {
    // Guards the check above: a validator that reported nothing would pass it.
    const broken = validate(
      'FROM node:24-bookworm-slim\nHEALTHCHECK --interval=abc CMD x\nUSER\nEXPOSE abc\n',
    );
    assert.equal(broken.length, 3, JSON.stringify(broken));
  });

  it('builds with every dependency, then runs on production ones only', () => {
    assert.ok(build, 'a stage named build');
    assert.notEqual(runtime, build, 'the image is a later stage than build');
    const runs = (s: Stage) => all(s, 'RUN').map((r) => r.args);
    assert.ok(
      runs(build).some((r) => /\bnpm ci\b(?!.*--omit)/.test(r)),
      'build: npm ci with dev dependencies',
    );
    assert.ok(runs(build).some((r) => /\bnpm run build\b/.test(r)));
    assert.ok(
      runs(runtime).some((r) => /\bnpm ci\b.*--omit=dev/.test(r)),
      `runtime: npm ci --omit=dev (${runs(runtime).join(' | ')})`,
    );
    assert.ok(
      !runs(runtime).some((r) => /npm (run )?(build|start)|tsc|vite/.test(r)),
      'runtime builds nothing',
    );
    for (const s of stages)
      assert.match(s.from, /^(\$\{NODE_IMAGE\}|node:24-bookworm-slim)$/);
    assert.match(text, /^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
  });

  it('copies exactly what the built server reads at run time', () => {
    const copied = all(runtime, 'COPY')
      .filter((c) => c.args.startsWith('--from=build'))
      .map((c) => c.args.split(/\s+/)[1]);
    // server.bundle.js (with server.js), @proam/contract's "default" export, MIGRATIONS_FOLDER
    // (apps/api/src/db/database.ts) and WEB_DIST's default (config.ts).
    assert.deepEqual(copied.sort(), [
      '/app/apps/api/dist',
      '/app/apps/api/drizzle',
      '/app/apps/web/dist',
      '/app/packages/contract/dist',
    ]);
    const contract = JSON.parse(read('packages/contract/package.json')) as {
      exports: { '.': { default: string } };
    };
    assert.match(contract.exports['.'].default, /^\.\/dist\//);
    assert.match(
      read('apps/api/src/db/database.ts'),
      /MIGRATIONS_FOLDER = path\.join\(API_ROOT, 'drizzle'\)/,
    );
    // API_ROOT is the folder above src/ and dist/, where the bundle sits too.
    assert.match(
      read('apps/api/src/paths.ts'),
      /API_ROOT = path\.join\(import\.meta\.dirname, '\.\.'\)/,
    );
  });

  it('runs the built server directly as a non-root user', () => {
    const users = all(runtime, 'USER').map((u) => u.args);
    assert.ok(users.length > 0, 'a USER in the runtime stage');
    assert.ok(!/^(root|0)(:|$)/.test(users.at(-1)!), `USER ${users.at(-1)}`);
    const cmd = all(runtime, 'CMD').at(-1)?.args ?? '';
    // The same V8 flags as `npm start` and the test servers.
    assert.deepEqual(JSON.parse(cmd), [
      'node',
      ...SERVER_NODE_FLAGS,
      'apps/api/dist/server.bundle.js',
    ]);
    const pkg = JSON.parse(read('package.json')) as {
      scripts: { start: string };
    };
    const env = Object.entries(SERVER_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    assert.equal(
      pkg.scripts.start,
      `${env} node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`,
    );
    // The same allocator settings in the image's environment.
    const imageEnv = all(runtime, 'ENV')
      .map((e) => e.args)
      .join(' ');
    for (const [k, v] of Object.entries(SERVER_ENV))
      assert.match(imageEnv, new RegExp(`\\b${k}=${v}\\b`), k);
    assert.equal(all(runtime, 'ENTRYPOINT').length, 0);
  });

  it('listens on every interface, port 3000, with DATA_DIR a volume', () => {
    const env = all(runtime, 'ENV')
      .map((e) => e.args)
      .join(' ');
    assert.match(env, /\bHOST=0\.0\.0\.0\b/);
    assert.match(env, /\bPORT=3000\b/);
    const dataDir = /\bDATA_DIR=(\S+)/.exec(env)?.[1];
    assert.ok(dataDir, 'DATA_DIR is set');
    assert.deepEqual(
      all(runtime, 'VOLUME').flatMap((v) => JSON.parse(v.args) as string[]),
      [dataDir],
    );
    assert.deepEqual(
      all(runtime, 'EXPOSE').map((e) => e.args),
      ['3000'],
    );
  });

  it('checks health with node against /healthz', () => {
    const checks = all(runtime, 'HEALTHCHECK');
    assert.equal(checks.length, 1);
    const exec = /\bCMD\s+(\[.*\])$/.exec(checks[0]!.args)?.[1];
    assert.ok(exec, 'exec form');
    const [bin, flag, script] = JSON.parse(exec) as string[];
    assert.equal(bin, 'node');
    assert.equal(flag, '-e');
    assert.match(script!, /fetch\(.*\/healthz/);
    // The script itself is valid JavaScript.
    assert.doesNotThrow(() => new Function(script!));
  });

  it('keeps installed and built files out of the build context', () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const f of [
      'node_modules/x',
      'apps/api/node_modules/x',
      'apps/api/dist/server.bundle.js',
      'apps/api/tsconfig.tsbuildinfo',
      '.env',
      '.git/HEAD',
      'data/pgdata',
    ])
      assert.ok(ignored(patterns, f), `${f} is left out`);
    // What `npm ci` and `npm run build` read.
    for (const f of [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'packages/contract/src/index.ts',
      'apps/api/src/server.ts',
      'apps/api/drizzle/meta/_journal.json',
      'apps/web/src/main.tsx',
      'apps/web/index.html',
      'apps/web/public/favicon.svg',
      'apps/web/vite-plugins/prerender.ts',
      'apps/web/scripts/precompress.mjs',
    ]) {
      assert.ok(existsSync(path.join(ROOT, f)), `${f} exists`);
      assert.ok(!ignored(patterns, f), `${f} is in the context`);
    }
  });
});

// ---- compose.yaml ----

// dclint's own YAML parser (its dependency), so the facts below are read the
// way the linter read them; merge keys (<<: *api) resolved as Compose does.
const { parse } = createRequire(import.meta.resolve('dclint'))('yaml') as {
  parse: (src: string, options: { merge: boolean }) => unknown;
};

type Service = {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  networks?: string[] | Record<string, { ipv4_address?: string }>;
};
type Compose = { services: Record<string, Service> };

/** dclint's command line, so its default rules apply as for a person running it. */
const dclint = (file: string) =>
  spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/dclint/bin/dclint.cjs'),
      file,
      '--formatter',
      'json',
      '--max-warnings',
      '0',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as Compose;
  const services = compose.services;
  const env = (name: string) => services[name]?.environment ?? {};
  const template = read('deploy/nginx/proam.conf.template');

  it('passes dclint (Compose schema and default rules) with no finding', () => {
    const r = dclint(path.join(ROOT, 'compose.yaml'));
    const results = JSON.parse(r.stdout) as { messages: unknown[] }[];
    assert.deepEqual(
      results.flatMap((x) => x.messages),
      [],
    );
    assert.equal(r.status, 0, r.stderr);
  });

  it('and dclint refuses what the Compose schema does not allow', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'proam-compose-'));
    try {
      const bad = path.join(dir, 'compose.yaml');
      writeFileSync(bad, 'services:\n  web:\n    image: x\n    restart: 5\n');
      const r = dclint(bad);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout, /invalid-schema/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs two API instances of this image on PostgreSQL and Redis', () => {
    const apis = Object.keys(services).filter((n) => /^api-\d+$/.test(n));
    assert.deepEqual(apis, ['api-1', 'api-2']);
    const secrets = new Set<string>();
    for (const name of apis) {
      const s = services[name]!;
      assert.equal(s.build, '.', `${name} builds the Dockerfile`);
      const e = env(name);
      assert.match(e.DATABASE_URL ?? '', /^postgres:\/\/[^@]+@postgres:5432\//);
      assert.equal(e.REDIS_URL, 'redis://redis:6379');
      assert.equal(e.HOST, '0.0.0.0');
      secrets.add(e.JWT_SECRET ?? '');
      // Each its own DATA_DIR (the outbox when no SMTP is set).
      assert.ok(s.volumes?.some((v) => v.endsWith(`:${e.DATA_DIR}`)));
    }
    assert.equal(secrets.size, 1, 'one JWT key for both instances');
    assert.match([...secrets][0]!, /^\$\{JWT_SECRET:\?/);
    assert.ok(services.postgres?.image?.startsWith('postgres:'));
    assert.ok(services.redis?.image?.startsWith('redis:'));
    // The second waits for the first, which migrates and seeds.
    assert.equal(
      services['api-2']?.depends_on?.['api-1']?.condition,
      'service_healthy',
    );
  });

  it('puts nginx in front with the shipped configuration filled', () => {
    const nginx = services.nginx!;
    assert.ok(
      nginx.volumes?.includes(
        './deploy/nginx/proam.conf.template:/etc/nginx/templates/default.conf.template:ro',
      ),
      JSON.stringify(nginx.volumes),
    );
    const e = env('nginx');
    const placeholders = [
      ...new Set(
        [...template.matchAll(/\$\{(PROAM_[A-Z0-9_]+)\}/g)].map((m) => m[1]!),
      ),
    ].sort();
    assert.deepEqual(
      Object.keys(e)
        .filter((k) => k.startsWith('PROAM_'))
        .sort(),
      placeholders,
    );
    assert.ok(new RegExp(e.NGINX_ENVSUBST_FILTER!).test('PROAM_LISTEN'));
    assert.ok(!new RegExp(e.NGINX_ENVSUBST_FILTER!).test('HOSTNAME'));
    assert.deepEqual(
      [e.PROAM_API_1, e.PROAM_API_2],
      ['api-1:3000', 'api-2:3000'],
    );
    // The instances believe X-Forwarded-For from nginx's address only.
    const nets = nginx.networks as Record<string, { ipv4_address?: string }>;
    const nginxIp = Object.values(nets)[0]?.ipv4_address;
    assert.ok(nginxIp);
    assert.equal(env('api-1').TRUST_PROXY, nginxIp);
    assert.equal(env('api-2').TRUST_PROXY, nginxIp);
  });

  it('keeps /metrics, the bucket listing and uploads away from nginx', () => {
    assert.match(template, /location = \/metrics \{\s*return 404;\s*\}/);
    assert.match(template, /location = \/media\/ \{\s*return 404;\s*\}/);
    assert.match(template, /limit_except GET \{\s*deny all;\s*\}/);
  });

  it('serves media from a bucket it creates at start', () => {
    const api = env('api-1');
    const media = new URL(env('nginx').PROAM_MEDIA_UPSTREAM!);
    const endpoint = new URL(api.S3_ENDPOINT!);
    assert.equal(
      media.host,
      endpoint.host,
      'nginx reads the store the API writes',
    );
    assert.equal(media.pathname, `/${api.S3_BUCKET}/`);
    assert.equal(api.MEDIA_BASE_URL, '/media/');
    const store = JSON.parse(read('deploy/s3/seaweedfs-s3.json')) as {
      identities: {
        name: string;
        credentials?: { accessKey: string; secretKey: string }[];
        actions: string[];
      }[];
    };
    const anonymous = store.identities.find((i) => i.name === 'anonymous');
    assert.deepEqual(anonymous?.actions, [`Read:${api.S3_BUCKET}`]);
    const writer = store.identities.find((i) =>
      i.credentials?.some(
        (c) =>
          c.accessKey === api.S3_ACCESS_KEY_ID &&
          c.secretKey === api.S3_SECRET_ACCESS_KEY,
      ),
    );
    assert.ok(writer?.actions.includes('Write'), 'the API may write');
    const init = services['s3-bucket']!;
    assert.deepEqual(init.command, ['node', '/app/deploy/create-bucket.mjs']);
    assert.ok(
      init.volumes?.includes(
        './deploy/s3/create-bucket.mjs:/app/deploy/create-bucket.mjs:ro',
      ),
    );
    assert.equal(init.environment?.S3_BUCKET, api.S3_BUCKET);
    assert.equal(
      services['api-1']?.depends_on?.['s3-bucket']?.condition,
      'service_completed_successfully',
    );
  });
});

// ---- .env.example ----

describe('.env.example', () => {
  it('lists every variable the server reads', () => {
    const config = read('apps/api/src/config.ts');
    const names = [
      ...new Set(
        [...config.matchAll(/env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!),
      ),
    ];
    assert.ok(names.length > 30, `found ${names.length} in config.ts`);
    const listed = new Set(
      [...read('.env.example').matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map(
        (m) => m[1]!,
      ),
    );
    assert.deepEqual(
      names.filter((v) => !listed.has(v)),
      [],
    );
  });
});
