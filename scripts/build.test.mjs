// The build check behind `npm start` and `npm test` (scripts/build.mjs) must
// notice what the sources' timestamps do not: new dependencies, other
// compiler settings, another Node.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILD_INPUTS, inputsFingerprint, ROOT } from './build.mjs';

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
