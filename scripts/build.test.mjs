// The build check behind `npm start` and `npm test` (scripts/build.mjs) must
// notice what the sources' timestamps do not: new dependencies, other
// compiler settings, another Node.
import assert from 'node:assert/strict';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILD_INPUTS, buildPlan, inputsFingerprint, ROOT } from './build.mjs';

describe('build inputs fingerprint', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'proam-build-inputs-'));
  for (const file of BUILD_INPUTS) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(copy, file));
  }
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('is the same for the same inputs and the same Node', () => {
    assert.equal(inputsFingerprint(copy), inputsFingerprint(ROOT));
  });

  it('changes with the lockfile, a workspace package.json, a tsconfig, or Node', () => {
    const before = inputsFingerprint(copy);
    assert.notEqual(inputsFingerprint(copy, 'v99.0.0'), before);
    for (const file of [
      'package-lock.json',
      'apps/web/package.json',
      'apps/api/tsconfig.json',
    ]) {
      const p = path.join(copy, file);
      cpSync(p, `${p}.orig`);
      writeFileSync(p, '{"changed": true}\n', { flag: 'a' });
      assert.notEqual(inputsFingerprint(copy), before, file);
      cpSync(`${p}.orig`, p);
    }
    assert.equal(inputsFingerprint(copy), before);
  });
});

describe('build plan', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'proam-build-plan-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const put = (file, secondsAgo) => {
    const p = path.join(root, file);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, file);
    const t = Date.now() / 1000 - secondsAgo;
    utimesSync(p, t, t);
    utimesSync(path.dirname(p), t, t);
  };
  for (const file of BUILD_INPUTS) put(file, 100);
  put('apps/api/src/server.ts', 100);
  put('packages/contract/src/index.ts', 100);
  put('apps/web/src/main.tsx', 100);
  put('apps/api/dist/server.bundle.js', 50);
  put('packages/contract/dist/index.js', 50);
  put('apps/web/dist/index.html', 50);
  const stamp = 'apps/api/dist/.build-inputs';
  const fingerprint = inputsFingerprint(root);
  const stampAt = (secondsAgo) => {
    writeFileSync(path.join(root, stamp), `${fingerprint}\n`);
    const t = Date.now() / 1000 - secondsAgo;
    utimesSync(path.join(root, stamp), t, t);
  };

  it('builds nothing when no source is newer than the last build, so npm start spawns no compiler', () => {
    stampAt(10);
    assert.deepEqual(buildPlan(root, fingerprint), {
      stale: false,
      api: false,
      web: false,
    });
  });

  it('builds the API for a changed API or contract source, the web app for a web or contract source', () => {
    stampAt(10);
    put('apps/api/src/routes/news.ts', 0);
    assert.deepEqual(buildPlan(root, fingerprint), {
      stale: false,
      api: true,
      web: false,
    });
    stampAt(-1);
    put('packages/contract/src/news.ts', -2);
    assert.deepEqual(buildPlan(root, fingerprint), {
      stale: false,
      api: true,
      web: true,
    });
  });

  it('builds everything without a build or with other inputs', () => {
    stampAt(-10);
    assert.equal(buildPlan(root, 'another').stale, true);
    rmSync(path.join(root, 'apps/api/dist/server.bundle.js'));
    assert.equal(buildPlan(root, fingerprint).api, true);
    rmSync(path.join(root, stamp));
    assert.deepEqual(buildPlan(root, fingerprint), {
      stale: true,
      api: true,
      web: true,
    });
  });
});
